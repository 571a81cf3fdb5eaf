// Whether a process still runs. A killed process whose parent has gone stays a zombie until its new
// parent reaps it; kill(pid, 0) still finds it, /proc/<pid>/stat says "Z".
import { readFileSync } from "node:fs";

/** True while `pid` runs (not when it is gone or a zombie). Linux only. */
export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "latin1"));
  } catch {
    return false;
  }
}
