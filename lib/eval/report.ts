// The evaluation report: per task (passes of k runs, pass@1, pass^k, rounds, tokens, time), per category
// and overall — the JSON written by `--json`, and the terminal table. Pure; the HTML is display/eval.ts.
import type { CheckResult, EvalRun } from "./checks.js";
import { germanNumber, percent } from "./format.js";
import { mean, passAt1, passHatK } from "./stats.js";
import { CATEGORY_LABELS, TASK_CATEGORIES, type TaskCategory } from "./tasks.js";

export type EvalStyle = "plan" | "half" | "native";
export type Ablation = "feedback" | "grammar" | "vote";

/** One run of a task: its seed, the check's verdict and the run. */
export interface RunRecord {
  seed: number;
  check: CheckResult;
  run: EvalRun;
}

export interface TaskReport {
  id: string;
  category: TaskCategory;
  /** The task's question (shown beside its failures). */
  question?: string;
  runs: RunRecord[];
}

/** The figures of a group of tasks (rates 0–1). */
export interface GroupFigures {
  tasks: number;
  passAt1: number;
  passK: number;
  /** Valid plans / planning replies (null without plans: the half-agent and native styles). */
  planValidity: number | null;
  /** Invalid-plan rounds a later valid plan repaired. */
  repairedRounds: number;
  /** Share of runs answered without any tool call. */
  refusals: number;
  meanRounds: number;
  promptTokens: number;
  /** Mean seconds of one run of a task. */
  secondsPerTask: number;
}

export interface TaskRow {
  id: string;
  category: TaskCategory;
  question?: string;
  passes: number;
  runs: number;
  passAt1: number;
  passK: number;
  meanRounds: number;
  promptTokens: number;
  seconds: number;
  validPlans: number;
  planReplies: number;
  repairedRounds: number;
  refusals: number;
  /** Reasons of every failed run (German), with its seed. */
  failures: { seed: number; reasons: string[]; answer: string }[];
}

/** The machine a run was made on. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  /** Where the model computed: "CUDA", "Metal", "CPU" …, or the class server ("Klassen-Server http://…"). */
  accelerator?: string;
}

/** The table's column names for people who are not specialists (the legend gives pass@1 / pass^k). */
export const COLUMN_NAMES = {
  passAt1: "klappt beim ersten Versuch",
  passK: "klappt bei jedem Versuch",
  seconds: "Sekunden je Aufgabe",
} as const;

/** How and where a run was made; all but the first three are optional (older reports lack them). */
export interface RunMeta {
  style: EvalStyle;
  ablation?: Ablation;
  complete: boolean;
  /** "oracle", "node-llama-cpp", "openai-compatible" (older reports: the backend and the model path). */
  backend?: string;
  /** The oracle's run: a check of the checkers, no model. */
  selfTest?: boolean;
  /** The model file (relative to the kit when inside it) or the class server's model name. */
  model?: string;
  /** The model file's size in bytes: about the memory the model needs (missing for a class server, older reports). */
  modelBytes?: number;
  machine?: MachineInfo;
  /** When the run started (ISO 8601). */
  startedAt?: string;
  /** Which tasks were taken, in German (e.g. "je 2 Aufgaben aus jeder der 9 Kategorien"). */
  selection?: string;
  seed?: number;
  maxRounds?: number;
  tasksFile?: string;
  today?: string;
  [key: string]: unknown;
}

export interface EvalReportJson {
  summary: GroupFigures & { categories: TaskCategory[]; k: number };
  categories: (GroupFigures & { category: TaskCategory; label: string })[];
  tasks: TaskRow[];
  meta: RunMeta;
}
export type EvalReport = EvalReportJson;

