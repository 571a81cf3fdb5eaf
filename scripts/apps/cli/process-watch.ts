// Notices when the command that started us goes away. `npm start` runs npm → sh → tsx → node (this
// script); a signal to npm or sh ends them but not us, and we would go on headless. So the CLI watches
// its ancestors in the same process group (the ones a terminal or `kill` treats as one job) and stops
// when one of them is gone.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { processAlive } from "../../../lib/util.js";

interface ProcInfo {
  ppid: number;
  pgid: number;
}

function procInfo(pid: number | "self"): ProcInfo | undefined {
  try {
    if (process.platform === "linux") {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // "pid (comm) state ppid pgrp …": comm may contain spaces and parentheses, so split after the last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return { ppid: Number(fields[1]), pgid: Number(fields[2]) };
    }
    if (process.platform === "win32") return undefined;
    const out = execFileSync("ps", ["-o", "ppid=,pgid=", "-p", String(pid === "self" ? process.pid : pid)], {
      encoding: "utf8",
    });
    const [ppid, pgid] = out.trim().split(/\s+/).map(Number);
    return ppid && pgid ? { ppid, pgid } : undefined;
  } catch {
    return undefined;
  }
}

/** Our ancestors (parent first) that belong to our process group, e.g. tsx, sh and npm for `npm start`. */
export function groupAncestors(): number[] {
  const self = procInfo("self");
  if (!self) return [];
  const out: number[] = [];
  let pid = process.ppid;
  while (pid > 1 && out.length < 16) {
    const info = procInfo(pid);
    if (!info || info.pgid !== self.pgid) break;
    out.push(pid);
    pid = info.ppid;
  }
  return out;
}

/** Calls `onGone(pid)` once when one of `pids` disappears or our parent changes; returns a stop function. */
export function watchAncestors(pids: number[], onGone: (pid: number) => void, intervalMs = 200): () => void {
  if (pids.length === 0) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    const gone = process.ppid !== parent ? parent : pids.find((pid) => !processAlive(pid));
    if (gone === undefined) return;
    clearInterval(timer);
    onGone(gone);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
