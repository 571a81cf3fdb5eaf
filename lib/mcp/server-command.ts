// How to run the travel and math servers as child processes: this Node binary with tsx's loader (no extra tsx
// wrapper process, so a kill reaches the server itself). Files are found via loadConfig().root.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../config.js";

export interface ServerCommand {
  command: string;
  args: string[];
  cwd: string;
}

/** How to run one of the kit's servers (`folder`/src/main.ts) with these flags. */
function kitServerCommand(folder: string, label: string, flags: string[], root: string): ServerCommand {
  const main = join(root, folder, "src", "main.ts");
  if (!existsSync(main)) {
    throw new Error(`${label} nicht gefunden: ${main}. Ist WORKSHOP_ROOT bzw. der Projektordner richtig?`);
  }
  const tsx = createRequire(join(root, "package.json")).resolve("tsx");
  return { command: process.execPath, args: ["--import", pathToFileURL(tsx).href, main, ...flags], cwd: root };
}

export function travelServerCommand(flags: string[], root: string = loadConfig().root): ServerCommand {
  return kitServerCommand("mcp-server-travel", "Reise-Server", flags, root);
}

export function mathServerCommand(flags: string[], root: string = loadConfig().root): ServerCommand {
  return kitServerCommand("mcp-server-math", "Rechen-Server", flags, root);
}

/** process.env without undefined values (child_process and the SDK want plain strings). */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...extra };
}
