// The class board's state: the latest run of every check per participant, what is stored on disk, and the
// view the page and /api/state show (participants × Aufgaben, last ✅, the check most people fail now).
import { z } from "zod";
import { BOARD_CHECKS, type BoardPart, type BoardRecord } from "../../../lib/exercises/index.js";
import {
  BOARD_COUNT_MAX,
  BOARD_NAME_MAX,
  BOARD_PARTS,
  boardNameProblem,
  cleanBoardName,
} from "../../../lib/exercises/board-record.js";
import { checkTitle } from "./check-titles.js";
import { INSTRUCTOR_KEY_PATTERN, newInstructorKey } from "./instructor.js";
import { JOIN_CODE_PATTERN } from "./join-code.js";
import { lookAlikeSkeleton } from "./look-alike.js";
import { DEFAULT_STUCK_AFTER_MIN, majorityAufgabe, progressOf, projectorOrder, type Progress } from "./progress.js";

/** The latest run of one check by one participant (times on the board's clock, ms since 1970). */
export interface CheckRun {
  aufgabe: BoardPart;
  check: string;
  passed: number;
  failed: number;
  /** Cases not tried yet (NotSolvedError): the check is open, neither ✅ nor ❌. */
  open?: number;
  runs: number;
  at: number;
}

export interface Participant {
  name: string;
  checks: CheckRun[];
  lastOkAt: number | null;
  lastSeenAt: number;
  /** When the participant came onto the board (joined or first result); missing in older files. */
  joinedAt?: number;
}

/** A raised hand (`hilfe("…")` in a notebook): who, the question, since when (board clock). */
export interface RaisedHand {
  name: string;
  question: string;
  since: number;
}

/** A raised hand older than this when the board starts is from an earlier day: not taken over. */
export const STALE_HAND_MS = 8 * 60 * 60_000;

/** The stored hands still fresh at `now` and the number of stale ones left out (STALE_HAND_MS). */
export function freshHands(hands: RaisedHand[] = [], now: number): { hands: RaisedHand[]; stale: number } {
  const fresh = hands.filter((h) => now - h.since <= STALE_HAND_MS);
  return { hands: fresh, stale: hands.length - fresh.length };
}

/** What the board writes to its JSON file: its join code, every participant, the raised hands, the instructor's key. */
export interface BoardData {
  version: 1;
  joinCode: string;
  participants: Participant[];
  /** Raised hands, longest waiting first (missing in older files: none). */
  hands?: RaisedHand[];
  /** The secret of the instructor's link (missing in older files: a new one is made). */
  instructorKey?: string;
  /** The Aufgabe the instructor set (keys 1–4); null or missing: the majority's. */
  classAufgabe?: BoardPart | null;
}

const part = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
const count = z.number().int().min(0).max(BOARD_COUNT_MAX);

/** A posted record: exactly these fields, nothing else. */
export const recordSchema = z
  .object({
    name: z.string().max(BOARD_NAME_MAX * 4),
    aufgabe: part,
    check: z.string().max(60),
    passed: count,
    failed: count,
    open: count.optional(),
    at: z.string().max(40),
  })
  .strict() satisfies z.ZodType<BoardRecord>;

const storedSchema = z.object({
  version: z.literal(1),
  joinCode: z.string().regex(JOIN_CODE_PATTERN, "Beitrittscode fehlt oder hat eine ungültige Form"),
  participants: z.array(
    z.object({
      name: z.string(),
      lastOkAt: z.number().nullable(),
      lastSeenAt: z.number(),
      joinedAt: z.number().optional(),
      checks: z.array(
        z.object({
          aufgabe: part,
          check: z.string(),
          passed: count,
          failed: count,
          open: count.optional(),
          runs: z.number(),
          at: z.number(),
        }),
      ),
    }),
  ),
  hands: z.array(z.object({ name: z.string(), question: z.string(), since: z.number() })).optional(),
  instructorKey: z.string().regex(INSTRUCTOR_KEY_PATTERN).optional(),
  classAufgabe: part.nullable().optional(),
}) satisfies z.ZodType<BoardData>;

/** Checks read back from the board's file; throws a zod error when it is not the board's shape. */
export function parseStored(value: unknown): BoardData {
  return storedSchema.parse(value);
}

/** Why a posted record is refused (German), or undefined when it is fine. */
export function recordProblem(record: BoardRecord): string | undefined {
  const nameProblem = boardNameProblem(record.name);
  if (nameProblem) return nameProblem;
  if (!BOARD_CHECKS[record.aufgabe].includes(record.check))
    return `Unbekannter Selbsttest „${record.check}“ für Aufgabe ${record.aufgabe}.`;
  if (record.passed + record.failed + (record.open ?? 0) === 0) return "Ein Selbsttest hat mindestens einen Fall.";
  return undefined;
}

/** The key one participant is known by: the same name in other case or spacing is the same person. */
export function participantKey(name: string): string {
  return (cleanBoardName(name) ?? name).toLocaleLowerCase("de").replace(/\s+/g, " ");
}

