// startTravelServer() / startMathServer(): run a kit server as a child process, wait until it answers, return
// its URL. The child never outlives its parent: it is killed on exit, and it watches our pid and its
// stdin pipe itself (covers Ctrl-C, a crashed script, a restarted notebook kernel).
import { spawn, type ChildProcess } from "node:child_process";
import { loadConfig } from "../config.js";
import { forParticipants } from "../notebook/notices.js";
import { inNotebook } from "../notebook/output.js";
import { liveInstance, releaseLiveInstance } from "../notebook/live-instances.js";
import {
  MathServerStartError,
  TravelServerStartError,
  type ServerStartError,
  type ServerStartInput,
} from "./errors.js";
import { childEnv, mathServerCommand, travelServerCommand, type ServerCommand } from "./server-command.js";
import { errorText } from "../util.js";

export interface StartTravelServerOptions {
  /** Use only bundled data (default: TRAVEL_OFFLINE from the config). */
  offline?: boolean;
  /** Port (default 0 = any free port; the URL says which). */
  port?: number;
  /** Interface to listen on (default "127.0.0.1": this machine only). */
  host?: string;
  /** How long to wait for the server to answer (default 30 s). */
  timeoutMs?: number;
  /** Extra environment variables for the server (e.g. TRAVEL_TODAY, upstream URLs). Default: none. */
  env?: Record<string, string>;
  /** Receives every stderr line of the server (default: kept, see logs()). */
  onLog?: (line: string) => void;
}

/** A kit server running as a child process. */
export interface ServerHandle {
  /** Streamable HTTP endpoint, e.g. http://127.0.0.1:41234/mcp */
  url: string;
  pid: number;
  /** The server's stderr so far (last 64 KB). */
  logs(): string;
  /** True once the process has exited. */
  readonly exited: boolean;
  /** Stops the server (SIGTERM, then SIGKILL after 3 s) and resolves when the process is gone. */
  stop(): Promise<void>;
}

export interface TravelServerHandle extends ServerHandle {
  mode: "online" | "offline";
}

export type StartMathServerOptions = Omit<StartTravelServerOptions, "offline">;

/** The line the server logs once it listens (mcp-server-travel/src/main.ts writes it). */
const READY_LINE = /Reise-Server \(MCP\) bereit unter (http:\/\/\S+) \(Modus: (online|offline)\)/;
/** The same for mcp-server-math/src/main.ts. */
const MATH_READY_LINE = /Rechen-Server \(MCP\) bereit unter (http:\/\/\S+)/;
const LOG_LIMIT = 64 * 1024;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) child.kill("SIGKILL");
  });
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    if (!(await waitForExit(child, 3000))) {
      child.kill("SIGKILL");
      await waitForExit(child, 2000);
    }
  }
  running.delete(child);
}

