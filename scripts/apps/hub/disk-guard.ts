// The hub's disk guard: every 30 s (KURS_HUB_PLATZ_SEKUNDEN for tests) `npm run hub` measures each
// participant's folder and the free space of the disk. A folder over --platz-je-person gets its server
// stopped through the hub's API; the participant sees the German reason when the hub would start it again
// (<state>/gesperrt.json, read by kurs_limits.py) and the instructor gets it on the console. Once the folder
// is small enough again (the instructor deleted files), the participant may start again. A nearly full disk
// is reported to the instructor before it stops everyone's saving. The hub keeps a reserve file in its own
// state folder (RESERVE_BYTES); when the disk is full the guard deletes it, so the hub's database and
// participant list stay writable (logins go on) while the instructor makes room, and writes it again later.
// `du` runs as a child without blocking `npm run hub` (which also answers every login check); a folder that
// `du` cannot measure in time (millions of tiny files) counts as over the limit, not as fine.
import { execFile } from "node:child_process";
import { closeSync, existsSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../../lib/files.js";
import { ignore } from "../../../lib/util.js";
import { MB } from "./limits.js";
import { loadParticipants } from "./participants.js";

export const DEFAULT_GUARD_INTERVAL_S = 30;
/** A folder too slow to measure is measured again only every this many rounds (it stays blocked meanwhile). */
const SLOW_REMEASURE_ROUNDS = 5;
/** A folder `du` has not measured after this long counts as over the limit (KURS_HUB_PLATZ_MESSZEIT for tests). */
export const DEFAULT_MEASURE_TIMEOUT_S = 60;
/** Below this much free space (or the space of one participant, if more) the instructor is warned. */
const LOW_DISK_BYTES = 2 * 1024 * MB;
/** The hub's reserve: room for its own state (JupyterHub's database, the participant list) on a full disk. */
export const RESERVE_BYTES = 64 * MB;
const RESERVE_FILE = "platz-reserve";

/** Writes the reserve file (real blocks, not a sparse file); false when there is no room for it. */
export function writeReserve(stateDir: string): boolean {
  const path = join(stateDir, RESERVE_FILE);
  if (existsSync(path)) return true;
  const chunk = Buffer.alloc(MB);
  let fd: number | undefined;
  try {
    fd = openSync(path, "w", 0o600);
    for (let i = 0; i < RESERVE_BYTES / MB; i++) writeSync(fd, chunk);
    closeSync(fd);
    return true;
  } catch {
    if (fd !== undefined) closeSync(fd);
    rmSync(path, { force: true });
    return false;
  }
}

export interface DiskGuardOptions {
  root: string;
  stateDir: string;
  /** --platz-je-person in bytes. */
  spaceBytes: number;
  /** The hub's REST API (http://127.0.0.1:<hubPort>/hub/api) and the guard service's token. */
  hubApi: string;
  token: string;
  log: (line: string) => void;
  intervalMs?: number;
  measureTimeoutMs?: number;
}

export interface DiskGuard {
  /** One round now (the timer does the same). */
  check(): Promise<void>;
  /** Ends the timer and a running round at once: its `du` is killed, nothing is written or stopped after. */
  stop(): void;
}

const mb = (bytes: number) => `${Math.round(bytes / MB).toLocaleString("de-DE")} MB`;

/** Bytes a folder takes on disk (du counts without following links and stays on one file system); "too-slow"
 * when du did not finish within `timeoutMs` (it is killed), undefined when it could not measure or `signal`
 * aborted it (killed too). */
export function folderBytes(
  path: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<number | "too-slow" | undefined> {
  return new Promise((resolve) => {
    execFile(
      "du",
      ["-s", "-x", "-B1", path],
      { encoding: "utf8", timeout: timeoutMs, killSignal: "SIGKILL", signal },
      (error, stdout) => {
        if (signal?.aborted) return resolve(undefined);
        if (error?.killed) return resolve("too-slow");
        const bytes = Number(stdout.split("\t")[0]);
        resolve(Number.isFinite(bytes) && stdout.trim() !== "" ? bytes : undefined);
      },
    );
  });
}

export function freeBytes(path: string): number | undefined {
  try {
    const s = statfsSync(path);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

const secondsFrom = (value: string | undefined, fallback: number) => {
  const seconds = Number(value);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : fallback) * 1000;
};

export function guardIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  return secondsFrom(env.KURS_HUB_PLATZ_SEKUNDEN, DEFAULT_GUARD_INTERVAL_S);
}

export function measureTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  return secondsFrom(env.KURS_HUB_PLATZ_MESSZEIT, DEFAULT_MEASURE_TIMEOUT_S);
}

export function startDiskGuard(o: DiskGuardOptions): DiskGuard {
  const blocked = new Map<string, string>();
  let lowDiskWarned = false;
  let running = false;
  /** Rounds a too-slow folder still waits before `du` measures it again. */
  const slowWaits = new Map<string, number>();
  const stopping = new AbortController();
  const timeoutMs = o.measureTimeoutMs ?? measureTimeoutMs();
  const seconds = `${Math.round(timeoutMs / 1000)} s`;
  const stopServer = async (user: string) => {
    try {
      const res = await fetch(`${o.hubApi}/users/${encodeURIComponent(user)}/server`, {
        method: "DELETE",
        headers: { authorization: `token ${o.token}` },
        signal: AbortSignal.any([AbortSignal.timeout(30_000), stopping.signal]),
      });
      return res.ok || res.status === 400; // 400: not running
    } catch {
      return false;
    }
  };
  const saveBlocked = () =>
    writeFileAtomic(
      join(o.stateDir, "gesperrt.json"),
      `${JSON.stringify(Object.fromEntries(blocked), null, 1)}\n`,
    ).catch(ignore("the block list stays in memory; the next check writes the file again"));

  /** Frees the reserve on a full disk (before the slow per-folder round), writes it back when there is room. */
  const checkFreeSpace = () => {
    let free = freeBytes(o.root);
    if (free !== undefined && free < RESERVE_BYTES / 4 && existsSync(join(o.stateDir, RESERVE_FILE))) {
      rmSync(join(o.stateDir, RESERVE_FILE), { force: true });
      o.log(
        `WARNUNG: Die Platte von ${o.root} ist voll – der Hub gibt seine Reserve (${mb(RESERVE_BYTES)}) frei, damit Anmelden weiter geht. Bitte sofort Platz schaffen (das Terminal nennt zu große Ordner).`,
      );
      lowDiskWarned = true;
      free = freeBytes(o.root);
    } else if (free !== undefined && free > RESERVE_BYTES * 4) writeReserve(o.stateDir);
    const low = Math.max(LOW_DISK_BYTES, o.spaceBytes);
    if (free !== undefined && free < low && !lowDiskWarned) {
      lowDiskWarned = true;
      o.log(
        `WARNUNG: Auf der Platte von ${o.root} sind nur noch ${mb(free)} frei – bald kann niemand mehr speichern. Bitte Platz schaffen oder --platz-je-person kleiner wählen.`,
      );
    } else if (free !== undefined && free >= low) lowDiskWarned = false;
  };

  /** A too-slow folder waits SLOW_REMEASURE_ROUNDS rounds (it stays blocked): each `du` on it takes the full timeout. */
  const waitsForRemeasure = (user: string) => {
    const waits = slowWaits.get(user) ?? 0;
    if (waits > 0) slowWaits.set(user, waits - 1);
    return waits > 0;
  };

  const check = async () => {
    if (running || stopping.signal.aborted) return;
    running = true;
    try {
      checkFreeSpace();
      let changed = false;
      for (const p of loadParticipants(o.root)) {
        const home = join(o.root, p.user);
        if (!existsSync(home) || waitsForRemeasure(p.user)) continue;
        const bytes = await folderBytes(home, timeoutMs, stopping.signal);
        if (stopping.signal.aborted) return;
        if (bytes === undefined) continue;
        const tooSlow = bytes === "too-slow";
        if (tooSlow) slowWaits.set(p.user, SLOW_REMEASURE_ROUNDS - 1);
        if ((tooSlow || bytes > o.spaceBytes) && !blocked.has(p.user)) {
          const reason = tooSlow
            ? `Dein Ordner hat so viele Dateien, dass der Hub ihn nicht in ${seconds} messen konnte – dein Jupyter wurde gestoppt, damit der Kursrechner für alle läuft. Bitte der Kursleitung Bescheid geben.`
            : `Dein Ordner ist mit ${mb(bytes)} größer als die ${mb(o.spaceBytes)} je Person – dein Jupyter wurde gestoppt, damit der Platz für alle reicht. Bitte der Kursleitung Bescheid geben.`;
          blocked.set(p.user, reason);
          changed = true;
          await saveBlocked();
          const stopped = (await stopServer(p.user)) ? "Jupyter gestoppt" : "Jupyter ließ sich nicht stoppen";
          if (stopping.signal.aborted) return;
          o.log(
            tooSlow
              ? `Platz: Der Ordner von „${p.name}“ (${home}) ließ sich nicht in ${seconds} messen (sehr viele Dateien?) – behandelt wie über --platz-je-person, ${stopped}. Dateien zählen mit 'find ${home} -xdev | wc -l', überzählige löschen, dann kann sie/er wieder starten.`
              : `Platz: Der Ordner von „${p.name}“ (${home}) belegt ${mb(bytes)}, mehr als --platz-je-person ${mb(o.spaceBytes)} – ${stopped}. Große Dateien löschen (z. B. 'du -ah ${home} | sort -h | tail'), dann kann sie/er wieder starten.`,
          );
        } else if (!tooSlow && bytes <= o.spaceBytes && blocked.delete(p.user)) {
          changed = true;
          o.log(
            `Platz: Der Ordner von „${p.name}“ ist wieder unter ${mb(o.spaceBytes)} (${mb(bytes)}) – sie/er kann Jupyter wieder starten.`,
          );
        }
      }
      if (changed) await saveBlocked();
      checkFreeSpace();
    } finally {
      running = false;
    }
  };
  writeReserve(o.stateDir);
  const timer = setInterval(() => void check(), o.intervalMs ?? guardIntervalMs());
  timer.unref();
  return {
    check,
    stop: () => {
      clearInterval(timer);
      stopping.abort();
    },
  };
}
