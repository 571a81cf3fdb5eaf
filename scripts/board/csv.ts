// The instructor's export: one line per participant and check, for Excel/LibreOffice (semicolons, UTF-8
// with BOM). Names come from participants, so a cell that a spreadsheet would read as a formula
// (= + - @, tab, CR) gets a leading apostrophe, and every cell is quoted.
import type { BoardData } from "./state.js";

const HEADER = ["Name", "Aufgabe", "Selbsttest", "Fälle bestanden", "Fälle fehlgeschlagen", "Läufe", "Zuletzt"];

/** One CSV cell: formula-safe and quoted. */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function boardCsv(data: BoardData): string {
  const lines = [HEADER.map(csvCell).join(";")];
  const people = [...data.participants].sort((a, b) => a.name.localeCompare(b.name, "de"));
  for (const p of people) {
    const runs = [...p.checks].sort((a, b) => a.aufgabe - b.aufgabe || a.check.localeCompare(b.check));
    for (const c of runs) {
      lines.push([p.name, c.aufgabe, c.check, c.passed, c.failed, c.runs, new Date(c.at).toISOString()].map(csvCell).join(";"));
    }
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
