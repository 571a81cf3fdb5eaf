// Public names of lib/agent (Teil 3 half-agent, Teil 4 plan executor).
export {
  PlanSchema,
  PlanToolCallSchema,
  RefObjectSchema,
  PlanParseError,
  parsePlan,
  parsePlanValue,
  buildPlanJsonSchema,
  buildFinalAnswerJsonSchema,
  planToolCalls,
  finalPlan,
  type Plan,
  type PlanStep,
  type PlanToolCall,
  type ParsePlanResult,
  type PlanParseErrorKind,
  type PlanJsonSchemaOptions,
} from "./plan.js";
export { validatePlan, type PlanProblem, type PlanProblemKind, type ExecutedTool, type ValidationContext } from "./validate.js";
export { ArgumentValidator, type ArgumentIssue, type ArgumentCheck } from "./arguments.js";
export {
  resolveRefs,
  resolveRef,
  parseRef,
  collectRefs,
  refTarget,
  RefError,
  type RefErrorKind,
  type ParsedRef,
  type ToolResults,
  type UserContext,
} from "./refs.js";
export {
  SCHEDULE_MODES,
  callDependencies,
  openCalls,
  nextOpenStep,
  iterationScope,
  readyCalls,
  blockedCalls,
  type ScheduleMode,
  type ScheduledCall,
  type ScheduleState,
} from "./schedule.js";
export {
  executeScope,
  createExecutionState,
  toolResultValue,
  isTransientError,
  ToolTimeoutError,
  DEFAULT_RETRY_POLICY,
  type ExecutionState,
  type ToolOutcome,
  type RetryPolicy,
  type ExecutorOptions,
} from "./executor.js";
export { runAgent, type RunAgentOptions, type AgentRunResult } from "./loop.js";
export {
  classifyTool,
  decideApproval,
  type ToolSafety,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApprovalDecision,
  type ApproveFn,
  type ApprovalOutcome,
} from "./approval.js";
export {
  createTrace,
  traceToJson,
  saveTrace,
  summarizeTrace,
  renderTraceTable,
  renderPlanMermaid,
  renderTraceMermaid,
  type AgentEvent,
  type AgentEventType,
  type AgentTrace,
  type TraceSummary,
  type RunStatus,
  type ToolErrorKind,
} from "./trace.js";
export {
  formatToolCatalog,
  formatToolSignatures,
  buildPlannerSystemPrompt,
  buildHalfAgentSystemPrompt,
  contextMessage,
  toolResultsMessage,
  planProblemsMessage,
  planParseErrorMessage,
  HALF_AGENT_RULES,
  HALF_AGENT_FORMAT,
  NO_TOOLS_INSTRUCTION,
  NUDGE_MESSAGE,
  FALLBACK_ANSWER,
  ABORTED_ANSWER,
  llmErrorAnswer,
  type PlannerPromptOptions,
  type HalfAgentPromptOptions,
} from "./prompts.js";
export {
  parseToolCall,
  halfAgentReplyFromJson,
  executeToolCall,
  findInToolHistory,
  formatToolHistory,
  buildHalfAgentMessages,
  buildFinalAnswerMessages,
  buildHalfAgentJsonSchema,
  type HalfAgentReply,
  type HalfAgentToolCall,
  type ToolHistory,
  type ToolHistoryEntry,
} from "./half-agent.js";
export { ScriptedLlm, scriptedFailure, ScriptExhaustedError, JsonNotSupportedError, type ScriptedReply, type ScriptedRequest } from "./scripted-planner.js";
export { InMemoryToolClient, ToolReportedError, delay, type InMemoryTool } from "./in-memory-tools.js";
export { toGrammarSchema, dropNullOptionals } from "./grammar-schema.js";
export { extractJsonObject } from "./json-extract.js";
export { describeAgentEvent, runStatusLabel, scheduleModeLabel, RUN_STATUS_LABELS, SCHEDULE_MODE_LABELS } from "./event-text.js";
export { findUnsupportedArguments, reviewToolProposal, type UnsupportedArgument } from "./half-agent.js";
// Issue 14: staged writes with preview, ask_user, answer writer, groundedness, sessions with a bounded history.
export { StagedWorkspace, StagingError, supportsPreview, hideStagingFields, type ChangePreview, type StagedChange, type StagedStatus } from "./workspace.js";
export { unifiedDiff } from "./line-diff.js";
export { ASK_USER_TOOL, ASK_USER_TOOL_NAME, ASK_USER_UNAVAILABLE, type AskUserFn } from "./ask-user.js";
export { ANSWER_WRITER_PROMPT, buildAnswerWriterMessages, writeAnswer, type AnswerWriterInput } from "./answer-writer.js";
export { checkGroundedness, isTravelQuestion, type Claim, type GroundednessInput, type GroundednessReport } from "./groundedness.js";
export { fitToWindow, summariseFeedback, type PromptParts, type WindowOptions, type WindowReport, type WindowResult } from "./window.js";
export { AgentSession, SessionFileError, turnsToHistory, SESSION_FILE_VERSION, type AgentSessionOptions, type SessionTurn, type SessionFile, type SessionFileErrorKind } from "./session.js";
