// The three services of `npm run klassenraum`, each a child process of its own: the class server
// (llama.cpp's llama-server), the class board and the Klassenraum-Hub. Each starts detached, so Ctrl+C
// reaches only the klassenraum script, which then stops them in order (the hub stops its own children).
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { delay } from "../../../lib/util.js";
import { waitAtMost } from "../../node/processes.js";
import { waitForAnswer } from "../../node/wait-for-answer.js";
import { KitError } from "../../../lib/errors.js";

export class ServiceStartError extends KitError {
  override name = "ServiceStartError";
}

export interface Service {
  name: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL to its process group after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Spawns `command` detached with its output kept (the last 20 kB) for error messages. */
export function startService(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Service {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let text = "";
  const keep = (d: Buffer) => {
    text = (text + d.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  child.on("error", (error) => keep(Buffer.from(String(error))));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    child.once("close", () => resolve());
    child.once("error", () => resolve());
  });
  const alive = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  const stop = async (graceMs = 20_000) => {
    if (!alive()) return;
    child.kill("SIGTERM");
    await waitAtMost(exited, graceMs);
    if (alive()) {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      await exited;
    }
  };
  return { name, child, output: () => text, stop };
}

/** Waits until `pattern` appears in the service's output and returns its first group (or the match). */
export async function waitForLine(service: Service, pattern: RegExp, timeoutMs: number): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const m = pattern.exec(service.output());
    if (m) return m[1] ?? m[0];
    if (service.child.exitCode !== null || service.child.signalCode !== null) break;
    await delay(100);
  }
  throw new ServiceStartError(`${service.name} ist nicht gestartet:\n${service.output().slice(-1500)}`);
}

/** Waits until `url` answers 2xx. */
export async function waitForHttp(service: Service, url: string, timeoutMs: number): Promise<void> {
  const exited = () => service.child.exitCode !== null || service.child.signalCode !== null;
  if (await waitForAnswer(url, { timeoutMs, intervalMs: 200, gaveUp: exited })) return;
  throw new ServiceStartError(`${service.name} antwortet nicht unter ${url}:\n${service.output().slice(-1500)}`);
}

/** `node --import tsx <kit>/scripts/kit.ts <name>`: one of the kit's own commands as a service. */
export function kitCommand(kitRoot: string, name: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", "tsx", join(kitRoot, "scripts", "kit.ts"), name] };
}

/** A service that is started again when it dies (a llama-server killed for memory, a crashed board). */
export interface SupervisedService {
  /** The service as it runs now. */
  current(): Service;
  /** Stops it for good (no restart). */
  stop(): Promise<void>;
}

/** Gives up after this many crashes within CRASH_WINDOW_MS (a service that cannot start at all). */
export const MAX_RESTARTS = 5;
const CRASH_WINDOW_MS = 5 * 60_000;
/** Wait before the n-th restart in a row: 1 s, 2 s, 4 s … at most 30 s. */
export const restartBackoffMs = (n: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, n - 1));

/**
 * Keeps `first` running: when it exits by itself, `start()` makes a new one after a backoff and `ready`
 * waits for it; each step is said in German on `log`. The other services are not touched.
 */
export function superviseService(
  first: Service,
  start: () => Service,
  ready: (s: Service) => Promise<void>,
  log: (line: string) => void,
): SupervisedService {
  let service = first;
  let stopping = false;
  // Ends a backoff wait at once on stop(): its timer (up to 30 s) would otherwise hold npm run klassenraum open.
  const stopped = new AbortController();
  const crashes: number[] = [];
  const exitOf = (s: Service) =>
    new Promise<void>((resolve) => {
      if (s.child.exitCode !== null || s.child.signalCode !== null) resolve();
      s.child.once("exit", () => resolve());
    });
  void (async () => {
    for (;;) {
      await exitOf(service);
      if (stopping) return;
      const now = Date.now();
      crashes.push(now);
      while (crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift();
      const how = service.child.signalCode ? `Signal ${service.child.signalCode}` : `Code ${service.child.exitCode}`;
      if (crashes.length > MAX_RESTARTS) {
        log(
          `${service.name} ist ${crashes.length}-mal in wenigen Minuten ausgefallen – kein weiterer Neustart. Die anderen laufen weiter.\n${service.output().slice(-1000)}`,
        );
        return;
      }
      const wait = restartBackoffMs(crashes.length);
      log(`${service.name} hat sich beendet (${how}) – Neustart in ${wait / 1000} s. Die anderen laufen weiter.`);
      const waited = await delay(wait, stopped.signal).then(
        () => true,
        () => false,
      );
      if (!waited || stopping) return;
      service = start();
      try {
        await ready(service);
        log(`${service.name} läuft wieder.`);
      } catch (error) {
        log(String((error as Error).message ?? error).slice(0, 1500));
      }
    }
  })();
  return {
    current: () => service,
    stop: async () => {
      stopping = true;
      stopped.abort();
      await service.stop();
    },
  };
}
