// What a participant reads when something is set up: the practice-mode line, and errors as one short
// German paragraph (no English copy, no stack trace, no object dump) inside a notebook.
import { inspect } from "node:util";
import { loadConfig, PRACTICE_NOTICE, PROBE_NOTICE, SCRIPTED_MARK } from "../config.js";
import { currentCell, inNotebook } from "./output.js";

/** How notebook errors from set-up helpers begin (the notebook runner looks for it, too). */
export const NOTEBOOK_ERROR_MARK = "⛔";

let lastAnnounced: unknown;

/** The mode lines that apply now: rehearsal (WORKSHOP_PROBE=1) and practice (WORKSHOP_PRACTICE=1). */
function modeLines(): string[] {
  try {
    const config = loadConfig();
    return [
      ...(config.probeMode ? [`${SCRIPTED_MARK} ${PROBE_NOTICE}`] : []),
      ...(config.practiceMode ? [`🧪 ${PRACTICE_NOTICE}`] : []),
    ];
  } catch {
    return []; // an invalid setting is reported by the loader itself
  }
}

/**
 * Prints PROBE_NOTICE in rehearsal mode (WORKSHOP_PROBE=1, `npm run workshop -- --probe`) and
 * PRACTICE_NOTICE in practice mode (WORKSHOP_PRACTICE=1, `-- --uebung`), at most once per notebook cell
 * (or once per process outside notebooks).
 */
export function announcePracticeMode(log: (line: string) => void = (line) => console.log(line)): boolean {
  const lines = modeLines();
  if (lines.length === 0) return false;
  const cell = currentCell();
  if (cell !== undefined && cell === lastAnnounced) return false;
  lastAnnounced = cell ?? "process";
  for (const line of lines) log(line);
  return true;
}

/**
 * The German part of a kit error message: the first line and the indented lines after it (lib's
 * messages are German; an unindented later line is text appended from elsewhere, e.g. a library's
 * English message, and is left out). " / " is ordinary text ("CUDA / Vulkan"), not a language split.
 */
export function germanPart(message: string): string {
  const lines = message.split("\n");
  const german = [lines[0] ?? ""];
  for (const line of lines.slice(1)) {
    if (!/^\s/.test(line)) break;
    german.push(line);
  }
  return german.join("\n").trim();
}

/**
 * Inside a notebook: makes `error` print as one German paragraph when tslab shows it (tslab prints a
 * thrown error with console.error, i.e. util.inspect, which honours inspect.custom). The error keeps its
 * class, message and fields for scripts. Outside a notebook: unchanged.
 */
export function forParticipants<T>(error: T, hint?: string): T {
  if (!inNotebook() || !(error instanceof Error)) return error;
  const text = `${NOTEBOOK_ERROR_MARK} ${germanPart(error.message)}${hint ? `\n${hint}` : ""}`;
  Object.defineProperty(error, inspect.custom, { value: () => text, configurable: true });
  return error;
}
