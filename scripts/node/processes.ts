// Processes found by a mark in their environment: a process passes its environment on to what it starts,
// so a mark set for a server also finds its kernels and their children, in whatever process group or
// session they run. Linux only (/proc); elsewhere nothing is found.
import { readdirSync, readFileSync } from "node:fs";
import { delay } from "../../lib/util.js";

/** Processes (other than this one) whose environment, as started, holds `name=value`. */
export function processesWithEnv(name: string, value: string): number[] {
  const marker = `${name}=${value}`;
  return processesWhere((pid) => readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker)).filter(
    (pid) => pid !== process.pid,
  );
}

/** Processes whose /proc entry passes `test` (one that vanishes or cannot be read does not); none without /proc. */
export function processesWhere(test: (pid: string) => boolean): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  return entries
    .filter((pid) => {
      try {
        return test(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** SIGTERM to every process carrying `name=value`, SIGKILL to those still there after `graceMs`; returns how many there were. */
export function stopProcessesWithEnv(name: string, value: string, graceMs = 5000): Promise<number> {
  return stopProcesses(() => processesWithEnv(name, value), graceMs);
}

/** Processes (other than this one) whose real user id is one of `uids`. */
export function processesOfUsers(uids: number[]): number[] {
  if (uids.length === 0) return [];
  return processesWhere((pid) => {
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1];
    return uid !== undefined && uids.includes(Number(uid));
  }).filter((pid) => pid !== process.pid);
}

/** SIGTERM to every process of the users `uids`, SIGKILL to those still there after `graceMs`; returns how many there were. */
export function stopProcessesOfUsers(uids: number[], graceMs = 5000): Promise<number> {
  return stopProcesses(() => processesOfUsers(uids), graceMs);
}

/** SIGTERM to every process `find` returns, SIGKILL to those it still returns after `graceMs`; returns how many there were. */
async function stopProcesses(find: () => number[], graceMs: number): Promise<number> {
  const pids = find();
  for (const pid of pids) signalIfThere(pid, "SIGTERM");
  const until = Date.now() + graceMs;
  while (Date.now() < until && find().length > 0) await delay(100);
  for (const pid of find()) signalIfThere(pid, "SIGKILL");
  return pids.length;
}

function signalIfThere(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Waits until `done` settles or `ms` have passed, whichever is first; no timer is left running after it. */
export async function waitAtMost(done: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
