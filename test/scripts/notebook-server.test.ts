// The browser check's Jupyter server: stopping it ends the kernels it started, even when the server itself
// is gone before it could shut them down (Jupyter gives each kernel a session of its own, so killing the
// server's process group does not reach them).
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { browserCheckMissing } from "../../scripts/dev/browser-check.js";
import { spawnNotebookServer } from "../../scripts/dev/notebook-server.js";
import { testEnvironment } from "../../scripts/dev/test-env.js";
import { delay } from "../../lib/util.js";
import { running } from "../helpers/process-state.js";

const dir = mkdtempSync(join(tmpdir(), "kit-nbserver-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const skip = browserCheckMissing()?.includes("Notebook") ? "no classic Jupyter Notebook 6" : false;

test("a kernel outlives its killed server only until the server's stop", { skip, timeout: 120_000 }, async () => {
  const server = await spawnNotebookServer(dir, await testEnvironment({ tinyModels: false }));
  try {
    await server.ready(60_000);
    const started = await fetch(`${server.base}/api/kernels?token=${server.token}`, {
      method: "POST",
      body: JSON.stringify({ name: "tslab" }),
    });
    const body = await started.text();
    assert.equal(started.status, 201, body);
    const kernelId = (JSON.parse(body) as { id: string }).id;
    // the kernel's own process: its command line names the kernel's connection file
    let kernelPid: number | undefined;
    for (let i = 0; i < 100 && kernelPid === undefined; i++, await delay(100))
      kernelPid = pidWithArgument(`kernel-${kernelId}.json`);
    assert.ok(kernelPid, "the kernel process runs");
    process.kill(-server.child.pid!, "SIGKILL"); // the server dies without shutting its kernel down
    await new Promise((resolve) =>
      server.child.exitCode === null && server.child.signalCode === null
        ? server.child.once("exit", resolve)
        : resolve(undefined),
    );
    assert.equal(running(kernelPid), true, "the kernel is orphaned, as after a slow shutdown");
    await server.stop();
    assert.equal(running(kernelPid), false, "stop() ended the orphaned kernel");
  } finally {
    await server.stop();
  }
});

/** The pid of a process whose command line contains `part` (Linux /proc). */
function pidWithArgument(part: string): number | undefined {
  for (const pid of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(part)) return Number(pid);
    } catch {
      // gone
    }
  }
  return undefined;
}
