// Everything the hub started carries KURS_HUB_ID=<id> in its environment (JupyterHub, its proxy, each
// participant's Jupyter server and kernels). A stop ends JupyterHub first (it stops the servers it
// spawned) and then whatever still carries the id, so no process outlives the hub.
import { processesWithEnv, stopProcessesWithEnv } from "../../node/processes.js";
import { HUB_ID_ENV } from "./settings.js";

/** Processes whose environment holds `KURS_HUB_ID=<id>` (none where /proc is missing). */
export function processesOfHub(hubId: string): number[] {
  return processesWithEnv(HUB_ID_ENV, hubId);
}

/** SIGTERM to every process of the hub, SIGKILL to those still there after `graceMs`. */
export function stopProcessesOfHub(hubId: string, graceMs = 5000): Promise<number> {
  return stopProcessesWithEnv(HUB_ID_ENV, hubId, graceMs);
}
