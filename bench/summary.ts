// The goal registry behind the summary table at the end of `npm run bench`.
//
// Every bench file calls `reportGoal(...)` once per goal it checks. bench/run.ts runs each bench file in
// its own process and passes BENCH_SUMMARY_FILE; reportGoal appends one JSON line there, and run.ts
// prints all lines as one table at the end (plus a row for every bench file that failed). Run on its
// own (`npx tsx bench/x.bench.ts`), a bench file just prints its goal lines.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { printMarkdownTable } from "./markdown-table.js";

export interface GoalResult {
  /** What was measured, e.g. "MCP geocode call vs bare HTTP POST". */
  metric: string;
  /** The goal in words, e.g. "≤ 1.5×". */
  goal: string;
  /** The measured value in words, e.g. "1.31× (0.98 vs 0.75 ms)". */
  measured: string;
  /** true: met; false: not met; undefined: not judged here (e.g. only meaningful on the real model). */
  met: boolean | undefined;
  /** Filled in by reportGoal: the bench file that reported. */
  source?: string;
}

export const SUMMARY_ENV = "BENCH_SUMMARY_FILE";

function sourceName(): string {
  const script = process.argv[1] ?? "";
  return script.split(/[\\/]/).pop() ?? script;
}

export function verdict(met: boolean | undefined): string {
  return met === undefined ? "not judged" : met ? "met" : "NOT met";
}

/** Records one goal for the summary table (and prints it right away). */
export function reportGoal(result: GoalResult): void {
  const row: GoalResult = { ...result, source: result.source ?? sourceName() };
  console.log(`goal: ${row.metric}: ${row.measured} (goal ${row.goal}) → ${verdict(row.met)}`);
  const file = process.env[SUMMARY_ENV];
  if (file) appendFileSync(file, JSON.stringify(row) + "\n");
}

/** Convenience for numeric goals: met when `value` ≤ `limit` (or ≥ with `atLeast`). */
export function reportNumericGoal(
  metric: string,
  value: number,
  limit: number,
  options: { atLeast?: boolean; unit?: string; digits?: number; detail?: string } = {},
): void {
  const unit = options.unit ?? "";
  const fmt = (x: number) => `${x.toFixed(options.digits ?? 2)}${unit}`;
  reportGoal({
    metric,
    goal: `${options.atLeast ? "≥" : "≤"} ${fmt(limit)}`,
    measured: fmt(value) + (options.detail ? ` (${options.detail})` : ""),
    met: Number.isFinite(value) ? (options.atLeast ? value >= limit : value <= limit) : false,
  });
}

/** Reads the goal lines written during a run (bench/run.ts). */
export function readGoals(file: string): GoalResult[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as GoalResult];
      } catch {
        return [];
      }
    });
}

/** The summary table: metric, goal, measured, met / not met, and which bench file reported it. */
export function printSummary(goals: GoalResult[]): void {
  printMarkdownTable(
    ["Metric", "Goal", "Measured", "Verdict", "Bench"],
    goals.map((g) => [g.metric, g.goal, g.measured, verdict(g.met), g.source ?? ""]),
  );
}
