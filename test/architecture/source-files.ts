// The kit's own TypeScript files, as the architecture tests read them.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";

export const ROOT = findProjectRoot();

/** The folders that hold the kit's code (not its tests or notebooks). */
export const CODE_FOLDERS = ["lib", "scripts", "bench", "mcp-server-travel", "mcp-server-math", "mcp-server-shared"];

/** The TypeScript files under `dir` (no node_modules). */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "node_modules" ? [] : tsFiles(p);
    return name.endsWith(".ts") ? [p] : [];
  });
}

/** Every TypeScript file of the kit's code. */
export const codeFiles = (): string[] => CODE_FOLDERS.flatMap((folder) => tsFiles(join(ROOT, folder)));
