// Teil 4 — running a $ref plan: the agent loop, approval with staged writes, ask_user, sessions, the trace.
// The plan core itself (parse, check, refs, schedule) is lib/plan; rendering is lib/display.
export { runAgent, type RunAgentOptions, type AgentRunResult } from "./loop.js";
export {
  buildPlannerSystemPrompt,
  planProblemsMessage,
  TRAVEL_MATH_ROLE,
  type PlannerPromptOptions,
} from "./prompts.js";
export type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, ApproveFn } from "./approval.js";
export { StagedWorkspace, StagingError, type ChangePreview, type StagedChange } from "./workspace.js";
export { ASK_USER_UNAVAILABLE, type AskUserFn } from "./ask-user.js";
export { buildAnswerWriterMessages } from "./answer-writer.js";
export { checkGroundedness, type GroundednessReport } from "./groundedness.js";
export { AgentSession, SessionFileError, type AgentSessionOptions, type SessionTurn } from "./session.js";
export {
  saveTrace,
  summarizeTrace,
  traceDurationMs,
  type AgentEvent,
  type AgentTrace,
  type RunStatus,
  type TraceSummary,
} from "./trace.js";
// Types of the public signatures (options, results, event parts), for lib/index.ts and the API reference.
export type { AgentEventBase, AgentEventType, PlanVia, ToolErrorKind } from "./events.js";
export type { ApprovalOutcome, ToolSafety } from "./approval.js";
export type { RetryPolicy, ToolOutcome } from "./executor.js";
export type { WindowReport } from "./window.js";
export type { AnswerWriterInput } from "./answer-writer.js";
export type { Claim, GroundednessInput } from "./groundedness.js";
export type { GroundednessCheck, PlanOutput } from "./run-options.js";
export type { SessionFile, SessionFileErrorKind } from "./session.js";
export type { CallOptions, StagedStatus } from "./workspace.js";
