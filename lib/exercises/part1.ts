// Aufgabe 1 (local LLM): what the exercise notebook imports — its set-up, self-checks and helpers.
export {
  setupPart1,
  probeRefusals,
  type Part1Kit,
  type RefusalProbeOptions,
  type RefusalProbeResult,
  type Log,
  type SetupOptions,
} from "./setup.js";
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
export { whenSolved } from "./helpers.js";
export { NotSolvedError, type CheckReport } from "./check-runner.js";
export { hilfe } from "./hilfe.js";
