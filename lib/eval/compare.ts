// Several Modell-Check reports side by side (`eval:agent --vergleich`): rows per category, and one German
// sentence that recommends a model for the workshop with its reason. Pure; the page is display/eval-compare.ts.
import { germanNumber, percent } from "./format.js";
import type { EvalReport, GroupFigures } from "./report.js";
import { isSelfTest, runLabel } from "./run-meta.js";
import { CATEGORY_LABELS, TASK_CATEGORIES, type TaskCategory } from "./tasks.js";

export interface ComparedRun {
  label: string;
  /** The oracle's run: shown for reference, never recommended. */
  selfTest: boolean;
  report: EvalReport;
}

export interface ComparisonRow {
  label: string;
  /** One entry per run; undefined where a run has no task of this category. */
  cells: (GroupFigures | undefined)[];
}

/** A report as one run of a comparison: its label and whether it is the oracle's self-test. */
export const comparedRun = (report: EvalReport): ComparedRun => ({
  label: runLabel(report.meta),
  selfTest: isSelfTest(report.meta),
  report,
});

/** The categories any run has (in the report order), then "Gesamt". */
export function comparisonRows(runs: readonly ComparedRun[]): ComparisonRow[] {
  const present = TASK_CATEGORIES.filter((c) => runs.some((r) => r.report.categories.some((g) => g.category === c)));
  const cell = (run: ComparedRun, c: TaskCategory) => run.report.categories.find((g) => g.category === c);
  return [
    ...present.map((c) => ({ label: CATEGORY_LABELS[c], cells: runs.map((r) => cell(r, c)) })),
    { label: "Gesamt", cells: runs.map((r) => r.report.summary) },
  ];
}

/** True when the runs did not all solve the same tasks (their figures then compare less well). */
export function differentTasks(runs: readonly ComparedRun[]): boolean {
  const ids = runs.map((r) => r.report.tasks.map((t) => t.id).join(","));
  return new Set(ids).size > 1;
}

/** Within this many points of pass@1 two models count as equally good; the faster one wins. */
const EQUAL_MARGIN = 0.05;
/** Speed ratios within 10 % count as equally fast. */
const SAME_SPEED = 1.1;
/** Below this pass@1 no model is good enough for Teil 4 on its own. */
const WEAK = 0.5;
const WEAK_ADVICE = " Für Teil 4 den Klassen-Server erwägen (LLM_BACKEND=openai) oder ein größeres Modell prüfen.";
/** An about-as-good model at least this much faster is the better choice for a workshop. */
const CLEARLY_FASTER = 1.3;

/** "4,7 GB" from a model file's size; undefined when unknown. */
const gigabytes = (bytes: unknown) =>
  typeof bytes === "number" && bytes > 0 ? `${germanNumber(bytes / 1e9, 1)} GB` : undefined;

/**
 * How the recommended model compares in time and memory, in what the instructor plans with: seconds until
 * a Teil 4 answer on the run's machine (one task's attempt) and the memory the model file takes.
 */
function speedText(best: EvalReport, other: EvalReport, joiner: { slower: string; faster: string }): string {
  const [seconds, otherSeconds] = [best.summary.secondsPerTask, other.summary.secondsPerTask];
  if (!(seconds > 0 && otherSeconds > 0)) return "";
  const ratio = seconds / otherSeconds;
  const shown = (s: number) => germanNumber(s, s < 10 ? 1 : 0);
  const both = `${shown(seconds)} statt ${shown(otherSeconds)} Sekunden je Antwort in Teil 4 (auf dem Rechner des Laufs)`;
  const [memory, otherMemory] = [gigabytes(best.meta.modelBytes), gigabytes(other.meta.modelBytes)];
  const memoryText = memory && otherMemory ? `; Speicher für das Modell: ${memory} statt ${otherMemory}` : "";
  if (shown(seconds) === shown(otherSeconds))
    return `, etwa gleich schnell (${shown(seconds)} Sekunden je Antwort in Teil 4${memoryText})`;
  if (ratio >= SAME_SPEED) return `${joiner.slower} langsamer: ${both}${memoryText}`;
  if (ratio <= 1 / SAME_SPEED) return `${joiner.faster} schneller: ${both}${memoryText}`;
  return `, etwa gleich schnell (${both}${memoryText})`;
}

