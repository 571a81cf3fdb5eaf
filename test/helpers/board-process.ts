// Starts the class board (`npm run board`) as a real subprocess on a free loopback port and waits for
// the URL it prints for the projector.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";

export interface BoardProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Ends the board with `signal` (SIGKILL: a crash, nothing flushed) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `env`: added to this process's environment (e.g. WORKSHOP_ROOT for a kit folder of the test's own). */
export function startBoardProcess(
  args: string[],
  timeoutMs = 30_000,
  env: NodeJS.ProcessEnv = {},
): Promise<BoardProcess> {
  const root = findProjectRoot();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(root, "scripts", "kit.ts"), "board", "--port", "0", ...args],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop("SIGKILL");
      reject(new Error(`board did not start: ${text}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      text += d.toString();
      const url = /Für den Beamer:\s+(http:\S+)/.exec(text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, output: () => text, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`board exited (${code}): ${text}`));
    });
  });
}
