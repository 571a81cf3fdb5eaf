// What a self-check run tells the class board (`npm run board`): the one record a participant's kernel
// sends, its limits, and which checks belong to which Aufgabe. The kernel (board-report.ts) and the board
// server (scripts/apps/board/) both read this file, so both sides agree on the shape. Imports nothing.

/** The Aufgaben the board has columns for. */
export type BoardPart = 1 | 2 | 3 | 4;
export const BOARD_PARTS: readonly BoardPart[] = [1, 2, 3, 4];

/**
 * The self-checks of each Aufgabe, by function name, in notebook order (the same as EXERCISE_CHECKS in
 * tasks.ts, which a test compares). The board only accepts these names; a check set that is not listed
 * (a test's own) is never reported.
 */
export const BOARD_CHECKS: Readonly<Record<BoardPart, readonly string[]>> = {
  1: ["buildMessages", "trimHistory", "refusalPrompt", "isRefusal"],
  2: ["chunkSentences", "hitAtK", "smallestK", "retrieveContext"],
  3: ["parseToolCall", "missingArguments", "coordinatesFromHistory", "rechenPrompt", "rechneAufruf"],
  4: ["resolveRefs", "referencedIds", "readyCalls", "streckenPlan"],
};

/** The Aufgabe a check belongs to, or undefined for a check the board does not know. */
export function partOfCheck(functionName: string): BoardPart | undefined {
  return BOARD_PARTS.find((part) => BOARD_CHECKS[part].includes(functionName));
}

/** Everything one self-check run sends — nothing else (no code, no output, no inputs). */
export interface BoardRecord {
  /** The name the participant chose (`--name`), 1–40 characters. */
  name: string;
  aufgabe: BoardPart;
  /** The checked function's name, e.g. "trimHistory". */
  check: string;
  /** ✅ and ❌ cases of this run. */
  passed: number;
  failed: number;
  /** Cases not tried yet (the skeleton still throws NotSolvedError): "offen", never ❌; left out when 0. */
  open?: number;
  /** When the run finished on the participant's laptop (ISO 8601); the board keeps its own clock too. */
  at: string;
}

export const BOARD_NAME_MAX = 40;
/** Largest case count one run may report (the biggest check set has 12 cases). */
export const BOARD_COUNT_MAX = 200;
/** Largest request body the board reads (a record is ~150 bytes). */
export const BOARD_BODY_LIMIT_BYTES = 1024;
/** The header that carries the join code. */
export const BOARD_CODE_HEADER = "x-kurs-code";
/** The header of a kernel started by the Klassenraum-Hub: its participant's board token (KURS_BOARD_TOKEN). */
export const BOARD_TOKEN_HEADER = "x-kurs-token";
/** The header of the hub's own join: the board's hub key (the file hub-schluessel beside the board's data). */
export const BOARD_HUB_HEADER = "x-kurs-hub";
/** Where the kernel posts records, relative to the board's URL. */
export const BOARD_POST_PATH = "/api/ergebnis";
/**
 * Where `npm run workshop` checks the join code at start; with the body {"name": …} it also puts the
 * participant on the board ("nicht begonnen") before their first result.
 */
export const BOARD_JOIN_PATH = "/api/pruefen";
/** Where `hilfe("…")` raises a participant's hand: the body {"name", "frage"} with the join code. */
export const BOARD_HELP_PATH = "/api/hilfe";
/** A question with a raised hand: at most this many characters (one line on the board). */
export const BOARD_QUESTION_MAX = 80;

/**
 * The board's German reason in a refusal (`{ "fehler": … }`), safe to print in a terminal or notebook:
 * control characters (escape sequences) become spaces, at most 200 characters; "" when there is none.
 */
export function boardRefusalText(body: unknown): string {
  const fehler = (body as { fehler?: unknown } | null | undefined)?.fehler;

  return typeof fehler === "string"
    ? fehler
        // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
        .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
        .trim()
        .slice(0, 200)
    : "";
}

/** Bidi controls (ALM, LRM, RLM, embeddings, overrides, isolates): they reorder what is shown around them. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/**
 * Characters that show nothing: Unicode's default-ignorable code points (zero-width space, word joiner,
 * Hangul fillers, variation selectors, …), other format characters, blank symbols (Braille blank, Mongolian
 * vowel separator), private-use, unassigned and surrogate code points, line and paragraph separators.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\u2800]/u;
/** More than two combining marks on one letter stack up over the rows around it. */
const MARK_STACK = /\p{M}{3}/u;

/** A name trimmed, NFC, without control characters and with every run of spaces as one space. */
function normalizedBoardName(raw: string): string {
  return (
    raw
      .normalize("NFC")
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, " ")
      .replace(/\s+/gu, " ")
      .trim()
  );
}

/** Why `raw` cannot be a name on the board (German, for the participant), or undefined when it can. */
export function boardNameProblem(raw: string): string | undefined {
  const name = normalizedBoardName(raw);
  if (BIDI_CONTROLS.test(name))
    return "Der Name enthält Steuerzeichen für die Schreibrichtung – bitte nur Buchstaben, Ziffern und Leerzeichen.";
  if (INVISIBLE.test(name))
    return "Der Name enthält unsichtbare Zeichen – bitte nur sichtbare Buchstaben, Ziffern und Leerzeichen.";
  if (MARK_STACK.test(name)) return "Der Name hat zu viele übereinandergestapelte Zeichen – bitte schlicht schreiben.";
  if (!/[\p{L}\p{N}]/u.test(name)) return "Der Name braucht mindestens einen Buchstaben oder eine Ziffer.";
  if ([...name].length > BOARD_NAME_MAX) return `Der Name darf höchstens ${BOARD_NAME_MAX} Zeichen lang sein.`;
  return undefined;
}

/**
 * A name as the board shows it: trimmed, NFC, no control characters, spaces collapsed; undefined when
 * boardNameProblem refuses it (empty, too long, invisible or bidi characters, no letter or digit).
 */
export function cleanBoardName(raw: string): string | undefined {
  return boardNameProblem(raw) === undefined ? normalizedBoardName(raw) : undefined;
}
