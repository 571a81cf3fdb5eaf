// Where each participant stands, for the projector: stuck ("haengt": a ❌ in their current Aufgabe, or no ✅
// for N minutes), in progress, not started, done — and the order the board shows them in (stuck first,
// longest without ✅ on top). A participant's current Aufgabe is the highest one they have run a check in.
import { BOARD_CHECKS, type BoardPart } from "../../../lib/exercises/index.js";
import { BOARD_PARTS } from "../../../lib/exercises/board-record.js";
import type { Participant } from "./state.js";

/** Without a ✅ for this long, a participant who is not done counts as stuck (`--haengt-nach`). */
export const DEFAULT_STUCK_AFTER_MIN = 10;

export type ProgressStatus = "haengt" | "arbeitet" | "nicht-begonnen" | "fertig";

/** The order on the board: stuck first, done last. */
const STATUS_ORDER: readonly ProgressStatus[] = ["haengt", "arbeitet", "nicht-begonnen", "fertig"];

export interface Progress {
  status: ProgressStatus;
  /** The highest Aufgabe with a run; null before the first run. */
  aufgabe: BoardPart | null;
  /** Seconds since the last ✅ (or since the first run when there was none); null before the first run. */
  sinceOkS: number | null;
  /** Stuck because sinceOkS reached the limit (the board highlights the time). */
  overdue: boolean;
}

export function progressOf(p: Participant, now: number, stuckAfterMs: number): Progress {
  if (p.checks.length === 0) return { status: "nicht-begonnen", aufgabe: null, sinceOkS: null, overdue: false };
  const aufgabe = BOARD_PARTS.filter((a) => p.checks.some((c) => c.aufgabe === a)).at(-1)!;
  const current = p.checks.filter((c) => c.aufgabe === aufgabe);
  const since = p.lastOkAt ?? Math.min(...p.checks.map((c) => c.at));
  const sinceOkS = Math.max(0, Math.round((now - since) / 1000));
  const failing = current.some((c) => c.failed > 0);
  const done = !failing && BOARD_CHECKS[aufgabe].every((check) => current.some((c) => c.check === check));
  if (done) return { status: "fertig", aufgabe, sinceOkS, overdue: false };
  const overdue = now - since >= stuckAfterMs;
  return { status: failing || overdue ? "haengt" : "arbeitet", aufgabe, sinceOkS, overdue };
}

/** Sorts rows for the projector: by status, the stuck by time without ✅ (longest first), then by name. */
export function projectorOrder<T extends { name: string; progress: Progress }>(rows: readonly T[]): T[] {
  const rank = (r: T) => STATUS_ORDER.indexOf(r.progress.status);
  return [...rows].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.progress.status === "haengt" ? (b.progress.sinceOkS ?? 0) - (a.progress.sinceOkS ?? 0) : 0) ||
      a.name.localeCompare(b.name, "de", { numeric: true }),
  );
}
