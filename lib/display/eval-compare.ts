// The Modell-Check comparison page (`eval:agent --vergleich A.json B.json …`): one recommendation
// sentence, the models side by side per category (pass@1, pass^k, s/Versuch), each run's settings, legend.
import { comparisonRows, differentTasks, recommendation, type ComparedRun } from "../eval/compare.js";
import { germanNumber, percent } from "../eval/format.js";
import type { GroupFigures } from "../eval/report.js";
import { COLUMN_NAMES } from "../eval/report.js";
import {
  columnLegend,
  evalPage,
  legendHtml,
  SELF_TEST_NOTE,
  settingsHtml,
  settingsLines,
  smallRunHtml,
} from "./eval.js";
import { escapeHtml } from "./html.js";

const CELL = "border:1px solid #d0d7de;padding:4px 8px";
const FIGURES = 3;

function headerRows(runs: readonly ComparedRun[], recommended: number | undefined): string {
  const names = runs
    .map((r, i) => {
      const style = r.selfTest
        ? "color:#57606a;font-style:italic;font-weight:normal"
        : i === recommended
          ? "background:#dafbe1"
          : "";
      const mark = i === recommended ? " ★ Empfehlung" : "";
      return `<th colspan="${FIGURES}" style="${CELL};text-align:center;${style}">${escapeHtml(r.label + mark)}</th>`;
    })
    .join("");
  const sub = runs
    .map(() =>
      [COLUMN_NAMES.passAt1, COLUMN_NAMES.passK, COLUMN_NAMES.seconds]
        .map((t) => `<th style="${CELL};text-align:right">${escapeHtml(t)}</th>`)
        .join(""),
    )
    .join("");
  return `<tr><th rowspan="2" style="${CELL};text-align:left">Kategorie</th>${names}</tr><tr>${sub}</tr>`;
}

/** A run's three figures; the self-test's in grey (a reference, not a contestant). */
function figureCells(g: GroupFigures | undefined, leads: boolean, selfTest: boolean): string {
  if (!g) return `<td style="${CELL};text-align:center;color:#57606a" colspan="${FIGURES}">nicht gelaufen</td>`;
  const tone = selfTest ? ";color:#57606a" : "";
  const first = leads ? ";font-weight:bold;background:#dafbe1" : "";
  return [
    `<td style="${CELL};text-align:right${tone}${first}">${percent(g.passAt1)}</td>`,
    `<td style="${CELL};text-align:right${tone}">${percent(g.passK)}</td>`,
    `<td style="${CELL};text-align:right${tone}">${germanNumber(g.secondsPerTask, 1)}</td>`,
  ].join("");
}

/** The models' k (the self-test's own k does not count), or "k" where they differ. */
const sharedK = (runs: readonly ComparedRun[]): number | string => {
  const models = runs.filter((r) => !r.selfTest);
  const ks = new Set((models.length > 0 ? models : runs).map((r) => r.report.summary.k));
  return ks.size === 1 ? [...ks][0]! : "k";
};

/** The side-by-side table; with two models or more, each row's best pass@1 is marked (the self-test never). */
export function comparisonTableHtml(runs: readonly ComparedRun[], recommended?: number): string {
  const models = runs.filter((r) => !r.selfTest).length;
  const rows = comparisonRows(runs).map((row, index, all) => {
    const best = models < 2 ? -1 : Math.max(...row.cells.map((c, i) => (c && !runs[i]!.selfTest ? c.passAt1 : -1)));
    const cells = row.cells
      .map((c, i) =>
        figureCells(c, !runs[i]!.selfTest && c !== undefined && c.passAt1 === best && best > 0, runs[i]!.selfTest),
      )
      .join("");
    const bold = index === all.length - 1 ? ' style="font-weight:bold"' : "";
    return `<tr${bold}><td style="${CELL}">${escapeHtml(row.label)}</td>${cells}</tr>`;
  });
  return `<table class="kit-eval-compare" style="border-collapse:collapse;width:100%"><thead>${headerRows(runs, recommended)}</thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

/** Notes where the runs compare less well: other tasks, other machines. */
function cautionNotes(runs: readonly ComparedRun[]): string[] {
  const notes: string[] = [];
  if (differentTasks(runs))
    notes.push("Die Läufe haben nicht dieselben Aufgaben gelöst: die Zahlen sind nur ungefähr vergleichbar.");
  if (sharedK(runs) === "k")
    notes.push(
      `Die Modelle hatten verschieden viele Versuche je Aufgabe (k): „${COLUMN_NAMES.passK}“ ist nur bei gleichem k vergleichbar.`,
    );
  const styles = new Set(runs.filter((r) => !r.selfTest).map((r) => r.report.meta.style));
  if (styles.size > 1)
    notes.push(
      "Die Modelle liefen in verschiedenen Stilen ($ref-Plan, Halb-Agent, natives Tool-Calling): die Zahlen vergleichen auch die Stile, nicht nur die Modelle.",
    );
  const machines = new Set(runs.filter((r) => !r.selfTest).map((r) => JSON.stringify(r.report.meta.machine ?? null)));
  if (machines.size > 1)
    notes.push("Die Modelle liefen auf verschiedenen Rechnern: die Zeiten vergleichen auch die Rechner.");
  if (runs.some((r) => !r.report.meta.complete))
    notes.push("Mindestens ein Lauf wurde abgebrochen: gezählt sind nur seine fertigen Aufgaben.");
  return notes.map((n) => `<p class="kit-eval-note kit-eval-warning">${escapeHtml(n)}</p>`);
}

/** The whole comparison page. */
export function evalComparePage(runs: readonly ComparedRun[]): string {
  const advice = recommendation(runs);
  const details = runs.map(
    (r) =>
      `<h3>${escapeHtml(r.label)}</h3>${settingsHtml(settingsLines(r.report.meta, r.report.summary.k, r.report.summary.tasks))}`,
  );
  const body = [
    `<p class="kit-eval-note kit-eval-recommendation${advice.index === undefined ? " kit-eval-no-pick" : ""}">${escapeHtml(advice.text)}</p>`,
    smallRunHtml(runs),
    ...cautionNotes(runs),
    comparisonTableHtml(runs, advice.index),
    runs.some((r) => r.selfTest) ? SELF_TEST_NOTE : "",
    legendHtml(
      columnLegend(sharedK(runs)).filter(([term]) => term.startsWith("klappt") || term === COLUMN_NAMES.seconds),
    ),
    `<h2>Die Läufe</h2>`,
    ...details,
  ];
  return evalPage("Modell-Check: Vergleich", body.filter(Boolean).join("\n"));
}
