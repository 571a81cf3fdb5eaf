// How the clean-up cell finds its own kernel and server (lib/notebook/end-kernel.ts), and what it says where
// it must leave the kernel alone. The end itself runs against real servers in test/scripts/cleanup-cell-kernel
// and hub-kernel-end.
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { endKernel, KERNEL_STAYS_AFTER_RUN_ALL } from "../../lib/notebook/index.js";
import { jupyterRuntimeDir, ownKernelId, ownServer } from "../../lib/notebook/end-kernel.js";

test("the kernel id comes from the connection file on tslab's command line", () => {
  const id = "3f1c2a4e-9b7d-4c1e-8f00-1234567890ab";
  assert.equal(ownKernelId(["node", "tslab", "kernel", "--config-path", `/run/jupyter/kernel-${id}.json`]), id);
  assert.equal(ownKernelId(["node", "script.ts"]), undefined);
});

test("Jupyter's runtime folder: JUPYTER_RUNTIME_DIR, else JUPYTER_DATA_DIR or XDG_DATA_HOME's jupyter/runtime", () => {
  assert.equal(jupyterRuntimeDir({ JUPYTER_RUNTIME_DIR: "/x/rt" }), "/x/rt");
  assert.equal(jupyterRuntimeDir({ JUPYTER_DATA_DIR: "/x/data" }), "/x/data/runtime");
  assert.equal(jupyterRuntimeDir({ XDG_DATA_HOME: "/x/share" }), "/x/share/jupyter/runtime");
});

test("the server is the kernel's parent's nbserver file; a hub participant's server takes the hub's token", () => {
  const dir = mkdtempSync(join(tmpdir(), "end-kernel-"));
  try {
    const file = { port: 8890, base_url: "/user/kurs-juergen/", hostname: "localhost", secure: false };
    writeFileSync(join(dir, "nbserver-4242.json"), JSON.stringify({ ...file, token: "eigen" }));
    writeFileSync(join(dir, "nbserver-4343.json"), JSON.stringify({ ...file, token: "" }));
    const env = { JUPYTER_RUNTIME_DIR: dir, JUPYTERHUB_API_TOKEN: "vom-hub" };
    assert.deepEqual(ownServer(env, 4242), { base: "http://127.0.0.1:8890/user/kurs-juergen/", token: "eigen" });
    assert.deepEqual(ownServer(env, 4343), { base: "http://127.0.0.1:8890/user/kurs-juergen/", token: "vom-hub" });
    assert.equal(ownServer(env, 4444), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("without a Jupyter server, or as the end of Run All, the kernel is left running and the line says so", async () => {
  const lines: string[] = [];
  await endKernel((line) => lines.push(line)); // this test process: no kernel-<id>.json, no server
  assert.match(lines.join("\n"), /Der Kernel läuft weiter \(kein Jupyter-Server gefunden\)/);
  const queued = Symbol.for("tslab.queued");
  (globalThis as Record<symbol, unknown>)[queued] = true;
  try {
    lines.length = 0;
    await endKernel((line) => lines.push(line));
    assert.deepEqual(lines, [KERNEL_STAYS_AFTER_RUN_ALL]);
  } finally {
    delete (globalThis as Record<symbol, unknown>)[queued];
  }
});

test("a server that refuses or does not answer: the kernel stays, the reason and the menu item are German", async () => {
  const server = createServer((_req, res) => res.writeHead(403).end("Forbidden"));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const lines: string[] = [];
  try {
    const kernelId = "3f1c2a4e-9b7d-4c1e-8f00-1234567890ab";
    await endKernel((line) => lines.push(line), {
      kernelId,
      server: { base: `http://127.0.0.1:${port}/`, token: "t" },
    });
    server.close();
    await once(server, "close");
    await endKernel((line) => lines.push(line), {
      kernelId,
      server: { base: `http://127.0.0.1:${port}/`, token: "t" },
    });
  } finally {
    if (server.listening) server.close();
  }
  assert.deepEqual(lines, [
    "Der Kernel läuft weiter: Jupyter ließ ihn nicht beenden (der Server lehnt ab (HTTP 403)). Beenden: Kernel → Beenden.",
    "Der Kernel läuft weiter: Jupyter ließ ihn nicht beenden (der Jupyter-Server antwortet nicht). Beenden: Kernel → Beenden.",
  ]);
});

test("the queued line does not claim Run All: it names running behind another cell", () => {
  assert.match(KERNEL_STAYS_AFTER_RUN_ALL, /^Diese Zelle lief hinter einer anderen \(z\. B\. mit „Alle ausführen“\)/);
});
