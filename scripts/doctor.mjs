// `npm run doctor` entry. Plain JavaScript so that it can still say what to do when node_modules
// (and with it tsx) is missing; otherwise it hands over to scripts/kit.ts (command "doctor").
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.log(
    `❌ Node.js: ${process.versions.node} ist zu alt (nötig: 20.19 oder neuer)\n   → Node.js LTS von https://nodejs.org installieren, dann npm run setup.`,
  );
  process.exit(1);
}
if (!existsSync(join(root, "node_modules", "tsx", "package.json"))) {
  console.log("❌ npm-Abhängigkeiten: node_modules fehlt\n   → npm run setup");
  process.exit(1);
}
const { register } = await import("tsx/esm/api");
register();
process.argv.splice(2, 0, "doctor");
await import("./kit.ts");
