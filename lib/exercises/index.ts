// Exercises: the self-check runner and which checks belong to which part. The Aufgabe notebooks import
// their part's entry point (lib/exercises/part1.ts … part4.ts: set-up, checks, helpers).
export {
  runChecks,
  defineCheck,
  sameData,
  CheckFailedError,
  DEFAULT_CHECK_TIMEOUT_MS,
  NOT_SOLVED,
  NotSolvedError,
  isNotSolved,
  type AnyFunction,
  type CheckCase,
  type CheckSet,
  type CheckOptions,
  type CheckReport,
  type CaseOutcome,
  type CheckFunction,
} from "./check-runner.js";
export { BoardReporter, boardSettingsFromEnv, type BoardSettings, type RunCounts } from "./board-report.js";
export { BOARD_CHECKS, type BoardPart, type BoardRecord } from "./board-record.js";
export { whenSolved } from "./helpers.js";
export { hilfe, type HelpResult } from "./hilfe.js";
export { EXERCISE_CHECKS, taskOverview, type WorkshopPart } from "./tasks.js";
export { openMathKit, openUebungStore, releaseTransferResources, type MathKit } from "./transfer-resources.js";
