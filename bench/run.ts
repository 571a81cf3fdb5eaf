// `npm run bench [-- filter]` — runs every bench/*.bench.ts in its own process and prints its table.
// By default on the tiny generated models (mechanics and ratios); BENCH_REAL_MODEL=1 uses the
// configured models (LLM_MODEL_PATH, EMBEDDING_MODEL) for real speed numbers.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../lib/config.js";
import { testEnvironment } from "../scripts/test-env.js";

const root = findProjectRoot();
const filters = process.argv.slice(2);
const env = await testEnvironment({ tinyModels: process.env.BENCH_REAL_MODEL !== "1" });
const files = readdirSync(join(root, "bench"))
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filters.length === 0 || filters.some((q) => f.includes(q)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, ["--import", "tsx", join("bench", file)], { cwd: root, env, stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
