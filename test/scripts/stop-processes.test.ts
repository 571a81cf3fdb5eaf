// stopProcessesWithEnv (scripts/node/processes.ts) on real subprocesses marked in their environment: one that
// ends on SIGTERM, one that ignores it and has to be killed after the grace time; unmarked processes stay.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { after, test } from "node:test";
import { processesWithEnv, stopProcessesWithEnv } from "../../scripts/node/processes.js";

const MARK = "KIT_STOP_PROCESSES_TEST";
const children: ChildProcess[] = [];
after(() => children.forEach((child) => child.kill("SIGKILL")));

/** A node process that prints "bereit" once its SIGTERM handling is in place; `ignoreTerm` keeps it alive on SIGTERM. */
async function startMarked(value: string | undefined, ignoreTerm: boolean): Promise<ChildProcess> {
  const code = `${ignoreTerm ? 'process.on("SIGTERM", () => {});' : ""} console.log("bereit"); setInterval(() => {}, 1000);`;
  const env = { ...process.env, [MARK]: value };
  if (value === undefined) delete env[MARK];
  const child = spawn(process.execPath, ["-e", code], { env, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`child exited early (${code})`)));
  });
  return child;
}

const ended = (child: ChildProcess) =>
  new Promise<NodeJS.Signals | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.signalCode);
    else child.once("exit", (_code, signal) => resolve(signal));
  });

test("stopProcessesWithEnv ends the marked processes: SIGTERM first, SIGKILL after the grace time; others stay", async (t) => {
  if (process.platform !== "linux") return t.skip("needs /proc");
  const value = randomUUID();
  const polite = await startMarked(value, false);
  const stubborn = await startMarked(value, true);
  const bystander = await startMarked(undefined, true);
  assert.deepEqual(processesWithEnv(MARK, value).sort(), [polite.pid, stubborn.pid].sort());

  assert.equal(await stopProcessesWithEnv(MARK, value, 500), 2);
  assert.equal(await ended(polite), "SIGTERM");
  assert.equal(await ended(stubborn), "SIGKILL");
  assert.deepEqual(processesWithEnv(MARK, value), []);
  assert.equal(bystander.exitCode, null, "an unmarked process keeps running");
  assert.equal(await stopProcessesWithEnv(MARK, value, 500), 0, "nothing left to stop");
});
