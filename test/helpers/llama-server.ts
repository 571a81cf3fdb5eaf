// llama.cpp's own `llama-server` on a free loopback port, for the tests against the real class server and
// the classroom bench. The binary comes from scripts/dev/llama-build.ts (built by `npm test`'s llama stage or
// `npm run llama:build`); where it is missing, `llamaServerSkip()` says why, for the test's skip line.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { findLlamaTools } from "../../scripts/dev/llama-build.js";
import { freePort } from "../../scripts/node/free-port.js";

/** Set by scripts/dev/test.ts when its llama stage could not build the tools: the reason, for every skip line. */
export const LLAMA_MISSING_ENV = "LLAMA_TOOLS_MISSING";

/** Another llama-server binary (e.g. a CUDA build on the class server) for the bench: its full path. */
export const LLAMA_SERVER_BIN_ENV = "LLAMA_SERVER_BIN";

/** The tools' folder, or undefined. */
export function llamaBin(): string | undefined {
  if (process.env[LLAMA_MISSING_ENV]) return undefined;
  const tools = findLlamaTools();
  return "bin" in tools ? tools.bin : undefined;
}

/** `false` when the server can run, else the skip message "no llama-server (reason)". */
export function llamaServerSkip(): string | false {
  if (process.env[LLAMA_SERVER_BIN_ENV]) return false;
  const missing = process.env[LLAMA_MISSING_ENV];
  if (missing) return `no llama-server (${missing})`;
  const tools = findLlamaTools();
  return "bin" in tools ? false : `no llama-server (${tools.missing})`;
}

export interface LlamaServerOptions {
  model: string;
  /** Slots (`--parallel`); the context `ctx` is shared among them. */
  parallel?: number;
  ctx?: number;
  threads?: number;
  /** `--jinja`: the model's own chat template through minja; needed for `tools`. */
  jinja?: boolean;
  extra?: string[];
}

export interface LlamaServer {
  /** …/v1, what LLM_BASE_URL gets. */
  baseUrl: string;
  origin: string;
  args: string[];
  /** The server's log so far (stderr + stdout), for failure messages. */
  log(): string;
  close(): Promise<void>;
}

/** The command line (after the binary) for these options. */
export function llamaServerArgs(options: LlamaServerOptions, port: number): string[] {
  return [
    "-m",
    options.model,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "-c",
    String(options.ctx ?? 4096),
    "--parallel",
    String(options.parallel ?? 1),
    "-t",
    String(options.threads ?? 1),
    "--no-webui",
    ...(options.jinja ? ["--jinja"] : []),
    ...(options.extra ?? []),
  ];
}

async function waitHealthy(origin: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`llama-server exited (${child.exitCode}):\n${log().slice(-2000)}`);
    const ok = await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`llama-server not healthy after ${timeoutMs} ms:\n${log().slice(-2000)}`);
}

/** Starts llama-server and waits for /health; `close()` ends it (SIGTERM, then SIGKILL after 3 s). */
export async function startLlamaServer(options: LlamaServerOptions): Promise<LlamaServer> {
  const own = process.env[LLAMA_SERVER_BIN_ENV];
  const bin = llamaBin();
  if (!own && !bin) throw new Error(String(llamaServerSkip()));
  const port = await freePort();
  const args = llamaServerArgs(options, port);
  const child = spawn(own || join(bin!, "llama-server"), args, { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const keep = (d: Buffer) => {
    text = (text + d.toString()).slice(-200_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const origin = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    await gone;
    clearTimeout(timer);
  };
  try {
    await waitHealthy(origin, child, () => text, 60_000);
  } catch (e) {
    await close();
    throw e;
  }
  return { baseUrl: `${origin}/v1`, origin, args, log: () => text, close };
}
