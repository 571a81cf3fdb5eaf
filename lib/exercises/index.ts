// Exercise notebooks (Aufgabe N / Lösung N): set-up calls, self-check runner and the check sets per part.
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
export { showValue, showResult, germanNumber, countOf } from "./show.js";
export { jsonObjectsIn, refPath, lookUpRef, whenSolved, runPlanWith, type ExecutorParts } from "./helpers.js";
export { EXERCISE_CHECKS, taskOverview, type WorkshopPart } from "./tasks.js";
export {
  checkBuildMessages,
  checkTrimHistory,
  checkRefusalPrompt,
  checkIsRefusal,
  DEFAULT_REFUSAL,
  type Turn,
  type BuildMessagesFn,
  type TrimHistoryFn,
  type RefusalPromptFn,
  type IsRefusalFn,
} from "./part1-checks.js";
export {
  checkChunkSentences,
  checkHitAtK,
  checkSmallestK,
  type RetrievalResult,
  type ChunkSentencesFn,
  type HitAtKFn,
  type SmallestKFn,
} from "./part2-checks.js";
export {
  checkParseToolCall,
  checkMissingArguments,
  checkCoordinatesFromHistory,
  type ToolCall,
  type HistoryEntry,
  type ParseToolCallFn,
  type MissingArgumentsFn,
  type CoordinatesFromHistoryFn,
} from "./part3-checks.js";
export {
  checkResolveRefs,
  checkReferencedIds,
  checkReadyCalls,
  type PlannedCall,
  type ResolveRefsFn,
  type ReferencedIdsFn,
  type ReadyCallsFn,
} from "./part4-checks.js";
export {
  setupPart1,
  setupPart2,
  setupPart3,
  setupPart4,
  probeRefusals,
  type SetupOptions,
  type Part2Options,
  type Part1Kit,
  type Part2Kit,
  type Part3Kit,
  type Part4Kit,
  type TravelKit,
  type RefusalProbeOptions,
  type RefusalProbeResult,
} from "./setup.js";
export {
  checkRechneAufruf,
  checkRetrieveContext,
  checkStreckenPlan,
  retrievalParts,
  runMathPlan,
  UEBUNG_QUESTIONS,
  type MathCall,
  type RechneAufrufFn,
  type RetrievalParts,
  type RetrieveContextFn,
  type StreckenPlanFn,
} from "./transfer-checks.js";
export { openMathKit, openUebungStore, releaseTransferResources, type MathKit } from "./transfer-resources.js";
