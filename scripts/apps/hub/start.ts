// Starts the kit's JupyterHub as a child process and stops it again with everything it started. `npm run hub`
// runs the proxy itself and supervises JupyterHub: a crashed JupyterHub is started again (with a backoff) while
// the proxy keeps the routes and the participants' servers keep running (cleanup_servers = False), so a
// crash costs nobody their kernel. The disk guard (disk-guard.ts) runs beside it.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { delay } from "../../../lib/util.js";
import { waitAtMost } from "../../node/processes.js";
import { formatUrl, hostForUrl, isLoopback } from "../../node/bind.js";
import { randomJoinCode, weakJoinCode } from "../board/join-code.js";
import type { HubArgs } from "./args.js";
import { readHubKey } from "../board/hub-trust.js";
import { startLoginCheck } from "./login-check.js";
import { loadParticipants } from "./participants.js";
import { startDiskGuard } from "./disk-guard.js";
import { enableKsm } from "./ksm.js";
import { spawnLimits } from "./limits.js";
import { PinStore } from "./pin.js";
import { stopParticipantProcesses, stopProcessesOfHub } from "./processes.js";
import {
  HUB_ID_ENV,
  hubStateDir,
  kernelEnvironment,
  participantFiles,
  singleUserArgs,
  type HubSettings,
} from "./settings.js";
import { freePort } from "../../node/free-port.js";
import { waitForAnswer } from "../../node/wait-for-answer.js";
import { FIRST_SCREEN, germanNotebookSetup } from "../workshop/notebook-ui.js";
import { KitError } from "../../../lib/errors.js";

/** The address the room opens: the hub's login page (the board shows it in Klassenraum mode). */
export function hubRoomUrl(urlHost: string, port: number): string {
  return formatUrl(urlHost, port).replace(/\/mcp$/, "/hub/login");
}

export class HubStartError extends KitError {
  override name = "HubStartError";
}

export interface RunningHub {
  /** The address for the room (the login page). */
  url: string;
  isolated: boolean;
  /** Stops JupyterHub, its proxy and every participant's server and kernel (as root: every process of their users). */
  stop(): Promise<void>;
  /** Resolves when JupyterHub keeps crashing (it is restarted up to MAX_CRASHES times), with its exit code. */
  exited: Promise<number | null>;
}

/** How to get JupyterHub, or undefined when `jupyterhub` runs. */
export function jupyterhubMissing(): string | undefined {
  if (spawnSync("jupyterhub", ["--version"], { stdio: "ignore" }).status === 0) return undefined;
  return process.platform === "linux"
    ? "JupyterHub fehlt: 'sudo apt-get install jupyterhub' (Debian/Ubuntu) oder 'python3 -m pip install jupyterhub notebook'; danach erneut starten."
    : "JupyterHub fehlt: 'python3 -m pip install jupyterhub notebook' (der Hub ist nur für den Rechner der Kursleitung nötig).";
}

/** Waits until `url` answers 200; fails in German when `exited()` turns true first or time runs out. */
async function waitUntilOk(
  url: string,
  what: { name: string; headers?: Record<string, string>; exited: () => boolean; output: () => string },
  timeoutMs: number,
): Promise<void> {
  const answered = await waitForAnswer(url, {
    timeoutMs,
    headers: what.headers,
    redirect: "manual",
    accepts: (status) => status === 200,
    gaveUp: what.exited,
  });
  if (answered) return;
  if (what.exited())
    throw new HubStartError(`${what.name} hat sich beim Start beendet:\n${what.output().slice(-2000)}`);
  throw new HubStartError(
    `${what.name} antwortet nach ${timeoutMs / 1000} s nicht unter ${url}:\n${what.output().slice(-2000)}`,
  );
}

/** The first folder on the way to `path` that other users cannot pass through (mode without o+x), if any. */
export function closedFolderOnPath(path: string): string | undefined {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** A child process of the hub whose output is kept (the last 20 kB) for error messages. */
interface Child {
  process: ChildProcess;
  output: () => string;
  done: () => boolean;
  exited: Promise<number | null>;
}

function startChild(command: string, argv: string[], env: NodeJS.ProcessEnv, cwd: string): Child {
  // detached: Ctrl+C reaches only `npm run hub`, which stops everything in order
  const child = spawn(command, argv, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      done = true;
      resolve(code);
    });
    child.once("error", (error) => {
      done = true;
      output += String(error);
      resolve(127);
    });
  });
  return { process: child, output: () => output, done: () => done, exited };
}

