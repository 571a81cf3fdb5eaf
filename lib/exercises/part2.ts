// Aufgabe 2 (RAG): what the exercise notebook imports — its set-up, self-checks and helpers.
export { setupPart2, type Part2Kit, type Part2Options, type Log, type SetupOptions } from "./setup.js";
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
  checkRetrieveContext,
  retrievalParts,
  type RetrievalParts,
  type RetrieveContextFn,
} from "./transfer-checks.js";
export { whenSolved } from "./helpers.js";
export { NotSolvedError, type CheckReport } from "./check-runner.js";
export { hilfe } from "./hilfe.js";
