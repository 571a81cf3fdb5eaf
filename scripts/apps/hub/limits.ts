// Limits per participant, so one participant cannot take the class down: processes and threads
// (RLIMIT_NPROC, set in the spawn by jupyterhub_config.py; it counts per user, so root only), the largest file
// (RLIMIT_FSIZE), memory (a cgroup v2 memory.max per participant where the machine has one) and a disk guard
// (disk-guard.ts). This file decides what the machine allows; the spawn applies it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ParticipantLimits } from "./args.js";

/** What the spawn applies (settings.json → jupyterhub_config.py). */
export interface SpawnLimits {
  /** RLIMIT_NPROC; null without root (all participants share the instructor's user, whose processes it would count). */
  processes: number | null;
  /** RLIMIT_FSIZE in bytes. */
  fileBytes: number;
  /** The folder of the participants' cgroups (each gets `<folder>/<user>/memory.max`), or null: no memory limit. */
  memoryCgroup: string | null;
  memoryBytes: number;
}

export const MB = 1024 * 1024;
/** The cgroup v2 folder the hub makes for its participants, under the cgroup root. */
export const CGROUP_FOLDER = "kurs-hub";

/**
 * The cgroup folder the participants' memory limits go in, or the German reason there is none: needs cgroup v2
 * (unified hierarchy at `sysfs`) with the memory controller enabled for children, and root.
 */
export function memoryCgroup(
  sysfs = "/sys/fs/cgroup",
  root = process.getuid?.() === 0,
): { folder: string } | { problem: string } {
  const problem = memoryCgroupProblem(sysfs, root);
  if (problem) return { problem };
  const folder = join(sysfs, CGROUP_FOLDER);
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "cgroup.subtree_control"), "+memory");
  } catch (error) {
    return {
      problem: `die cgroup ${folder} ließ sich nicht anlegen (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    };
  }
  return { folder };
}

/** Why this machine gives no memory limit per participant (German), or undefined when it can; changes nothing. */
export function memoryCgroupProblem(sysfs = "/sys/fs/cgroup", root = process.getuid?.() === 0): string | undefined {
  if (!root) return "ohne root gibt es keine Speichergrenze je Teilnehmer:in";
  const read = (file: string) => (existsSync(join(sysfs, file)) ? readFileSync(join(sysfs, file), "utf8") : "");
  if (!read("cgroup.controllers").split(/\s+/).includes("memory")) {
    return "dieser Rechner hat keine cgroup v2 mit Speicher-Controller (z. B. ein Container oder cgroup v1) – eine:r kann den Arbeitsspeicher aller füllen";
  }
  if (!read("cgroup.subtree_control").split(/\s+/).includes("memory")) {
    return "der Speicher-Controller ist in der cgroup-Wurzel nicht eingeschaltet (systemd: DefaultMemoryAccounting=yes)";
  }
  return undefined;
}

/** The limits the spawn applies for `limits` on this machine, plus a German note when memory stays unlimited. */
export function spawnLimits(
  limits: ParticipantLimits,
  isolated: boolean,
  cgroup = memoryCgroup(undefined, isolated),
): { spawn: SpawnLimits; note?: string } {
  return {
    spawn: {
      processes: isolated ? limits.processes : null,
      fileBytes: limits.spaceMb * MB,
      memoryCgroup: "folder" in cgroup ? cgroup.folder : null,
      memoryBytes: limits.memoryMb * MB,
    },
    note: "problem" in cgroup ? `HINWEIS: Keine Speichergrenze je Teilnehmer:in (${cgroup.problem}).` : undefined,
  };
}
