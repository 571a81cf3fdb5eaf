// The Modell-Check report as HTML, in the notebooks' table style: the table per category and overall, a
// legend for every column, the run's settings in German, and the failed runs with question and reason.
// A whole page for `eval:agent`, or one table for a notebook; the comparison page is eval-compare.ts.
import { germanDate, germanDateTime, germanNumber, percent } from "../eval/format.js";
import { COLUMN_NAMES, reportTable, type EvalReport, type RunMeta } from "../eval/report.js";
import { isSelfTest, runLabel, SELF_TEST_LABEL } from "../eval/run-meta.js";
import { DECISION_MIN_TASKS, tasksToDecide, wilsonInterval } from "../eval/stats.js";
import { escapeHtml, htmlTable, shortCell } from "./html.js";

/** Above the table when a scripted planner ran the check (rehearsal mode): why it shows what it shows. */
export const SCRIPTED_CHECK_NOTE =
  "🎭 Vorgespielt: Das Drehbuch kennt diese Aufgaben und spielt ihre Musterpläne – die Tabelle zeigt, dass Aufgaben, Prüfer und Werkzeuge arbeiten, nicht wie zuverlässig ein Modell ist.";

/** The table per category and overall (the last row, "Gesamt", in bold); a scripted planner's run says so above it. */
export function evalTableHtml(report: EvalReport): string {
  const { head, rows } = reportTable(report);
  const columns = head.map((title, i) => ({
    title,
    align: i === 0 ? ("left" as const) : ("right" as const),
    ...(i === 0 ? { width: "22%" } : {}),
  }));
  const note =
    report.meta.backend === "scripted" ? `<p class="kit-eval-note">${escapeHtml(SCRIPTED_CHECK_NOTE)}</p>\n` : "";
  return (
    note +
    htmlTable(
      columns,
      rows.map((r) => r.map(escapeHtml)),
      {
        className: "kit-eval-table",
        rowStyle: (i) => (i === rows.length - 1 ? "font-weight:bold" : undefined),
      },
    )
  );
}

/** "bei denen alle 3 Versuche bestanden wurden", "bei denen der eine Versuch bestanden wurde". */
const allRunsPassed = (k: number | string) =>
  k === 1 ? "der eine Versuch bestanden wurde" : `alle ${k} Versuche bestanden wurden`;

/** What each column means, in the table's order (`k`: runs per task, or "k" where runs differ). */
export function columnLegend(k: number | string): [string, string][] {
  return [
    ["Aufgaben", `wie viele Aufgaben dieser Art liefen; jede lief ${k === 1 ? "einmal" : `${k}-mal`}.`],
    [
      `${COLUMN_NAMES.passAt1} (pass@1)`,
      "Anteil der bestandenen Versuche: die Chance, dass eine solche Frage im Workshop gleich beim ersten Mal klappt.",
    ],
    [
      `${COLUMN_NAMES.passK} (pass^${k})`,
      `Anteil der Aufgaben, bei denen ${allRunsPassed(k)}: wie verlässlich das Modell ist (nie höher als „${COLUMN_NAMES.passAt1}“).`,
    ],
    [
      "Pläne gültig",
      "Anteil der Modellantworten, die ein ausführbarer $ref-Plan waren („–“: in diesem Stil gibt es keine Pläne).",
    ],
    ["repariert", "ungültige Pläne, die das Modell nach der Fehlermeldung in der nächsten Runde richtigstellte."],
    [
      "ohne Werkzeug",
      "Anteil der Versuche, in denen das Modell ohne Werkzeug antwortete (richtig nur bei „Kein Werkzeug passt“).",
    ],
    ["Runden", "Modellaufrufe je Versuch im Mittel."],
    ["Prompt-Tokens", "gelesene Prompt-Tokens je Versuch im Mittel: so viel Text muss das Modell jedes Mal lesen."],
    [
      COLUMN_NAMES.seconds,
      "Sekunden für einen Versuch einer Aufgabe im Mittel, auf dem Rechner dieses Laufs: so lange wartet man in Teil 4 etwa auf eine Antwort.",
    ],
  ];
}

