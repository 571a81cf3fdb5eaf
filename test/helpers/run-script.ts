// Runs one of the kit's scripts as a real subprocess (node + tsx), as `npm run …` would.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<script>` with `args`; the child is killed after `timeoutMs` (default 120 s). */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<ScriptRun> {
  const root = findProjectRoot();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(root, "scripts", script), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
