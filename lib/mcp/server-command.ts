// How to run the travel and math servers as child processes: this Node binary on the server's prebuilt bundle
// when it is fresh (server-bundle.ts), else with tsx's loader on its sources (no extra tsx wrapper process either
// way, so a kill reaches the server itself). Files are found via loadConfig().root.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadConfig } from "../config.js";
import { freshServerBundle } from "./server-bundle.js";

export interface ServerCommand {
  command: string;
  args: string[];
  cwd: string;
}

/**
 * Bounded memory for a server that runs all day (issue 15, bench/classroom.bench.ts "Session churn"):
 * - a small young generation: V8 would otherwise grow it to ~48 MB under many short requests and keep the pages;
 * - old space collected once it has grown by half its live size, not up to ~3× (V8's default for a fast-GC
 *   heap): closed sessions and answered requests are garbage in old space until the next full GC, so with
 *   the default RSS after 2000 abandoned sessions rose by ~45 MB (ratio 1.3–1.5, depending on where the
 *   sawtooth stood); with 1.5× it stays at ~1.15×. A full GC of the ~20 MB live heap takes ~10–20 ms.
 * The `travel-server` and `math-server` npm scripts pass the same flags (tested).
 */
export const SERVER_V8_FLAGS = ["--max-semi-space-size=2", "--heap-growing-percent=50"];

/** How to run one of the kit's servers (`folder`/src/main.ts) with these flags. */
function kitServerCommand(folder: string, label: string, flags: string[], root: string): ServerCommand {
  const main = join(root, folder, "src", "main.ts");
  if (!existsSync(main)) {
    throw new Error(`${label} nicht gefunden: ${main}. Ist WORKSHOP_ROOT bzw. der Projektordner richtig?`);
  }
  const bundle = freshServerBundle(root, folder);
  if (bundle) return { command: process.execPath, args: [...SERVER_V8_FLAGS, bundle, ...flags], cwd: root };
  const tsx = createRequire(join(root, "package.json")).resolve("tsx");
  return {
    command: process.execPath,
    args: [...SERVER_V8_FLAGS, "--import", pathToFileURL(tsx).href, main, ...flags],
    cwd: root,
  };
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
