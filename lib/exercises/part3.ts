// Aufgabe 3 (MCP tools): what the exercise notebook imports — its set-up, self-checks and helpers.
export { setupPart3, type Part3Kit, type SetupOptions, type TravelKit } from "./setup.js";
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
  checkRechenPrompt,
  checkRechneAufruf,
  type MathCall,
  type RechenPromptFn,
  type RechneAufrufFn,
} from "./transfer-checks.js";
export { jsonObjectsIn, whenSolved } from "./helpers.js";
export { NotSolvedError, type CheckReport } from "./check-runner.js";
export { hilfe } from "./hilfe.js";
