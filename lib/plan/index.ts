// The $ref plan core, pure: what a plan is, how it is parsed and checked, how `$ref`s resolve and which
// calls may run now. No SDK, no model library, no node: module — what Aufgabe 4 teaches.
export {
  parsePlan,
  parsePlanValue,
  buildPlanJsonSchema,
  PlanParseError,
  type Plan,
  type PlanStep,
  type PlanToolCall,
  type ParsePlanResult,
} from "./plan.js";
export { checkPlan, type PlanCheck, type PlanProblem, type PlanProblemKind } from "./check.js";
export { resolveRefs, RefError, type RefErrorKind, type ToolResults, type UserContext } from "./refs.js";
export { iterationScope, readyCalls, SCHEDULE_MODES, type ScheduleMode, type ScheduledCall } from "./schedule.js";
export { extractJsonObject, type JsonExtractResult } from "./json-extract.js";
// Types of the public signatures (options, results, event parts), for lib/index.ts and the API reference.
export type { ArgumentIssue } from "./arguments.js";
export type { ExecutedTool, ValidationContext } from "./check.js";
export type { PlanJsonSchemaOptions, PlanParseErrorKind } from "./plan.js";
export type { ScopeOptions } from "./schedule.js";
export type { JsonExtractFailureKind } from "./json-extract.js";
