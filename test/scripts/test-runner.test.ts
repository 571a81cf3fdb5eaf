// `npm test` itself: a process a test leaves behind (as a forgotten server would be) does not outlive the
// run; the summary names what was ended.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { running } from "../helpers/process-state.js";

const FIXTURE = "test/scripts/fixtures/leaves-a-process.test.ts";

/** `npm test --only unit <file>` in a child; resolves with its exit code and output once nothing holds the output. */
async function runUnit(file: string): Promise<{ code: number | null; out: string }> {
  // a nested test runner must not report to this one, and keeps its prompt states in a folder of its own
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key !== "NODE_TEST_CONTEXT" && key !== "LLM_STATE_DIR"),
  );
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/kit.ts", "test", "--only", "unit", file], {
    cwd: findProjectRoot(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, out };
}

test("the tests save prompt states in a folder of the run, removed at its end", { timeout: 180_000 }, async () => {
  const { code, out } = await runUnit("test/scripts/fixtures/state-dir.test.ts");
  assert.equal(code, 0, out);
  const dir = /prompt states in: (\S+)/.exec(out)?.[1];
  assert.ok(dir, out);
  assert.equal(existsSync(dir), false, `${dir} is removed after the run`);
});

test("a process a test leaves running is ended and named in the summary", { timeout: 180_000 }, async () => {
  const { code, out } = await runUnit(FIXTURE);
  const pid = Number(/left behind: pid (\d+)/.exec(out)?.[1]);
  assert.ok(pid > 0, out);
  try {
    assert.equal(code, 0, out);
    assert.match(out, /unit tests\s+1 passed\s+0 failed/, out);
    assert.match(out, /left running by the tests, now ended \(1\):\n\s+sleep 300/, out);
    assert.equal(running(pid), false, "the left process is gone");
  } finally {
    if (running(pid)) process.kill(pid, "SIGKILL");
  }
});
