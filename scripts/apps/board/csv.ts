// The instructor's export: one line per participant and check, for Excel/LibreOffice (semicolons, UTF-8
// with BOM, "Zuletzt" in the board machine's local time). Names come from participants, so a cell that a spreadsheet would read as a formula
// (= + - @, tab, CR, LF — also behind invisible characters or spaces, and as full-width ＝＋－＠ or other
// compatibility forms) gets a leading apostrophe, and every cell is quoted.
import type { BoardData } from "./state.js";

const HEADER = [
  "Name",
  "Aufgabe",
  "Selbsttest",
  "Fälle bestanden",
  "Fälle fehlgeschlagen",
  "Fälle offen",
  "Läufe",
  "Zuletzt",
];

/** "28.11.2026 17:42:05": the board machine's local time, as a German spreadsheet reads it. */
export function localTime(ms: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat("de-DE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(ms));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("day")}.${part("month")}.${part("year")} ${part("hour")}:${part("minute")}:${part("second")}`;
}

/** What a spreadsheet may skip before a formula's first character: invisible characters and spaces. */
const SKIPPED = /^[\p{Default_Ignorable_Code_Point}\p{Cf}\p{White_Space}]+/u;
/** Characters that start a formula (NFKC folds full-width and small forms to these; U+2212 is a minus). */
const FORMULA_START = /^[=+\-@\u2212]/;

/** True when a spreadsheet could read `text` as a formula. */
function formulaLike(text: string): boolean {
  return /^[\t\r\n]/.test(text) || FORMULA_START.test(text.normalize("NFKC").replace(SKIPPED, ""));
}

/** One CSV cell: formula-safe and quoted. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (formulaLike(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function boardCsv(data: BoardData): string {
  const lines = [HEADER.map(csvCell).join(";")];
  const people = [...data.participants].sort((a, b) => a.name.localeCompare(b.name, "de"));
  for (const p of people) {
    const runs = [...p.checks].sort((a, b) => a.aufgabe - b.aufgabe || a.check.localeCompare(b.check));
    for (const c of runs) {
      lines.push(
        [p.name, c.aufgabe, c.check, c.passed, c.failed, c.open ?? 0, c.runs, localTime(c.at)].map(csvCell).join(";"),
      );
    }
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
