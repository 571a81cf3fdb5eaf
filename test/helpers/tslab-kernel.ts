// A real tslab kernel (the project's, as registered in .jupyter-prefix) spoken to over the Jupyter wire
// protocol with zeromq, the library tslab itself uses: clients with their own shell socket (as two browsers
// on one notebook have) and everything the kernel publishes on iopub.
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Dealer, Subscriber } from "zeromq";
import { findProjectRoot } from "../../lib/config.js";
import { freePort } from "../../scripts/node/free-port.js";

const DELIMITER = "<IDS|MSG>";

export interface WireMessage {
  header: { msg_id: string; msg_type: string };
  parent_header: { msg_id?: string };
  content: Record<string, unknown>;
}

export interface KernelClient {
  /** Sends one shell request; returns its msg_id. */
  request(msgType: string, content?: Record<string, unknown>): Promise<string>;
  /** Shell replies received by this client, in order. */
  replies: WireMessage[];
}

export interface TslabKernel {
  pid: number;
  /** Everything published on iopub since the start (or the last `iopub.length = 0`). */
  iopub: WireMessage[];
  client(): KernelClient;
  /** What the kernel wrote to its own stderr (Jupyter's console, not a cell). */
  log(): string;
  stop(): void;
}

function decode(frames: Buffer[]): WireMessage {
  const at = frames.findIndex((f) => f.toString() === DELIMITER);
  const [header, parent, , content] = frames.slice(at + 2, at + 6).map((f) => f.toString());
  return {
    header: JSON.parse(header ?? "{}"),
    parent_header: JSON.parse(parent ?? "{}"),
    content: JSON.parse(content ?? "{}"),
  } as WireMessage;
}

/** Waits until `done` says true (false after `timeoutMs`), asking every `intervalMs`. */
export async function until(
  done: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
  intervalMs = 20,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return true;
}

/** The kit's tslab kernel as Jupyter starts it (kernel.json's argv and env) on `connection`, stderr piped. */
export function spawnKernel(connection: string, options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  const root = findProjectRoot();
  const spec = JSON.parse(
    readFileSync(join(root, ".jupyter-prefix", "share", "jupyter", "kernels", "tslab", "kernel.json"), "utf8"),
  ) as { argv: string[]; env?: Record<string, string> };
  const [command, ...args] = spec.argv.map((a) => a.replace("{connection_file}", connection));
  return spawn(command ?? "tslab", args, {
    cwd: join(root, options.cwd ?? "."),
    env: { ...process.env, ...spec.env, ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

export const PORT_NAMES = ["shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"] as const;

type KernelPorts = Record<(typeof PORT_NAMES)[number], number>;

/** A connection file in `dir` as Jupyter writes one: the `given` ports, free ones for the rest. */
export async function writeConnectionFile(
  dir: string,
  key: string,
  given: Partial<KernelPorts> = {},
): Promise<{ connection: string; ports: KernelPorts }> {
  const ports = {} as KernelPorts;
  for (const name of PORT_NAMES) ports[name] = given[name] ?? (await freePort());
  const connection = join(dir, "kernel.json");
  writeFileSync(
    connection,
    JSON.stringify({ ...ports, ip: "127.0.0.1", transport: "tcp", signature_scheme: "hmac-sha256", key }),
  );
  return { connection, ports };
}

/**
 * Starts the kernel (in `cwd`, relative to the project; default the project) and returns once it answers a
 * kernel_info request and iopub is subscribed.
 */
export async function startTslabKernel(
  options: { cwd?: string; env?: NodeJS.ProcessEnv; startTimeoutMs?: number } = {},
): Promise<TslabKernel> {
  const key = randomUUID();
  const dir = mkdtempSync(join(tmpdir(), "kit-tslab-"));
  const { connection, ports } = await writeConnectionFile(dir, key);
  const kernel = spawnKernel(connection, options);
  let stderr = "";
  kernel.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const sign = (parts: string[]) => parts.reduce((h, p) => h.update(p), createHmac("sha256", key)).digest("hex");
  const sockets: Dealer[] = [];
  const client = (): KernelClient => {
    const shell = new Dealer();
    shell.connect(`tcp://127.0.0.1:${ports.shell_port}`);
    sockets.push(shell);
    const session = randomUUID();
    const replies: WireMessage[] = [];
    void (async () => {
      for await (const frames of shell) replies.push(decode(frames));
    })().catch(() => undefined);
    let sending = Promise.resolve();
    return {
      replies,
      request(msgType, content = {}) {
        const msgId = randomUUID();
        const header = JSON.stringify({
          msg_id: msgId,
          session,
          username: "test",
          msg_type: msgType,
          version: "5.3",
          date: new Date().toISOString(),
        });
        const parts = [header, "{}", "{}", JSON.stringify(content)];
        sending = sending.then(() => shell.send([DELIMITER, sign(parts), ...parts]));
        return sending.then(() => msgId);
      },
    };
  };
  const iopubSocket = new Subscriber();
  iopubSocket.connect(`tcp://127.0.0.1:${ports.iopub_port}`);
  iopubSocket.subscribe();
  const iopub: WireMessage[] = [];
  void (async () => {
    for await (const frames of iopubSocket) iopub.push(decode(frames));
  })().catch(() => undefined);
  const stop = () => {
    for (const s of sockets) s.close();
    iopubSocket.close();
    kernel.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  // Up and subscribed once a kernel_info request's status reaches us.
  const probe = client();
  const giveUp = Date.now() + (options.startTimeoutMs ?? 180_000);
  for (;;) {
    if (Date.now() > giveUp) {
      stop();
      throw new Error(`tslab did not start: ${stderr}`);
    }
    const id = await probe.request("kernel_info_request");
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (iopub.some((m) => m.parent_header.msg_id === id)) break;
  }
  return { pid: kernel.pid!, iopub, client, log: () => stderr, stop };
}

export const executeContent = (code: string) => ({
  code,
  silent: false,
  store_history: true,
  user_expressions: {},
  allow_stdin: false,
  stop_on_error: true,
});
