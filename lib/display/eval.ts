// The Modell-Check report as HTML, in the notebooks' table style: the table per category and overall,
// and the failed runs with their reasons. A whole page for `eval:agent`, or one table for a notebook.
import { reportTable, type EvalReport } from "../eval/report.js";
import { escapeHtml, htmlTable, shortCell } from "./html.js";

/** Above the table when a scripted planner ran the check (rehearsal mode): why it shows what it shows. */
export const SCRIPTED_CHECK_NOTE =
  "🎭 Vorgespielt: Das Drehbuch kennt diese Aufgaben und spielt ihre Musterpläne – die Tabelle zeigt, dass Aufgaben, Prüfer und Werkzeuge arbeiten, nicht wie zuverlässig ein Modell ist.";

/** The table per category and overall (the last row, "Gesamt", in bold); a scripted planner's run says so above it. */
export function evalTableHtml(report: EvalReport): string {
  const { head, rows } = reportTable(report);
  const columns = head.map((title, i) => ({ title, align: i === 0 ? ("left" as const) : ("right" as const), ...(i === 0 ? { width: "22%" } : {}) }));
  const note = report.meta.backend === "scripted" ? `<p class="kit-eval-note">${escapeHtml(SCRIPTED_CHECK_NOTE)}</p>\n` : "";
  return note + htmlTable(columns, rows.map((r) => r.map(escapeHtml)), {
    className: "kit-eval-table",
    rowStyle: (i) => (i === rows.length - 1 ? "font-weight:bold" : undefined),
  });
}

/** The failed runs: task, seed, reasons, answer. */
export function evalFailuresHtml(report: EvalReport): string {
  const rows = report.tasks.flatMap((t) => t.failures.map((f) => [escapeHtml(t.id), String(f.seed), shortCell(f.reasons.join(" "), 200), shortCell(f.answer, 120)]));
  if (rows.length === 0) return "<p>Alle Läufe bestanden.</p>";
  const columns = [{ title: "Aufgabe", width: "16%" }, { title: "Seed", align: "right" as const, width: "7%" }, { title: "Gründe", width: "47%" }, { title: "Antwort", width: "30%" }];
  return htmlTable(columns, rows, { className: "kit-eval-failures" });
}

/** A whole HTML page: title, settings, the table, the failed runs. */
export function evalReportPage(report: EvalReport, title = "Modell-Check"): string {
  const settings = Object.entries(report.meta)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${escapeHtml(k)}: ${escapeHtml(String(v))}`)
    .join(" · ");
  return [
    `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    `<body style="font-family:system-ui,sans-serif;max-width:1200px;margin:1em auto">`,
    `<h1>${escapeHtml(title)}</h1><p>${settings}</p>`,
    evalTableHtml(report),
    `<h2>Fehlgeschlagene Läufe</h2>`,
    evalFailuresHtml(report),
    `</body></html>`,
  ].join("\n");
}