export function legendHtml(entries: readonly [string, string][]): string {
  const items = entries.map(([term, text]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(text)}</dd>`).join("");
  return `<h2>Was die Spalten bedeuten</h2><dl class="kit-eval-legend">${items}</dl>`;
}

const STYLE_LABELS: Record<string, string> = {
  plan: "$ref-Plan",
  half: "Halb-Agent (ein Werkzeug je Runde)",
  native: "natives Tool-Calling",
};
const ABLATION_LABELS: Record<string, string> = {
  feedback: "ohne Fehlerrückmeldung",
  grammar: "ohne Grammatik (Plan als Text)",
  vote: "Abstimmung über 3 Läufe",
};

/** The run's settings as German lines: model, machine, date, settings, tasks. */
export function settingsLines(meta: RunMeta, k: number, tasks: number): [string, string][] {
  const lines: [string, string][] = [];
  if (isSelfTest(meta))
    lines.push(["Modell", `${SELF_TEST_LABEL} (ein geskripteter Planer mit dem richtigen Plan jeder Aufgabe)`]);
  else if (meta.backend === "openai-compatible") lines.push(["Modell", `${runLabel(meta)} über den Klassen-Server`]);
  else lines.push(["Modell", meta.model ? `${runLabel(meta)} – Datei ${meta.model}` : runLabel(meta)]);
  const m = meta.machine;
  if (m)
    lines.push([
      "Rechner",
      `${m.cpu}, ${m.cores} Kerne, ${germanNumber(m.memoryGiB)} GiB Arbeitsspeicher, ${m.os}${m.accelerator ? `; gerechnet auf: ${m.accelerator}` : ""}`,
    ]);
  if (meta.startedAt) lines.push(["Datum", germanDateTime(meta.startedAt)]);
  const settings = [
    `Stil ${STYLE_LABELS[meta.style] ?? meta.style}`,
    `${k} ${k === 1 ? "Versuch" : "Versuche"} je Aufgabe`,
    ...(meta.ablation ? [`Ablation: ${ABLATION_LABELS[meta.ablation] ?? meta.ablation}`] : []),
    ...(meta.seed !== undefined ? [`Startwert (Seed) ${meta.seed}`] : []),
    ...(meta.maxRounds !== undefined ? [`höchstens ${meta.maxRounds} Runden`] : []),
  ];
  lines.push(["Einstellungen", settings.join(", ")]);
  lines.push([
    "Aufgaben",
    `${meta.selection ?? `${tasks} Aufgaben`}${meta.tasksFile ? `, Datei ${meta.tasksFile}` : ""}${meta.today ? ` (Stichtag ${germanDate(meta.today)})` : ""}`,
  ]);
  if (!meta.complete) lines.push(["Stand", "abgebrochen – nur die fertigen Aufgaben sind gezählt"]);
  return lines;
}

export function settingsHtml(lines: readonly [string, string][]): string {
  return `<dl class="kit-eval-settings">${lines.map(([t, d]) => `<dt>${escapeHtml(t)}</dt><dd>${escapeHtml(d)}</dd>`).join("")}</dl>`;
}

/** The failed runs: the question (task id below it), seed ("Startwert"), reasons, answer. */
export function evalFailuresHtml(report: EvalReport): string {
  const rows = report.tasks.flatMap((t) =>
    t.failures.map((f) => [
      `${escapeHtml(t.question ?? t.id)}<br><small style="color:#57606a">${escapeHtml(t.id)}</small>`,
      String(f.seed),
      shortCell(f.reasons.join(" "), 240),
      f.answer.trim() === "" ? "<i>(keine Antwort)</i>" : shortCell(f.answer, 160),
    ]),
  );
  if (rows.length === 0) return "<p>Alle Versuche bestanden.</p>";
  const columns = [
    { title: "Frage", width: "30%" },
    { title: "Startwert", align: "right" as const, width: "8%" },
    { title: "Grund", width: "36%" },
    { title: "Antwort", width: "26%" },
  ];
  return htmlTable(columns, rows, { className: "kit-eval-failures" });
}

const PAGE_STYLE = [
  "body{font-family:system-ui,sans-serif;font-size:17px;line-height:1.4;max-width:1400px;margin:1em auto;padding:0 1em;color:#1f2328}",
  "h1{font-size:1.7em;margin:.3em 0}h2{font-size:1.25em;margin:1.2em 0 .4em}",
  "dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em;margin:.5em 0}dt{font-weight:600}dd{margin:0}",
  ".kit-eval-note{padding:.6em .9em;border-radius:6px;margin:.8em 0}",
  ".kit-eval-selftest{background:#fff8c5;border:1px solid #d4a72c}",
  ".kit-eval-recommendation{background:#dafbe1;border:1px solid #1a7f37;font-size:1.15em}",
  ".kit-eval-recommendation.kit-eval-no-pick{background:#fff8c5;border-color:#d4a72c}",
  ".kit-eval-warning{background:#ffebe9;border:1px solid #cf222e}",
  ".kit-eval-result{background:#ddf4ff;border:1px solid #54aeff;font-size:1.15em}",
  // The notebook tables are 12 px; on a page of their own they read at the page's size.
  "table.kit-eval-table,table.kit-eval-failures{font-size:16px !important}",
  ".kit-eval-failures td{font-size:15px}",
].join("\n");

/** A whole page around `body`. */
export function evalPage(title: string, body: string): string {
  return [
    `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`,
    `<title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    body,
    `</body></html>`,
  ].join("\n");
}

