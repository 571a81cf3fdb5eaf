// The kit's patch of tslab (patches/tslab+*.patch): the kernel handles one shell request at a time, so
// during "Run All" it reports busy until the last queued cell has run (issue 40, item 1). Unpatched, a
// second request got its busy status at once and the first one's idle arrived while the second still
// ran: the notebook's indicator said "idle" in the middle of Run All.
// Talks to the real kernel (the project's tslab, as registered in .jupyter-prefix) over the Jupyter
// wire protocol with zeromq, the library tslab itself uses.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Dealer, Subscriber } from "zeromq";
import { findProjectRoot } from "../../lib/config.js";

const root = findProjectRoot();
const DELIMITER = "<IDS|MSG>";
const key = randomUUID();
const session = randomUUID();

interface Message {
  header: { msg_id: string; msg_type: string };
  parent_header: { msg_id?: string };
  content: Record<string, unknown>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const sign = (parts: string[]) => parts.reduce((h, p) => h.update(p), createHmac("sha256", key)).digest("hex");

function decode(frames: Buffer[]): Message {
  const at = frames.findIndex((f) => f.toString() === DELIMITER);
  const [header, parent, , content] = frames.slice(at + 2, at + 6).map((f) => f.toString());
  return {
    header: JSON.parse(header ?? "{}"),
    parent_header: JSON.parse(parent ?? "{}"),
    content: JSON.parse(content ?? "{}"),
  } as Message;
}

let kernel: ChildProcess;
let shell: Dealer;
let iopub: Subscriber;
const dir = mkdtempSync(join(tmpdir(), "kit-tslab-busy-"));
const received: Message[] = [];

/** Sends one shell request; returns its msg_id. */
async function request(msgType: string, content: Record<string, unknown>): Promise<string> {
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
  await shell.send([DELIMITER, sign(parts), ...parts]);
  return msgId;
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

before(async () => {
  const ports = {
    shell_port: await freePort(),
    iopub_port: await freePort(),
    stdin_port: await freePort(),
    control_port: await freePort(),
    hb_port: await freePort(),
  };
  const connection = join(dir, "kernel.json");
  writeFileSync(
    connection,
    JSON.stringify({ ...ports, ip: "127.0.0.1", transport: "tcp", signature_scheme: "hmac-sha256", key }),
  );
  const spec = JSON.parse(
    readFileSync(join(root, ".jupyter-prefix", "share", "jupyter", "kernels", "tslab", "kernel.json"), "utf8"),
  ) as { argv: string[] };
  const [command, ...args] = spec.argv.map((a) => a.replace("{connection_file}", connection));
  kernel = spawn(command ?? "tslab", args, { cwd: root, stdio: "ignore" });
  shell = new Dealer();
  shell.connect(`tcp://127.0.0.1:${ports.shell_port}`);
  iopub = new Subscriber();
  iopub.connect(`tcp://127.0.0.1:${ports.iopub_port}`);
  iopub.subscribe();
  void (async () => {
    for await (const frames of iopub) received.push(decode(frames));
  })();
  // The kernel is up and iopub is subscribed once a kernel_info request's status reaches us.
  for (;;) {
    const id = await request("kernel_info_request", {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (received.some((m) => m.parent_header.msg_id === id)) break;
  }
});

after(() => {
  shell?.close();
  iopub?.close();
  kernel?.kill();
  rmSync(dir, { recursive: true, force: true });
});

test("two cells sent back to back: busy, idle, busy, idle – never idle while the second one waits or runs", async () => {
  received.length = 0;
  const first = await request("execute_request", {
    code: 'await new Promise((r) => setTimeout(r, 500));\nconsole.log("erste fertig");',
    silent: false,
    store_history: true,
    user_expressions: {},
    allow_stdin: false,
    stop_on_error: true,
  });
  const second = await request("execute_request", {
    code: 'console.log("zweite läuft");',
    silent: false,
    store_history: true,
    user_expressions: {},
    allow_stdin: false,
    stop_on_error: true,
  });
  const idleOf = (id: string) =>
    received.some(
      (m) => m.header.msg_type === "status" && m.content.execution_state === "idle" && m.parent_header.msg_id === id,
    );
  await until(() => idleOf(first) && idleOf(second));

  const who = (id: string | undefined) => (id === first ? "1" : id === second ? "2" : "?");
  const events = received
    .filter((m) => m.header.msg_type === "status" || m.header.msg_type === "stream")
    .map((m) =>
      m.header.msg_type === "status"
        ? `${String(m.content.execution_state)}(${who(m.parent_header.msg_id)})`
        : `out(${who(m.parent_header.msg_id)})`,
    );
  assert.deepEqual(events, ["busy(1)", "out(1)", "idle(1)", "busy(2)", "out(2)", "idle(2)"]);
});
