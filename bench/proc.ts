// What /proc says about one running process (Linux), for the benches that measure a start.
import { readFileSync } from "node:fs";

const TICKS = 100; // USER_HZ on Linux

/** CPU seconds of `pid` (utime + stime); with `children`, also those of the children it has waited for. */
export function cpuSeconds(pid: number, options: { children?: boolean } = {}): number {
  // utime, stime, cutime, cstime are fields 14-17 (1-based) of the whole line; after "comm) " shifted by 2.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const used = options.children ? [11, 12, 13, 14] : [11, 12];
  return used.reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS;
}

/** A kB field of /proc/<pid>/status (VmRSS: now, VmHWM: the peak) in whole MB; 0 when it is missing. */
export function statusMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}