/** The category where `best` leads `other` most (pass@1), if it leads anywhere. */
function biggestLead(best: EvalReport, other: EvalReport): { label: string; best: number; other: number } | undefined {
  let lead: { label: string; best: number; other: number } | undefined;
  for (const g of best.categories) {
    const o = other.categories.find((c) => c.category === g.category);
    if (o && g.passAt1 > o.passAt1 && (!lead || g.passAt1 - o.passAt1 > lead.best - lead.other))
      lead = { label: g.label, best: g.passAt1, other: o.passAt1 };
  }
  return lead;
}

/** One German sentence: which model to bring to the workshop, and why. `index` is the recommended run. */
export function recommendation(runs: readonly ComparedRun[]): { text: string; index?: number } {
  const models = runs.map((run, index) => ({ run, index })).filter((m) => !m.run.selfTest);
  const selfTestNote = runs.some((r) => r.selfTest)
    ? " Der Selbsttest des Prüfstands ist kein Modell und zählt nicht."
    : "";
  if (models.length === 0)
    return {
      text: "Keine Empfehlung: im Vergleich ist nur der Selbsttest des Prüfstands – er prüft die Prüfungen, kein Modell.",
    };
  const figures = (m: (typeof models)[number]) => m.run.report.summary;
  if (models.length === 1) {
    const only = models[0]!;
    const s = figures(only);
    if (s.passAt1 < WEAK)
      return {
        text: `Keine Empfehlung: ${only.run.label}, das einzige Modell im Vergleich, besteht nur ${percent(s.passAt1)}.${WEAK_ADVICE}${selfTestNote}`,
      };
    const memory = gigabytes(only.run.report.meta.modelBytes);
    return {
      index: only.index,
      text: `Empfehlung: ${only.run.label} – das einzige Modell im Vergleich (${percent(s.passAt1)} bestanden, ${germanNumber(s.secondsPerTask, 1)} Sekunden je Aufgabe${memory ? `, ${memory} Speicher` : ""}).${selfTestNote}`,
    };
  }
  const top = Math.max(...models.map((m) => figures(m).passAt1));
  if (top < WEAK) {
    const label = models.find((m) => figures(m).passAt1 === top)!.run.label;
    return {
      text: `Keine Empfehlung: auch das beste Modell im Vergleich, ${label}, besteht nur ${percent(top)}.${WEAK_ADVICE}${selfTestNote}`,
    };
  }
  const ranked = [...models].sort(
    (a, b) => figures(b).passAt1 - figures(a).passAt1 || figures(a).secondsPerTask - figures(b).secondsPerTask,
  );
  let [best, second] = [ranked[0]!, ranked[1]!];
  const fasterBy = (a: GroupFigures, b: GroupFigures) =>
    a.secondsPerTask > 0 ? b.secondsPerTask / a.secondsPerTask : 1;
  // Nearly as good and clearly faster: the faster one serves a workshop better.
  if (
    figures(best).passAt1 - figures(second).passAt1 < EQUAL_MARGIN &&
    fasterBy(figures(second), figures(best)) >= CLEARLY_FASTER
  )
    [best, second] = [second, best];
  const [b, s] = [figures(best), figures(second)];
  let text: string;
  if (Math.abs(b.passAt1 - s.passAt1) < EQUAL_MARGIN) {
    const same = percent(b.passAt1) === percent(s.passAt1);
    const how = same
      ? `so gut wie ${second.run.label} (beide ${percent(b.passAt1)} bestanden)`
      : `fast so gut wie ${second.run.label} (${percent(b.passAt1)} statt ${percent(s.passAt1)} bestanden)`;
    text = `Empfehlung für den Workshop: ${best.run.label} – ${how}${speedText(best.run.report, second.run.report, { slower: ", aber", faster: same ? " und" : ", aber" })}.`;
  } else {
    const lead = biggestLead(best.run.report, second.run.report);
    const reason = lead
      ? `${percent(lead.best)} statt ${percent(lead.other)} bei „${lead.label}“, gesamt ${percent(b.passAt1)} statt ${percent(s.passAt1)}`
      : `${percent(b.passAt1)} statt ${percent(s.passAt1)} bestanden`;
    text = `Empfehlung für den Workshop: ${best.run.label} – ${reason} gegenüber ${second.run.label}${speedText(best.run.report, second.run.report, { slower: ", aber", faster: " und" })}.`;
  }
  return { index: best.index, text: text + selfTestNote };
}
