// Where each participant stands, for the projector — judged against the class, not the person: stuck
// ("haengt": a ❌ in their current Aufgabe, or no ✅ for N minutes), behind ("zurueck": their current
// Aufgabe is before the class's), in progress, not started, done — and the order the board shows them in
// (stuck first, longest without ✅ on top). A participant's current Aufgabe is the highest one they have
// run a check in; the class's is the instructor's (`--aufgabe N`, keys 1–4 on the page) or else the one
// most participants are in. A check run on an untouched skeleton (NotSolvedError) is open, never a ❌.
import { BOARD_CHECKS, type BoardPart } from "../../../lib/exercises/index.js";
import { BOARD_PARTS } from "../../../lib/exercises/board-record.js";
import type { Participant } from "./state.js";

/** Without a ✅ for this long, a participant who is not done counts as stuck (`--haengt-nach`). */
export const DEFAULT_STUCK_AFTER_MIN = 10;

export type ProgressStatus = "haengt" | "zurueck" | "arbeitet" | "nicht-begonnen" | "fertig";

/** The order on the board: stuck first, then behind the class, done last. */
const STATUS_ORDER: readonly ProgressStatus[] = ["haengt", "zurueck", "arbeitet", "nicht-begonnen", "fertig"];

export interface Progress {
  status: ProgressStatus;
  /** The highest Aufgabe with a run; null before the first run. */
  aufgabe: BoardPart | null;
  /** Seconds since the last ✅ (or since the first run when there was none); null before the first run. */
  sinceOkS: number | null;
  /** Stuck because sinceOkS reached the limit (the board highlights the time). */
  overdue: boolean;
}

/** The participant's current Aufgabe: the highest with a run; null before the first. */
function currentAufgabe(p: Participant): BoardPart | null {
  return BOARD_PARTS.filter((a) => p.checks.some((c) => c.aufgabe === a)).at(-1) ?? null;
}

/** The Aufgabe most participants with a run are in (a tie goes to the later one); null when nobody ran a check. */
export function majorityAufgabe(participants: readonly Participant[]): BoardPart | null {
  const counts = new Map<BoardPart, number>();
  for (const p of participants) {
    const a = currentAufgabe(p);
    if (a !== null) counts.set(a, (counts.get(a) ?? 0) + 1);
  }
  let best: BoardPart | null = null;
  for (const a of BOARD_PARTS)
    if ((counts.get(a) ?? 0) > 0 && (counts.get(a) ?? 0) >= (best === null ? 0 : counts.get(best)!)) best = a;
  return best;
}

/** `classAufgabe`: the Aufgabe the class works in (null: judge each participant on their own). */
export function progressOf(
  p: Participant,
  now: number,
  stuckAfterMs: number,
  classAufgabe: BoardPart | null = null,
): Progress {
  const aufgabe = currentAufgabe(p);
  if (aufgabe === null) return { status: "nicht-begonnen", aufgabe: null, sinceOkS: null, overdue: false };
  const current = p.checks.filter((c) => c.aufgabe === aufgabe);
  const since = p.lastOkAt ?? Math.min(...p.checks.map((c) => c.at));
  const sinceOkS = Math.max(0, Math.round((now - since) / 1000));
  const failing = current.some((c) => c.failed > 0);
  const done =
    !failing && BOARD_CHECKS[aufgabe].every((check) => current.some((c) => c.check === check && (c.open ?? 0) === 0));
  const overdue = !done && now - since >= stuckAfterMs;
  if (failing || overdue) return { status: "haengt", aufgabe, sinceOkS, overdue };
  if (classAufgabe !== null && aufgabe < classAufgabe) return { status: "zurueck", aufgabe, sinceOkS, overdue: false };
  return { status: done ? "fertig" : "arbeitet", aufgabe, sinceOkS, overdue: false };
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
