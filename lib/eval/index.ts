// The agent evaluation ("Modell-Check"): task set, checkers, statistics, runner and report data.
// For scripts and developers; the HTML rendering is lib/display/eval.ts, the scripted planners lib/testing.
export {
  loadTaskSet,
  parseTaskSet,
  selectTasks,
  selectionText,
  TaskSetError,
  TASK_CATEGORIES,
  CATEGORY_LABELS,
  type ArgConstraint,
  type EvalTask,
  type Fact,
  type OracleStep,
  type RequiredCall,
  type TaskCategory,
  type TaskExpectation,
  type TaskOracle,
  type TaskSelection,
  type TaskSet,
} from "./tasks.js";
export {
  checkRun,
  mentionsNumber,
  numberNotations,
  shiftDate,
  type CheckContext,
  type CheckResult,
  type EvalCall,
  type EvalRun,
} from "./checks.js";
export { passAt1, passHatK, wilsonInterval, choose, type Interval } from "./stats.js";
export { runEvaluation, callsOfTrace, planRun, type EvaluationOptions, type PlannerFor } from "./runner.js";
export {
  buildReport,
  groupFigures,
  reportTable,
  reportText,
  type Ablation,
  type EvalReport,
  type EvalReportJson,
  type EvalStyle,
  type GroupFigures,
  type MachineInfo,
  type RunMeta,
  type RunRecord,
  type TaskReport,
  type TaskRow,
} from "./report.js";
export { runModelCheck, MINI_TASK_IDS, type ModelCheckOptions } from "./model-check.js";
export { comparedRun, recommendation, type ComparedRun } from "./compare.js";
export { loadReportFile, ReportFileError } from "./report-file.js";
export { machineInfo, SELF_TEST_LABEL } from "./run-meta.js";
