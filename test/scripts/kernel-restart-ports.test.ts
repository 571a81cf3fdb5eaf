// A kernel that ends in its first minute is started again on new ports (the hub's KERNEL_RESTART_ARGS, issue 46):
// Jupyter chooses a kernel's ports before it starts the kernel, and in a busy room another kernel or server may
// take one of them first. The kit's tslab then ends at once (tslab-wire.test.ts), and Jupyter's restarter picks
// new ports only while it counts the kernel as starting: 10 s by default, too short for a start on a machine
// busy with the whole room's logins. A real Notebook 6 server, started the participant's way with the hub's option.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connect, createServer, type Server } from "node:net";
import { after, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { delay } from "../../lib/util.js";
import { practiceEnvironment } from "../../scripts/apps/models/model-help.js";
import { KERNEL_RESTART_ARGS } from "../../scripts/apps/hub/settings.js";
import { spawnNotebookServer } from "../../scripts/dev/notebook-server.js";
import { processesWhere } from "../../scripts/node/processes.js";
import { PORT_NAMES, until } from "../helpers/tslab-kernel.js";

const root = findProjectRoot();
/** Longer than Jupyter's default start window (10 s), shorter than the hub's. */
const DIES_AFTER_MS = 16_000;

/** The kernel's process and the ports in its connection file (the file keeps its name across restarts). */
function kernelOf(kernelId: string): { pid: number; ports: number[] } | undefined {
  const cmdline = (pid: number | string) => readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0");
  const [pid] = processesWhere((p) => cmdline(p).some((a) => a.endsWith(`kernel-${kernelId}.json`)));
  if (pid === undefined) return undefined;
  try {
    const file = cmdline(pid).find((a) => a.endsWith(".json"))!;
    const info = JSON.parse(readFileSync(file, "utf8")) as Record<string, number>;
    return { pid, ports: PORT_NAMES.map((k) => info[k]!) };
  } catch {
    return undefined; // between two starts
  }
}

/** Listens on `port` as soon as the killed kernel's socket has let go of it. */
async function takePort(port: number): Promise<Server> {
  for (let tries = 0; ; tries++) {
    const server = createServer();
    const error = await new Promise<Error | undefined>((resolve) => {
      server.once("error", resolve);
      server.listen(port, "127.0.0.1", () => resolve(undefined));
    });
    if (!error) return server;
    if (tries > 100) throw error;
    await delay(100);
  }
}

/** Something accepts TCP connections on the port (the kernel's zeromq sockets do once bound). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

test(
  "a kernel that dies 16 s after its start while another process takes its port comes back on new ports",
  { timeout: 300_000 },
  async () => {
    // The kit's kernel manager lies in the participants' server folder, on their servers' PYTHONPATH.
    const env = { ...(await practiceEnvironment()), PYTHONPATH: join(root, "scripts", "apps", "hub", "singleuser") };
    const server = await spawnNotebookServer(join(root, "notebooks"), env, {
      viaWorkshop: true,
      extraArgs: KERNEL_RESTART_ARGS,
    });
    try {
      await server.ready(90_000);
      const res = await fetch(`${server.base}/api/kernels?token=${server.token}`, {
        method: "POST",
        body: JSON.stringify({ name: "tslab" }),
      });
      const { id } = (await res.json()) as { id: string };
      const started = Date.now();
      assert.ok(await until(() => kernelOf(id) !== undefined, 60_000, 200), `kernel ${id} started: ${server.log()}`);
      const first = kernelOf(id)!;
      await delay(Math.max(0, DIES_AFTER_MS - (Date.now() - started)));
      process.kill(first.pid, "SIGKILL");
      // Another process takes the dead kernel's shell port, as another participant's kernel or server would.
      const taker = await takePort(first.ports[0]!);
      after(() => taker.close());
      const back = await until(
        () => {
          const now = kernelOf(id);
          return now !== undefined && now.pid !== first.pid;
        },
        60_000,
        200,
      );
      assert.ok(back, `the kernel was started again: ${server.log()}`);
      const again = kernelOf(id)!;
      assert.ok(
        await until(async () => (await Promise.all(again.ports.map(listening))).every(Boolean), 60_000, 500),
        `the kernel listens on its new ports ${again.ports.join(",")}; ${server.log()}`,
      );
      assert.ok(
        again.ports.every((p) => !first.ports.includes(p)),
        `new ports: ${first.ports.join(",")} → ${again.ports.join(",")}; ${server.log()}`,
      );
    } finally {
      await server.stop();
    }
  },
);