/** The board in memory: participants by key, raised hands, the instructor's key. */
export class BoardState {
  private readonly byKey = new Map<string, Participant>();
  /** Raised hands by participant key, oldest first (stored with the participants: a restart keeps them). */
  private readonly hands = new Map<string, RaisedHand>();
  /** The Aufgabe the instructor says the class works in (`--aufgabe N`, keys 1–4 on the page); null: the majority's. */
  classAufgabe: BoardPart | null = null;
  /** Lets a browser that is not on this machine lower hands and set the class's Aufgabe (server.ts). */
  readonly instructorKey: string;

  constructor(
    public joinCode: string,
    participants: Participant[] = [],
    stored: Pick<BoardData, "hands" | "instructorKey" | "classAufgabe"> = {},
  ) {
    for (const p of participants) this.byKey.set(participantKey(p.name), p);
    for (const hand of stored.hands ?? []) {
      const key = participantKey(hand.name);
      if (this.byKey.has(key) && !this.hands.has(key)) this.hands.set(key, { ...hand });
    }
    this.instructorKey = stored.instructorKey ?? newInstructorKey();
    this.classAufgabe = stored.classAufgabe ?? null;
  }

  /** A participant already on the board whose name looks like `name` but is another one (see look-alike.ts). */
  lookAlikeOf(name: string): string | undefined {
    if (this.has(name)) return undefined;
    const skeleton = lookAlikeSkeleton(cleanBoardName(name) ?? name);
    return [...this.byKey.values()].find((p) => lookAlikeSkeleton(p.name) === skeleton)?.name;
  }

  /**
   * Removes the participant called `name` (case and spacing aside; else the one whose name looks like it,
   * invisible characters ignored). `removed` is the name taken off; when several look like `name`,
   * none is removed and `candidates` lists them.
   */
  remove(name: string): { removed?: string; candidates: string[] } {
    const key = participantKey(name);
    const skeleton = lookAlikeSkeleton(name);
    const matches = this.byKey.has(key)
      ? [key]
      : [...this.byKey.entries()].filter(([, p]) => lookAlikeSkeleton(p.name) === skeleton).map(([k]) => k);
    const candidates = matches.map((k) => this.byKey.get(k)!.name);
    if (matches.length !== 1) return { candidates };
    this.byKey.delete(matches[0]!);
    this.hands.delete(matches[0]!);
    return { removed: candidates[0], candidates };
  }

  get size(): number {
    return this.byKey.size;
  }

  has(name: string): boolean {
    return this.byKey.has(participantKey(name));
  }

  /**
   * Puts a participant on the board before their first result ("nicht begonnen"); the name must be
   * checked (boardNameProblem, lookAlikeOf). Returns the name as shown and whether it is new.
   */
  join(name: string, now: number): { name: string; added: boolean } {
    const existing = this.byKey.get(participantKey(name));
    if (existing) return { name: existing.name, added: false };
    const shown = cleanBoardName(name)!;
    this.byKey.set(participantKey(shown), { name: shown, checks: [], lastOkAt: null, lastSeenAt: now, joinedAt: now });
    return { name: shown, added: true };
  }

  /** Raises the hand of a participant on the board (a second call only changes the question). */
  raiseHand(name: string, question: string, now: number): { position: number } {
    const key = participantKey(name);
    const p = this.byKey.get(key)!;
    const hand = this.hands.get(key);
    if (hand) hand.question = question;
    else this.hands.set(key, { name: p.name, question, since: now });
    return { position: [...this.hands.keys()].indexOf(key) + 1 };
  }

  /** True when `name`'s hand is up. */
  handRaised(name: string): boolean {
    return this.hands.has(participantKey(name));
  }

  /** Lowers the hand of `name`; false when it was not raised. */
  lowerHand(name: string): boolean {
    return this.hands.delete(participantKey(name));
  }

  /** Raised hands, longest waiting first. */
  raisedHands(): RaisedHand[] {
    return [...this.hands.values()];
  }

  /** Stores a checked record as the latest run of its check. */
  apply(record: BoardRecord, now: number): void {
    const name = cleanBoardName(record.name)!;
    const key = participantKey(name);
    const p = this.byKey.get(key) ?? { name, checks: [], lastOkAt: null, lastSeenAt: now, joinedAt: now };
    this.byKey.set(key, p);
    p.lastSeenAt = now;
    const open = record.open ?? 0;
    if (record.failed === 0 && open === 0) p.lastOkAt = now;
    const run = p.checks.find((c) => c.aufgabe === record.aufgabe && c.check === record.check);
    const counts = { passed: record.passed, failed: record.failed, ...(open > 0 ? { open } : {}) };
    if (run) {
      delete run.open;
      Object.assign(run, counts, { runs: run.runs + 1, at: now });
    } else p.checks.push({ aufgabe: record.aufgabe, check: record.check, ...counts, runs: 1, at: now });
  }

  data(): BoardData {
    return {
      version: 1,
      joinCode: this.joinCode,
      participants: [...this.byKey.values()],
      hands: this.raisedHands(),
      instructorKey: this.instructorKey,
      classAufgabe: this.classAufgabe,
    };
  }

