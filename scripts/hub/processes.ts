// Everything the hub started carries KURS_HUB_ID=<id> in its environment (JupyterHub, its proxy, each
// participant's Jupyter server and kernels). A stop ends JupyterHub first (it stops the servers it
// spawned) and then whatever still carries the id, so no process outlives the hub. Linux only (/proc).
import { readdirSync, readFileSync } from "node:fs";
import { delay } from "../../lib/util.js";
import { HUB_ID_ENV } from "./settings.js";

/** Processes whose environment holds `KURS_HUB_ID=<id>` (none where /proc is missing). */
export function processesOfHub(hubId: string): number[] {
  return processesWithEnv(HUB_ID_ENV, hubId);
}

/** Processes (other than this one) whose environment, as started, holds `name=value`. */
export function processesWithEnv(name: string, value: string): number[] {
  const marker = `${name}=${value}`;
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  return entries
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter((pid) => pid !== process.pid);
}

/** SIGTERM to every process of the hub, SIGKILL to those still there after `graceMs`. */
export async function stopProcessesOfHub(hubId: string, graceMs = 5000): Promise<number> {
  const pids = processesOfHub(hubId);
  const signal = (pid: number, sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  };
  for (const pid of pids) signal(pid, "SIGTERM");
  const until = Date.now() + graceMs;
  while (Date.now() < until && processesOfHub(hubId).length > 0) await delay(100);
  for (const pid of processesOfHub(hubId)) signal(pid, "SIGKILL");
  return pids.length;
}
