// Stand-ins for demos and tests without a model or a server: a scripted planner, a scripted native tool
// caller, in-memory tools, a seeded noisy planner and the one-line demo helpers of the Teil notebooks.
// Not part of lib/index.ts: import from "lib/testing/index".
export {
  ScriptedLlm,
  scriptedFailure,
  type ScriptedFailure,
  type ScriptedLlmOptions,
  type ScriptedReply,
  type ScriptedRequest,
} from "./scripted-llm.js";
export { ScriptedToolCaller, type ScriptedToolRound, type ScriptedToolRequest } from "./scripted-tool-caller.js";
export { InMemoryToolClient, ToolReportedError, type InMemoryTool, type RecordedCall } from "./in-memory-tools.js";
export { noisyPlanner, noisyAnswer, type NoisyPlannerOptions } from "./noisy-planner.js";
export { scriptedPlan, withDelay, type ScriptedPlanRun } from "./demo-helpers.js";
export {
  oraclePlanner,
  withMistake,
  noisyOracle,
  fillAnswer,
  MISTAKES,
  type Mistake,
  type PlannerRun,
} from "./eval-oracle.js";