/** JupyterHub may crash this often within CRASH_WINDOW_MS before `npm run hub` gives up. */
export const MAX_CRASHES = 5;
const CRASH_WINDOW_MS = 5 * 60_000;
/** Wait before the n-th restart in a row (1 s, 2 s, 4 s … at most 30 s). */
export const restartDelayMs = (n: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, n - 1));

export async function startHub(
  args: HubArgs,
  kitRoot: string,
  code: string,
  log: (line: string) => void,
): Promise<RunningHub> {
  const proxyCommand = join(kitRoot, "node_modules", ".bin", "configurable-http-proxy");
  if (!existsSync(proxyCommand))
    throw new HubStartError("configurable-http-proxy fehlt in node_modules – bitte 'npm run setup' ausführen.");
  const stateDir = hubStateDir(args.root);
  mkdirSync(args.root, { recursive: true, mode: 0o755 });
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  chmodSync(stateDir, 0o700);
  const isolated = process.getuid?.() === 0;
  if (isolated) {
    for (const path of [args.root, kitRoot]) {
      const closed = closedFolderOnPath(path);
      if (closed) {
        const where = closed === path ? `in den Ordner ${path}` : `durch den Ordner ${closed} (${path} liegt darin)`;
        throw new HubStartError(
          `Die Teilnehmer-Konten kommen nicht ${where}. Bitte 'chmod o+x ${closed}' oder einen anderen --root wählen.`,
        );
      }
    }
  }
  const port = args.port === 0 ? await freePort(args.host) : args.port;
  const hubId = randomBytes(8).toString("hex");
  const german = await germanNotebookSetup(kitRoot, process.env);
  const boardHubKey = args.boardUrl ? readHubKey(args.boardData) : undefined;
  if (args.boardUrl && !boardHubKey)
    log(
      `HINWEIS: Neben ${args.boardData} liegt kein Hub-Schlüssel des Boards – läuft das Board mit einer anderen Datei (--board-daten)? Ohne ihn stehen Namen erst mit dem ersten Selbsttest auf dem Board.`,
    );
  const logins = await startLoginCheck({
    code,
    max: args.max,
    participants: () => loadParticipants(args.root),
    pins: new PinStore(stateDir),
    boardUrl: args.boardUrl,
    boardHubKey,
    log,
  });
  const limits = spawnLimits(args.limits, isolated);
  const ksm = enableKsm();
  log(ksm.detail);
  const settings: HubSettings = {
    host: args.host,
    port,
    hubPort: await freePort(),
    proxyApiPort: await freePort(),
    proxyToken: randomBytes(24).toString("hex"),
    root: args.root,
    stateDir,
    templates: join(kitRoot, "scripts", "apps", "hub", "templates"),
    isolated,
    ...participantFiles(kitRoot, process.env.RAG_CACHE_DIR ? resolve(kitRoot, process.env.RAG_CACHE_DIR) : undefined),
    kernelEnv: { ...kernelEnvironment(args, kitRoot, code, hubId, process.env), ...german.env, ...ksm.env },
    singleUserArgs: [...singleUserArgs(args), ...german.args],
    firstScreen: FIRST_SCREEN,
    loginCheck: { url: logins.url, token: logins.token },
    guardToken: randomBytes(24).toString("hex"),
    limits: limits.spawn,
    boardHubKey: boardHubKey ?? null,
  };
  const settingsFile = join(stateDir, "settings.json");
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 1)}\n`, { mode: 0o600 });
  rmSync(join(stateDir, "gesperrt.json"), { force: true }); // the guard decides anew
  const env = { ...process.env, [HUB_ID_ENV]: hubId };
  const hubUrl = `http://127.0.0.1:${settings.hubPort}`;
  const startProxy = () =>
    startChild(
      proxyCommand,
      [
        "--ip",
        args.host,
        "--port",
        String(port),
        "--api-ip",
        "127.0.0.1",
        "--api-port",
        String(settings.proxyApiPort),
        "--error-target",
        `${hubUrl}/hub/error`,
        "--log-level",
        "warn",
      ],
      { ...env, CONFIGPROXY_AUTH_TOKEN: settings.proxyToken },
      stateDir,
    );
  const startJupyterhub = () =>
    startChild(
      "jupyterhub",
      ["-f", join(kitRoot, "scripts", "apps", "hub", "jupyterhub_config.py")],
      { ...env, KURS_HUB_SETTINGS: settingsFile },
      stateDir,
    );
  // JupyterHub asks the proxy for its routes once at start and exits when nobody answers yet: the proxy first.
  const proxyReady = (exited: () => boolean) =>
    waitUntilOk(
      `http://127.0.0.1:${settings.proxyApiPort}/api/routes`,
      {
        name: "Der Proxy des Hubs",
        headers: { Authorization: `token ${settings.proxyToken}` },
        exited,
        output: () => proxy.output(),
      },
      30_000,
    );
  let proxy = startProxy();
  await proxyReady(() => proxy.done()).catch(async (error: unknown) => {
    proxy.process.kill("SIGTERM");
    await logins.close();
    ksm.restore();
    throw error;
  });
  let hub = startJupyterhub();
  let stopping = false;
  const guard = startDiskGuard({
    root: args.root,
    stateDir,
    spaceBytes: settings.limits.fileBytes,
    hubApi: `${hubUrl}/hub/api`,
    token: settings.guardToken,
    log,
  });
  const stop = async () => {
    stopping = true;
    guard.stop();
    if (!hub.done()) hub.process.kill("SIGTERM");
    await waitAtMost(hub.exited, 15_000);
    // JupyterHub leaves the servers running (a crash must not cost anyone their kernel): end them here,
    // then whatever still runs under a participant's user (a kernel's child started without the hub's id).
    await stopProcessesOfHub(hubId);
    if (isolated) await stopParticipantProcesses(args.root);
    await logins.close();
    ksm.restore();
  };
  const url = hubRoomUrl(args.bind.urlHost, port);
  const probeHost = isLoopback(args.host) ? hostForUrl(args.host) : "127.0.0.1";
  const loginUrl = `http://${probeHost}:${port}/hub/login`;
  try {
    await waitUntilOk(
      loginUrl,
      { name: "JupyterHub", exited: () => hub.done(), output: () => hub.output() + proxy.output() },
      90_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  // The proxy keeps the routes to the participants' servers; should it die, it comes back and JupyterHub
  // adds the routes again (last_activity_interval).
  void (async () => {
    while (!stopping) {
      await proxy.exited;
      if (stopping) return;
      log(`Der Proxy des Hubs hat sich beendet – wird neu gestartet.\n${proxy.output().slice(-500)}`);
      await delay(1000);
      proxy = startProxy();
    }
  })();
  const exited = (async () => {
    const crashes: number[] = [];
    for (;;) {
      const code = await hub.exited;
      if (stopping) return code;
      const now = Date.now();
      crashes.push(now);
      while (crashes[0]! < now - CRASH_WINDOW_MS) crashes.shift();
      if (crashes.length > MAX_CRASHES) {
        log(
          `JupyterHub ist ${crashes.length}-mal in wenigen Minuten abgestürzt – der Hub gibt auf:\n${hub.output().slice(-1500)}`,
        );
        return code;
      }
      const wait = restartDelayMs(crashes.length);
      log(
        `JupyterHub hat sich unerwartet beendet (Code ${code}) – Neustart in ${wait / 1000} s. Kernel und Dateien der Teilnehmenden laufen weiter.`,
      );
      await delay(wait);
      if (stopping) return code;
      try {
        await proxyReady(() => stopping); // should it have died too, it is coming back
        hub = startJupyterhub();
        await waitUntilOk(
          loginUrl,
          { name: "JupyterHub", exited: () => hub.done(), output: () => hub.output() },
          90_000,
        );
        log("JupyterHub läuft wieder – Anmelden und Speichern gehen wieder.");
      } catch {
        if (!hub.done()) hub.process.kill("SIGKILL");
      }
    }
  })();
  if (limits.note && isolated) log(`${limits.note} Mehr dazu: npm run doctor -- --klassenraum`);
  if (!isolated)
    log(
      "WARNUNG: Der Hub läuft nicht als root – alle Teilnehmenden teilen sich ein Benutzerkonto und können die Ordner der anderen lesen. Für getrennte Konten: mit sudo starten.",
    );
  if (weakJoinCode(code))
    log(
      `WARNUNG: Der Beitrittscode ${code} ist leicht zu erraten. Ein sicherer: --code ${randomJoinCode()} (für Board und Hub derselbe).`,
    );
  if (args.bind.warning) {
    log(
      `WARNUNG: Der Hub lauscht auf ${args.host} und ist für jedes Gerät im Netz erreichbar; anmelden kann sich, wer den Beitrittscode kennt. Erlaubte Host-Namen: ${args.bind.allowedHosts.join(", ")}.`,
    );
  }
  return { url, isolated, stop, exited };
}