function taskRow(t: TaskReport, k: number): TaskRow {
  const runs = t.runs.length;
  const passes = t.runs.filter((r) => r.check.pass).length;
  const sum = (f: (r: RunRecord) => number) => t.runs.reduce((n, r) => n + f(r), 0);
  return {
    id: t.id,
    category: t.category,
    ...(t.question !== undefined ? { question: t.question } : {}),
    passes,
    runs,
    passAt1: passAt1(passes, runs),
    passK: passHatK(passes, runs, k),
    meanRounds: runs ? sum((r) => r.run.rounds) / runs : 0,
    promptTokens: runs ? sum((r) => r.run.promptTokens) / runs : 0,
    seconds: runs ? sum((r) => r.run.ms) / runs / 1000 : 0,
    validPlans: sum((r) => r.run.validPlans),
    planReplies: sum((r) => r.run.planReplies),
    repairedRounds: sum((r) => r.run.repairedRounds),
    refusals: t.runs.filter((r) => r.check.refused).length,
    failures: t.runs
      .filter((r) => !r.check.pass)
      .map((r) => ({ seed: r.seed, reasons: r.check.failures, answer: r.run.answer })),
  };
}

/** The figures of some task rows; recomputable from the JSON's `tasks` alone. */
export function groupFigures(rows: readonly TaskRow[]): GroupFigures {
  const replies = rows.reduce((n, r) => n + r.planReplies, 0);
  const runs = rows.reduce((n, r) => n + r.runs, 0);
  return {
    tasks: rows.length,
    passAt1: mean(rows.map((r) => r.passAt1)),
    passK: mean(rows.map((r) => r.passK)),
    planValidity: replies === 0 ? null : rows.reduce((n, r) => n + r.validPlans, 0) / replies,
    repairedRounds: rows.reduce((n, r) => n + r.repairedRounds, 0),
    refusals: runs === 0 ? 0 : rows.reduce((n, r) => n + r.refusals, 0) / runs,
    meanRounds: mean(rows.map((r) => r.meanRounds)),
    promptTokens: mean(rows.map((r) => r.promptTokens)),
    secondsPerTask: mean(rows.map((r) => r.seconds)),
  };
}

/** The report of finished tasks: one row per task, figures per category and overall, and `meta`. */
export function buildReport(tasks: readonly TaskReport[], meta: RunMeta & { k: number }): EvalReport {
  const rows = tasks.map((t) => taskRow(t, meta.k));
  const present = TASK_CATEGORIES.filter((c) => rows.some((r) => r.category === c));
  const { k, ...rest } = meta;
  return {
    summary: { ...groupFigures(rows), categories: present, k },
    categories: present.map((category) => ({
      category,
      label: CATEGORY_LABELS[category],
      ...groupFigures(rows.filter((r) => r.category === category)),
    })),
    tasks: rows,
    meta: rest,
  };
}

/** Header and rows of the table (German), shared by the terminal and the HTML report. */
export function reportTable(report: EvalReport): { head: string[]; rows: string[][] } {
  const line = (label: string, g: GroupFigures) => [
    label,
    String(g.tasks),
    percent(g.passAt1),
    percent(g.passK),
    g.planValidity === null ? "–" : percent(g.planValidity),
    String(g.repairedRounds),
    percent(g.refusals),
    germanNumber(g.meanRounds, 1),
    germanNumber(g.promptTokens),
    germanNumber(g.secondsPerTask, 1),
  ];
  return {
    head: [
      "Kategorie",
      "Aufgaben",
      COLUMN_NAMES.passAt1,
      COLUMN_NAMES.passK,
      "Pläne gültig",
      "repariert",
      "ohne Werkzeug",
      "Runden",
      "Prompt-Tokens",
      COLUMN_NAMES.seconds,
    ],
    rows: [...report.categories.map((c) => line(c.label, c)), line("Gesamt", report.summary)],
  };
}

/** The table as aligned text for the terminal. */
export function reportText(report: EvalReport): string {
  const { head, rows } = reportTable(report);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  return [fmt(head), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(fmt)].join("\n");
}
