// `npm run klassenraum` keeps its class server and board running (scripts/apps/klassenraum/services.ts): a real
// child process killed with SIGKILL (as the OOM killer does) is started again after a backoff, each step said in
// German; a stop is final. The whole classroom with llama-server: test/llama-server/klassenraum.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { delay } from "../../lib/util.js";
import { startService, superviseService, waitForLine, type Service } from "../../scripts/apps/klassenraum/services.js";

const start = () =>
  startService(
    "Klassen-Board",
    process.execPath,
    ["-e", "console.log('bereit'); setInterval(() => {}, 1000);"],
    process.env,
    process.cwd(),
  );
const ready = async (s: Service) => void (await waitForLine(s, /bereit/, 10_000));

/** A supervised service killed with SIGKILL (as the OOM killer does); resolves once a line matches `until`. */
async function killedUnderSupervision(until: RegExp) {
  const first = start();
  await ready(first);
  const lines: string[] = [];
  const supervised = superviseService(first, start, ready, (l) => lines.push(l));
  process.kill(first.child.pid!, "SIGKILL");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && !lines.some((l) => until.test(l))) await delay(20);
  return { first, lines, supervised };
}

test("a service killed with SIGKILL comes back by itself and says so in German; a stop is final", async () => {
  const { first, lines, supervised } = await killedUnderSupervision(/läuft wieder/);
  assert.deepEqual(lines, [
    "Klassen-Board hat sich beendet (Signal SIGKILL) – Neustart in 1 s. Die anderen laufen weiter.",
    "Klassen-Board läuft wieder.",
  ]);
  const second = supervised.current();
  assert.notEqual(second.child.pid, first.child.pid);
  assert.equal(second.child.exitCode, null);
  await supervised.stop();
  const timers = process.getActiveResourcesInfo().filter((r) => r === "Timeout");
  assert.deepEqual(timers, [], "a stop leaves no timer running (npm run klassenraum would wait for it to end)");
  await delay(1500);
  assert.equal(supervised.current(), second, "no restart after a stop");
  assert.ok(second.child.exitCode !== null || second.child.signalCode !== null);
});

test("a stop during the backoff ends the wait at once: no restart, no timer left", async () => {
  const { first, lines, supervised } = await killedUnderSupervision(/Neustart in/);
  await supervised.stop();
  const timers = process.getActiveResourcesInfo().filter((r) => r === "Timeout");
  assert.deepEqual(timers, [], "the backoff's timer is gone with the stop (before: it ran out its 1 s)");
  await delay(1500);
  assert.equal(supervised.current(), first, "no restart after a stop during the backoff");
  assert.equal(lines.length, 1, lines.join("\n"));
});