/**
 * For runs of 1–9 tasks: too few to decide on — each model's 95 % interval of "klappt beim ersten Versuch"
 * (Wilson, over tasks) and how many tasks a decision takes; "" for larger runs and the self-test.
 */
export function smallRunNote(runs: readonly { label: string; selfTest: boolean; report: EvalReport }[]): string {
  const models = runs.filter((r) => !r.selfTest);
  const fewest = Math.min(...models.map((r) => r.report.summary.tasks));
  if (models.length === 0 || fewest >= DECISION_MIN_TASKS) return "";
  const ranges = models.map((r) => {
    const { passAt1, tasks } = r.report.summary;
    const i = wilsonInterval(passAt1 * tasks, tasks);
    return `${r.label}: zwischen ${percent(i.low)} und ${percent(i.high)}`;
  });
  const rates = models.map((r) => r.report.summary.passAt1).sort((a, b) => b - a);
  const needed = tasksToDecide(rates[0]!, rates[1]);
  const decision =
    needed === undefined
      ? "Die Modelle liegen so nah beieinander, dass auch alle Aufgaben des Satzes sie kaum trennen – dann entscheidet die Geschwindigkeit."
      : `Für eine Entscheidung braucht es etwa ${Math.max(needed, DECISION_MIN_TASKS)} Aufgaben – npm run eval:agent ohne Einschränkung nimmt alle.`;
  return (
    `Nur ${fewest} ${fewest === 1 ? "Aufgabe" : "Aufgaben"} – zu wenig für eine Entscheidung. Mit 95 % Sicherheit liegt „${COLUMN_NAMES.passAt1}“ ` +
    `bei ${ranges.join("; ")}. ${decision}`
  );
}

export function smallRunHtml(runs: Parameters<typeof smallRunNote>[0]): string {
  const note = smallRunNote(runs);
  return note ? `<p class="kit-eval-note kit-eval-warning kit-eval-small">${escapeHtml(note)}</p>` : "";
}

export const SELF_TEST_NOTE =
  `<p class="kit-eval-note kit-eval-selftest"><b>${escapeHtml(SELF_TEST_LABEL)}.</b> Ein geskripteter Planer schickt den richtigen Plan ` +
  "jeder Aufgabe: so zeigt der Lauf, dass die Prüfungen richtiges Verhalten annehmen. Seine 100 % sagen nichts über ein Modell.</p>";

/** The result in one German sentence: rates overall, the weakest category, speed; for the self-test, whether the bench holds. */
export function resultSentence(report: EvalReport): string {
  const s = report.summary;
  if (isSelfTest(report.meta)) {
    return s.passAt1 === 1
      ? "Ergebnis: der Prüfstand ist in Ordnung – der richtige Plan besteht jede Aufgabe."
      : `Achtung: auch der richtige Plan besteht nur ${percent(s.passAt1)} – die Prüfungen oder die Aufgabendatei haben einen Fehler (siehe unten).`;
  }
  const weakest = [...report.categories].sort((a, b) => a.passAt1 - b.passAt1)[0];
  const weak =
    weakest && report.categories.length > 1 && weakest.passAt1 < s.passAt1
      ? ` Am schwächsten bei „${weakest.label}“ (${percent(weakest.passAt1)}).`
      : "";
  const every = s.k === 1 ? "klappte der eine Versuch" : `klappten alle ${s.k} Versuche`;
  return `Ergebnis: ${percent(s.passAt1)} der Versuche bestanden (pass@1); bei ${percent(s.passK)} der Aufgaben ${every} (pass^${s.k}); ${germanNumber(s.secondsPerTask, 1)} Sekunden je Aufgabe.${weak}`;
}

/** A whole HTML page: model and settings, the result, the table, the legend, the failed runs. */
export function evalReportPage(report: EvalReport): string {
  const k = report.summary.k;
  const passedAll = report.summary.passAt1 === 1;
  const body = [
    isSelfTest(report.meta) ? SELF_TEST_NOTE : "",
    `<p class="kit-eval-note ${passedAll || !isSelfTest(report.meta) ? "kit-eval-result" : "kit-eval-warning"}">${escapeHtml(resultSentence(report))}</p>`,
    isSelfTest(report.meta) ? "" : smallRunHtml([{ label: runLabel(report.meta), selfTest: false, report }]),
    settingsHtml(settingsLines(report.meta, k, report.summary.tasks)),
    evalTableHtml(report),
    legendHtml(columnLegend(k)),
    `<h2>Nicht bestandene Versuche</h2>`,
    evalFailuresHtml(report),
  ];
  return evalPage(`Modell-Check: ${runLabel(report.meta)}`, body.filter(Boolean).join("\n"));
}
