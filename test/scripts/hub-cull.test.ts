// A participant's kernel left alone is ended after --leerlauf even while its notebook tab stays open (issue 46:
// idle culling skipped kernels with an open tab, and five open notebooks held 1.6 GB). A real Notebook 6 server
// with the participant's server options (idle time and check interval shortened to seconds), the kit's tslab
// kernel and an open kernel websocket (Python's tornado client, as a browser tab holds it).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { parseHubArgs } from "../../scripts/apps/hub/args.js";
import { singleUserArgs } from "../../scripts/apps/hub/settings.js";
import { freePort } from "../../scripts/node/free-port.js";

const root = findProjectRoot();
const PY = "/usr/bin/python3";
const noNotebook = spawnSync(PY, ["-c", "import notebook, tornado"]).status !== 0 ? "Debian's Jupyter Notebook is not installed" : false;

// Opens a kernel and its websocket, keeps the socket open, reports whether the server still lists the kernel.
const TAB = `
import asyncio, json, sys, time, uuid
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import websocket_connect
base, token = sys.argv[1], sys.argv[2]
H = {"Authorization": "token " + token}
async def main():
    for _ in range(100):
        try:
            await AsyncHTTPClient().fetch(base + "/api", headers=H); break
        except Exception:
            await asyncio.sleep(0.3)
    r = await AsyncHTTPClient().fetch(HTTPRequest(base + "/api/kernels", method="POST", headers=H, body=json.dumps({"name": "tslab"}), request_timeout=120))
    kid = json.loads(r.body)["id"]
    ws = await websocket_connect(HTTPRequest(base.replace("http", "ws") + "/api/kernels/" + kid + "/channels?session_id=" + uuid.uuid4().hex, headers=H, request_timeout=120))
    print("tab open", flush=True)
    end = time.time() + 45
    while time.time() < end:
        r = await AsyncHTTPClient().fetch(base + "/api/kernels", headers=H)
        ks = {k["id"]: k for k in json.loads(r.body)}
        if kid in ks:
            print("connections", ks[kid]["connections"], flush=True)
        if kid not in ks:
            print("culled", flush=True); return
        await asyncio.sleep(0.5)
    print("kept", flush=True)
asyncio.run(main())
`;

test("a kernel left alone is culled although its tab is open", { skip: noNotebook }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "hub-cull-"));
  const port = await freePort();
  const culling = singleUserArgs(parseHubArgs([], root))
    .filter((a) => a.startsWith("--MappingKernelManager.cull"))
    .map((a) => (a.startsWith("--MappingKernelManager.cull_idle_timeout=") ? "--MappingKernelManager.cull_idle_timeout=8" : a.startsWith("--MappingKernelManager.cull_interval=") ? "--MappingKernelManager.cull_interval=1" : a));
  const server = spawn(PY, ["-m", "notebook", "--no-browser", "--allow-root", `--port=${port}`, "--ip=127.0.0.1", "--NotebookApp.token=kurs", `--notebook-dir=${dir}`, ...culling], {
    env: { ...process.env, JUPYTER_PATH: join(root, ".jupyter-prefix", "share", "jupyter") },
    stdio: "ignore",
  });
  try {
    const tab = spawnSync(PY, ["-c", TAB, `http://127.0.0.1:${port}`, "kurs"], { encoding: "utf8", timeout: 180_000 });
    assert.match(tab.stdout, /tab open/, tab.stderr);
    assert.match(tab.stdout, /connections 1/, "the tab is connected to the kernel");
    assert.match(tab.stdout, /culled/, "the idle kernel with an open tab was kept"); // before: kept
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