async function answers(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(new URL("/healthz", url), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

interface SpawnSpec {
  /** German name for messages ("Reise-Server"). */
  label: string;
  cmd: ServerCommand;
  env: Record<string, string>;
  /** The line the server logs once it listens; group 1 is the URL. */
  readyLine: RegExp;
  timeoutMs: number;
  onLog?: (line: string) => void;
  startError: new (message: string, input: ServerStartInput, output: string) => ServerStartError;
}

interface Spawned {
  child: ChildProcess;
  ready: RegExpExecArray;
  logs(): string;
}

/** Spawns a kit server, waits for its ready line and a /healthz answer; kills it on any failure. */
async function spawnServer(spec: SpawnSpec): Promise<Spawned> {
  const { cmd, label, timeoutMs } = spec;
  const commandLine = [cmd.command, ...cmd.args];
  installExitHook();
  const child = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, env: spec.env, stdio: ["pipe", "ignore", "pipe"] });
  running.add(child);
  let log = "";
  let pending = "";
  let onLine: ((line: string) => void) | undefined;
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    log = (log + chunk).slice(-LOG_LIMIT);
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      spec.onLog?.(line);
      onLine?.(line);
    }
  });
  child.stdin?.on("error", () => undefined); // the child may exit before we close the pipe

  const fail = async (message: string): Promise<never> => {
    await killChild(child);
    throw new spec.startError(message, { command: commandLine, timeoutMs, pid: child.pid }, log);
  };

  let ready: RegExpExecArray;
  try {
    ready = await new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Der ${label} hat nach ${timeoutMs} ms noch nicht geantwortet.`)),
        timeoutMs,
      );
      const done = () => clearTimeout(timer);
      onLine = (line) => {
        const m = spec.readyLine.exec(line);
        if (m) {
          done();
          resolve(m);
        }
      };
      child.once("error", (error) => {
        done();
        reject(new Error(`Der ${label} konnte nicht gestartet werden: ${error.message}`));
      });
      child.once("exit", (code, signal) => {
        done();
        reject(new Error(`Der ${label} hat sich beim Start beendet (Exit-Code ${code ?? signal}).`));
      });
    });
  } catch (error) {
    return fail(errorText(error));
  }
  onLine = undefined;
  if (!(await answers(ready[1]!, Math.min(5000, timeoutMs)))) {
    return fail(`Der ${label} meldet ${ready[1]}, antwortet dort aber nicht.`);
  }

  // Neither the child nor its pipes keep this process alive; the exit hook and the child's parent watch clean up.
  child.unref();
  for (const stream of [child.stdin, child.stderr]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
  return { child, ready, logs: () => log };
}

function handleOf(spawned: Spawned, onStop?: (handle: ServerHandle) => void): ServerHandle {
  const { child } = spawned;
  const handle: ServerHandle = {
    url: spawned.ready[1]!,
    pid: child.pid!,
    logs: spawned.logs,
    get exited() {
      return child.exitCode !== null || child.signalCode !== null;
    },
    stop: () => {
      onStop?.(handle);
      return killChild(child);
    },
  };
  return handle;
}

function serverFlags(options: { host?: string; port?: number }): string[] {
  return [
    "--host",
    options.host ?? "127.0.0.1",
    "--port",
    String(options.port ?? 0),
    "--parent-pid",
    String(process.pid),
  ];
}

const TRAVEL_SLOT = "travel-server";
const MATH_SLOT = "math-server";

/** What makes two starts of a server the same inside a kernel (onLog by its source text). */
function serverKey(options: StartMathServerOptions, extra: Record<string, unknown> = {}): string {
  const { onLog, ...rest } = options;
  return JSON.stringify({ ...rest, ...extra, onLog: onLog ? String(onLog) : undefined });
}

/**
 * Inside a notebook kernel a kit server is kept once per slot: running the set-up cell again with the
 * same options returns the running server ("Run All", a cell run twice), other options stop it first;
 * a failure prints one German paragraph.
 */
async function keptInKernel<H extends ServerHandle>(
  slot: string,
  label: string,
  key: string,
  spawnIt: () => Promise<H>,
): Promise<H> {
  try {
    return await liveInstance(slot, key, {
      create: spawnIt,
      dispose: (server) => server.stop(),
      isAlive: (server) => !server.exited,
      onEvent: (event) =>
        console.log(
          event === "reused"
            ? `${label} läuft schon – er wird wiederverwendet.`
            : `Vorheriger ${label} beendet (andere Einstellungen).`,
        ),
    });
  } catch (error) {
    throw forParticipants(error);
  }
}

/** Starts the travel server; in a notebook kernel at most one runs (see keptInKernel). Elsewhere every call starts its own process. */
export async function startTravelServer(options: StartTravelServerOptions = {}): Promise<TravelServerHandle> {
  if (!inNotebook()) return spawnTravelServer(options);
  const key = serverKey(options, { offline: options.offline ?? loadConfig().travelOffline });
  return keptInKernel(TRAVEL_SLOT, "Reise-Server", key, () => spawnTravelServer(options));
}

async function spawnTravelServer(options: StartTravelServerOptions): Promise<TravelServerHandle> {
  const config = loadConfig();
  const offline = options.offline ?? config.travelOffline;
  const flags = serverFlags(options);
  if (offline) flags.push("--offline");
  const spawned = await spawnServer({
    label: "Reise-Server",
    cmd: travelServerCommand(flags, config.root),
    env: childEnv({ ...options.env, TRAVEL_OFFLINE: offline ? "1" : "0" }),
    readyLine: READY_LINE,
    timeoutMs: options.timeoutMs ?? 30_000,
    onLog: options.onLog,
    startError: TravelServerStartError,
  });
  const handle = handleOf(spawned, (h) => releaseLiveInstance(TRAVEL_SLOT, h));
  return Object.assign(handle, { mode: spawned.ready[2] as "online" | "offline" });
}

/**
 * Starts the math server (exact arithmetic, mcp-server-math) as a child process on a free port; in a
 * notebook kernel at most one runs (see keptInKernel). Elsewhere every call starts its own process.
 */
export async function startMathServer(options: StartMathServerOptions = {}): Promise<ServerHandle> {
  if (!inNotebook()) return spawnMathServer(options);
  return keptInKernel(MATH_SLOT, "Rechen-Server", serverKey(options), () => spawnMathServer(options));
}

async function spawnMathServer(options: StartMathServerOptions): Promise<ServerHandle> {
  const spawned = await spawnServer({
    label: "Rechen-Server",
    cmd: mathServerCommand(serverFlags(options), loadConfig().root),
    env: childEnv(options.env),
    readyLine: MATH_READY_LINE,
    timeoutMs: options.timeoutMs ?? 30_000,
    onLog: options.onLog,
    startError: MathServerStartError,
  });
  return handleOf(spawned, (h) => releaseLiveInstance(MATH_SLOT, h));
}
