// The classic Jupyter Notebook server the browser check drives: started on a free port with a random
// token, and stopped with everything it started. Jupyter starts each kernel in a session of its own, so a
// server that is killed before it has shut its kernels down would leave them running (and the kit servers
// they started): they all carry this server's mark in their environment and are ended with it.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { freePort } from "../node/free-port.js";
import { stopProcessesWithEnv } from "../node/processes.js";
import { waitForAnswer } from "../node/wait-for-answer.js";

/** The mark in the environment of the server and of every process it starts. */
const SERVER_MARK_ENV = "KIT_NOTEBOOK_SERVER";

export interface NotebookServer {
  /** http://127.0.0.1:<port> */
  base: string;
  token: string;
  /** The server's own process (its process group). */
  child: ChildProcess;
  /** Resolves once the server answers; rejects when it exits first or does not answer within `timeoutMs`. */
  ready(timeoutMs: number): Promise<void>;
  /** The last 4,000 characters of the server's log. */
  log(): string;
  /** Stops the server (SIGTERM, SIGKILL after 5 s) and then ends every kernel and child it left running. */
  stop(): Promise<void>;
}

/**
 * Starts `jupyter notebook` serving `notebooksDir` with `env`, on a free port of 127.0.0.1. With `viaWorkshop`
 * it is started the participant's way instead, `npm run workshop -- --uebung` (notebooks/, the kit's options).
 */
export async function spawnNotebookServer(
  notebooksDir: string,
  env: NodeJS.ProcessEnv,
  options: { viaWorkshop?: boolean; extraArgs?: string[] } = {},
): Promise<NotebookServer> {
  const port = await freePort();
  const token = randomBytes(16).toString("hex");
  const mark = randomBytes(6).toString("hex");
  const serverArgs = [
    "--no-browser",
    `--port=${port}`,
    "--ip=127.0.0.1",
    `--NotebookApp.token=${token}`,
    "--NotebookApp.open_browser=False",
    ...(options.extraArgs ?? []),
  ];
  const root = findProjectRoot();
  const [command, args] = options.viaWorkshop
    ? [
        process.execPath,
        ["--import", "tsx", join(root, "scripts", "kit.ts"), "workshop", "--uebung", "--", ...serverArgs],
      ]
    : [
        "jupyter",
        [
          "notebook",
          ...serverArgs,
          `--notebook-dir=${notebooksDir}`,
          ...(process.getuid?.() === 0 ? ["--allow-root"] : []),
        ],
      ];
  const child = spawn(command, args, {
    cwd: root,
    env: { ...env, [SERVER_MARK_ENV]: mark },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let log = "";
  child.stderr?.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    token,
    child,
    ready: (timeoutMs) => waitForServer(`${base}/api?token=${token}`, child, timeoutMs),
    log: () => log,
    stop: async () => {
      await stopProcessGroup(child);
      await stopProcessesWithEnv(SERVER_MARK_ENV, mark, 2000);
    },
  };
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  if (await waitForAnswer(url, { timeoutMs, intervalMs: 300, gaveUp: () => child.exitCode !== null })) return;
  if (child.exitCode !== null) throw new Error(`Jupyter exited early (code ${child.exitCode})`);
  throw new Error(`Jupyter did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/** SIGTERM to the server's process group, SIGKILL when it has not exited after 5 s. */
function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // already gone
      }
      resolve();
    }, 5000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      // the server was spawned detached: its own process group (its kernels have sessions of their own)
      process.kill(-(child.pid as number), "SIGTERM");
    } catch {
      resolve();
    }
  });
}