  participants(): Participant[] {
    return [...this.byKey.values()].sort((a, b) => a.name.localeCompare(b.name, "de"));
  }
}

/** A participant's cell of one Aufgabe: checks whose latest run passed (ok), failed (fail) or is still open. */
export interface CellView {
  aufgabe: BoardPart;
  ok: number;
  fail: number;
  /** Checks run on an untouched skeleton (NotSolvedError): not tried yet, never ❌. */
  open: number;
  total: number;
  /** gruen: all checks passed; rot: a check's latest run failed; teil: some passed or open; leer: none run. */
  state: "gruen" | "rot" | "teil" | "leer";
}

export interface BoardView {
  now: string;
  aufgaben: { aufgabe: BoardPart; checks: readonly string[]; rot: number; gruen: number }[];
  /** By name; `rank` is the place on the projector (progress.ts: stuck first). */
  participants: {
    name: string;
    cells: CellView[];
    lastOkAgoS: number | null;
    lastSeenAgoS: number;
    /** Seconds since the participant came onto the board (older files: since last seen). */
    joinedAgoS: number;
    progress: Progress;
    rank: number;
  }[];
  /** The Aufgabe progress is judged against: the instructor's (`kursleitung`) or most participants' (`mehrheit`); null before any run. */
  classAufgabe: { aufgabe: BoardPart; by: "kursleitung" | "mehrheit" } | null;
  /** Raised hands, longest waiting first. */
  hands: { name: string; question: string; waitingS: number }[];
  /** Minutes without a ✅ after which a participant counts as stuck. */
  stuckAfterMin: number;
  /** The check whose latest run failed for the most people in the last RECENT_MS (`title`: its German
   * title, check-titles.ts); null when none. */
  topFailing: { aufgabe: BoardPart; check: string; title: string; people: number } | null;
}

/** "Right now" for the most-failed check. */
export const RECENT_MS = 15 * 60_000;

function cellOf(p: Participant, aufgabe: BoardPart): CellView {
  const runs = p.checks.filter((c) => c.aufgabe === aufgabe);
  const fail = runs.filter((c) => c.failed > 0).length;
  const open = runs.filter((c) => c.failed === 0 && (c.open ?? 0) > 0).length;
  const ok = runs.length - fail - open;
  const total = BOARD_CHECKS[aufgabe].length;
  const state = fail > 0 ? "rot" : ok === total ? "gruen" : ok + open > 0 ? "teil" : "leer";
  return { aufgabe, ok, fail, open, total, state };
}

function topFailing(participants: Participant[], now: number): BoardView["topFailing"] {
  const people = new Map<string, NonNullable<BoardView["topFailing"]>>();
  for (const p of participants) {
    for (const c of p.checks) {
      if (c.failed === 0 || now - c.at > RECENT_MS) continue;
      const key = `${c.aufgabe}:${c.check}`;
      const entry = people.get(key) ?? { aufgabe: c.aufgabe, check: c.check, title: checkTitle(c.check), people: 0 };
      entry.people++;
      people.set(key, entry);
    }
  }
  const ranked = [...people.values()].sort(
    (a, b) => b.people - a.people || a.aufgabe - b.aufgabe || a.check.localeCompare(b.check),
  );
  return ranked[0] ?? null;
}

export function boardView(state: BoardState, now: number, stuckAfterMin = DEFAULT_STUCK_AFTER_MIN): BoardView {
  const participants = state.participants();
  const agoS = (at: number) => Math.max(0, Math.round((now - at) / 1000));
  const majority = majorityAufgabe(participants);
  const classAufgabe =
    state.classAufgabe !== null
      ? { aufgabe: state.classAufgabe, by: "kursleitung" as const }
      : majority === null
        ? null
        : { aufgabe: majority, by: "mehrheit" as const };
  const rows = participants.map((p) => ({
    name: p.name,
    cells: BOARD_PARTS.map((a) => cellOf(p, a)),
    lastOkAgoS: p.lastOkAt === null ? null : agoS(p.lastOkAt),
    lastSeenAgoS: agoS(p.lastSeenAt),
    joinedAgoS: agoS(p.joinedAt ?? p.lastSeenAt),
    progress: progressOf(p, now, stuckAfterMin * 60_000, classAufgabe?.aufgabe ?? null),
    rank: 0,
  }));
  projectorOrder(rows).forEach((row, i) => (row.rank = i));
  const aufgaben = BOARD_PARTS.map((aufgabe, i) => ({
    aufgabe,
    checks: BOARD_CHECKS[aufgabe],
    rot: rows.filter((r) => r.cells[i]!.state === "rot").length,
    gruen: rows.filter((r) => r.cells[i]!.state === "gruen").length,
  }));
  const hands = state.raisedHands().map((h) => ({ name: h.name, question: h.question, waitingS: agoS(h.since) }));
  return {
    now: new Date(now).toISOString(),
    aufgaben,
    participants: rows,
    classAufgabe,
    hands,
    topFailing: topFailing(participants, now),
    stuckAfterMin,
  };
}
