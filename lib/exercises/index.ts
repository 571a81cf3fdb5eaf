// Exercise notebooks (Aufgabe N / Lösung N): set-up calls and the self-check sets per part; the check
// runner and EXERCISE_CHECKS are internals (tests import them by path).
export { CheckFailedError, type CheckReport } from "./check-runner.js";
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
