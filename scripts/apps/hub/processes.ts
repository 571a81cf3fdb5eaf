// Everything the hub started carries KURS_HUB_ID=<id> in its environment (JupyterHub, its proxy, each
// participant's Jupyter server and kernels). A stop ends JupyterHub first (it stops the servers it
// spawned) and then whatever still carries the id, so no process outlives the hub. As root, what a
// participant started without the id (a kernel's child with its own environment) is found by the
// participant's user id: it would outlive the class and block `userdel`.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import {
  processesOfUsers,
  processesWithEnv,
  stopProcessesOfUsers,
  stopProcessesWithEnv,
} from "../../node/processes.js";
import { loadParticipants } from "./participants.js";
import { HUB_ID_ENV } from "./settings.js";

/** Processes whose environment holds `KURS_HUB_ID=<id>` (none where /proc is missing). */
export function processesOfHub(hubId: string): number[] {
  return processesWithEnv(HUB_ID_ENV, hubId);
}

/** SIGTERM to every process of the hub, SIGKILL to those still there after `graceMs`. */
export function stopProcessesOfHub(hubId: string, graceMs = 5000): Promise<number> {
  return stopProcessesWithEnv(HUB_ID_ENV, hubId, graceMs);
}

/** The user ids of the participants' system users this hub made (their home is their folder under `root`). */
export function participantUids(root: string): number[] {
  const uids: number[] = [];
  for (const p of loadParticipants(root)) {
    const entry = spawnSync("getent", ["passwd", p.user], { encoding: "utf8" }).stdout.trim().split(":");
    if (entry[5] === join(root, p.user) && Number(entry[2]) > 0) uids.push(Number(entry[2]));
  }
  return uids;
}

export function participantProcesses(root: string): number[] {
  return processesOfUsers(participantUids(root));
}

/** Ends every process of the participants' users (root only). */
export function stopParticipantProcesses(root: string, graceMs = 5000): Promise<number> {
  return stopProcessesOfUsers(participantUids(root), graceMs);
}
