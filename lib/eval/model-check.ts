// The Modell-Check in one call, for Teil 4's notebook: a few tasks of the kit's task set, k runs each,
// with the model and the travel (and math) client the notebook already has.
import { join } from "node:path";
import { findProjectRoot } from "../config.js";
import type { Llm } from "../llm/types.js";
import type { ToolClient } from "../mcp/types.js";
import type { CheckResult } from "./checks.js";
import type { EvalReport } from "./report.js";
import { runEvaluation } from "./runner.js";
import { loadTaskSet, type EvalTask } from "./tasks.js";

/** Five quick tasks, one each: one tool, a $ref chain, parallel calls, no tool fits, a follow-up. */
export const MINI_TASK_IDS = [
  "koordinaten-1",
  "wetter-kette-2",
  "parallel-1",
  "kein-werkzeug-1",
  "folgefrage-1",
] as const;

export interface ModelCheckOptions {
  /** The model to check. Required. */
  llm: Llm;
  /** The travel server's client, and the math server's for tasks that need it. Required. */
  tools: { reise: ToolClient; mathe?: ToolClient };
  /** Task ids (default MINI_TASK_IDS). */
  taskIds?: readonly string[];
  /** Runs per task (default 2). */
  k?: number;
  /** Planning rounds per run (default 4). */
  maxRounds?: number;
  /** Longest reply per model call (default 400 tokens: enough for a plan with four calls). */
  maxTokens?: number;
  /** The task file (default data/eval/agent-tasks.json). */
  file?: string;
  /** Called after every run (progress). */
  onRun?: (task: EvalTask, run: number, check: CheckResult) => void;
}

/** Runs the chosen tasks k times each in the plan style and returns the report (table: evalTableHtml). */
export async function runModelCheck(options: ModelCheckOptions): Promise<EvalReport> {
  const set = loadTaskSet(options.file ?? join(findProjectRoot(), "data", "eval", "agent-tasks.json"));
  const ids = options.taskIds ?? MINI_TASK_IDS;
  const tasks = ids.map((id) => set.tasks.find((t) => t.id === id)).filter((t): t is EvalTask => t !== undefined);
  const llm = options.llm;
  return runEvaluation({
    set,
    tasks,
    k: options.k ?? 2,
    style: "plan",
    tools: options.tools,
    planner: () => ({ llm }),
    maxRounds: options.maxRounds ?? 4,
    maxTokens: options.maxTokens ?? 400,
    onRun: options.onRun,
    meta: { backend: llm.info.backend },
  });
}
