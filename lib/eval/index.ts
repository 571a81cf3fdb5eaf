// The agent evaluation ("Modell-Check"): task set, checkers, statistics, runner and report data.
// For scripts and developers; the HTML rendering is lib/display/eval.ts, the scripted planners lib/testing.
export { loadTaskSet, parseTaskSet, selectTasks, TaskSetError, TASK_CATEGORIES, CATEGORY_LABELS, type EvalTask, type TaskSet, type TaskCategory } from "./tasks.js";
export { checkRun, mentionsNumber, numberNotations, shiftDate, type EvalRun, type EvalCall, type CheckResult } from "./checks.js";
export { passAt1, passHatK, wilsonInterval, choose, type Interval } from "./stats.js";
export { runEvaluation, callsOfTrace, type EvaluationOptions, type PlannerFor } from "./runner.js";
export { buildReport, groupFigures, reportTable, reportText, type EvalReport, type EvalStyle, type Ablation, type TaskRow, type GroupFigures } from "./report.js";
