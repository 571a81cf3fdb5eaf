// Starts the kit's JupyterHub as a child process and stops it again with everything it started.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { delay } from "../../../lib/util.js";
import { formatUrl, hostForUrl, isLoopback } from "../../node/bind.js";
import { randomJoinCode, weakJoinCode } from "../board/join-code.js";
import type { HubArgs } from "./args.js";
import { startLoginCheck } from "./login-check.js";
import { loadParticipants } from "./participants.js";
import { PinStore } from "./pin.js";
import { stopProcessesOfHub } from "./processes.js";
import { HUB_ID_ENV, hubStateDir, kernelEnvironment, participantFiles, singleUserArgs, type HubSettings } from "./settings.js";
import { freePort } from "../../node/free-port.js";

export class HubStartError extends Error {
  override name = "HubStartError";
}

export interface RunningHub {
  /** The address for the room (the login page). */
  url: string;
  isolated: boolean;
  /** Stops JupyterHub, its proxy and every participant's server and kernel. */
  stop(): Promise<void>;
  /** Resolves when JupyterHub exits by itself, with its exit code. */
  exited: Promise<number | null>;
}

/** How to get JupyterHub, or undefined when `jupyterhub` runs. */
export function jupyterhubMissing(): string | undefined {
  if (spawnSync("jupyterhub", ["--version"], { stdio: "ignore" }).status === 0) return undefined;
  return process.platform === "linux"
    ? "JupyterHub fehlt: 'sudo apt-get install jupyterhub' (Debian/Ubuntu) oder 'python3 -m pip install jupyterhub notebook'; danach erneut starten."
    : "JupyterHub fehlt: 'python3 -m pip install jupyterhub notebook' (der Hub ist nur für den Rechner der Kursleitung nötig).";
}

async function waitForLogin(url: string, exited: () => boolean, output: () => string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (exited()) throw new HubStartError(`JupyterHub hat sich beim Start beendet:\n${output().slice(-2000)}`);
    try {
      const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await delay(250);
  }
  throw new HubStartError(`JupyterHub antwortet nach ${timeoutMs / 1000} s nicht unter ${url}:\n${output().slice(-2000)}`);
}

/** The first folder on the way to `path` that other users cannot pass through (mode without o+x), if any. */
export function closedFolderOnPath(path: string): string | undefined {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    if (existsSync(dir) && (statSync(dir).mode & 0o001) === 0) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

export async function startHub(args: HubArgs, kitRoot: string, code: string, log: (line: string) => void): Promise<RunningHub> {
  const proxyCommand = join(kitRoot, "node_modules", ".bin", "configurable-http-proxy");
  if (!existsSync(proxyCommand)) throw new HubStartError("configurable-http-proxy fehlt in node_modules – bitte 'npm run setup' ausführen.");
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
        throw new HubStartError(`Die Teilnehmer-Konten kommen nicht ${where}. Bitte 'chmod o+x ${closed}' oder einen anderen --root wählen.`);
      }
    }
  }
  const port = args.port === 0 ? await freePort(args.host) : args.port;
  const hubId = randomBytes(8).toString("hex");
  const logins = await startLoginCheck({ code, max: args.max, participants: () => loadParticipants(args.root), pins: new PinStore(stateDir), boardUrl: args.boardUrl, log });
  const settings: HubSettings = {
    host: args.host,
    port,
    hubPort: await freePort(),
    proxyApiPort: await freePort(),
    proxyCommand,
    root: args.root,
    stateDir,
    templates: join(kitRoot, "scripts", "apps", "hub", "templates"),
    isolated,
    ...participantFiles(kitRoot, process.env.RAG_CACHE_DIR ? resolve(kitRoot, process.env.RAG_CACHE_DIR) : undefined),
    kernelEnv: kernelEnvironment(args, kitRoot, code, hubId, process.env),
    singleUserArgs: singleUserArgs(args),
    loginCheck: { url: logins.url, token: logins.token },
  };
  const settingsFile = join(stateDir, "settings.json");
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 1)}\n`, { mode: 0o600 });
  const child = spawn("jupyterhub", ["-f", join(kitRoot, "scripts", "apps", "hub", "jupyterhub_config.py")], {
    cwd: stateDir,
    env: { ...process.env, KURS_HUB_SETTINGS: settingsFile, [HUB_ID_ENV]: hubId },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // Ctrl+C reaches us, and we stop the hub in order
  });
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
  const stop = async () => {
    if (!done) child.kill("SIGTERM");
    await Promise.race([exited, delay(15_000)]);
    await stopProcessesOfHub(hubId);
    await logins.close();
  };
  const url = formatUrl(args.bind.urlHost, port).replace(/\/mcp$/, "/hub/login");
  try {
    const probeHost = isLoopback(args.host) ? hostForUrl(args.host) : "127.0.0.1";
    await waitForLogin(`http://${probeHost}:${port}/hub/login`, () => done, () => output, 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  if (!isolated) log("WARNUNG: Der Hub läuft nicht als root – alle Teilnehmenden teilen sich ein Benutzerkonto und können die Ordner der anderen lesen. Für getrennte Konten: mit sudo starten.");
  if (weakJoinCode(code)) log(`WARNUNG: Der Beitrittscode ${code} ist leicht zu erraten. Ein sicherer: --code ${randomJoinCode()} (für Board und Hub derselbe).`);
  if (args.bind.warning) {
    log(`WARNUNG: Der Hub lauscht auf ${args.host} und ist für jedes Gerät im Netz erreichbar; anmelden kann sich, wer den Beitrittscode kennt. Erlaubte Host-Namen: ${args.bind.allowedHosts.join(", ")}.`);
  }
  return { url, isolated, stop, exited };
}
