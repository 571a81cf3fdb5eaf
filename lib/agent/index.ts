// Public names of lib/agent: Teil 3 half-agent (one tool call per turn) and Teil 4 plan agent
// (plan → validate → schedule → resolve → call). Internals (executor state, grammar transforms) stay
// unexported; tests import them by path.

// Teil 4: the plan, its grammar and its checks
export { parsePlan, parsePlanValue, buildPlanJsonSchema, PlanParseError, type Plan, type PlanStep, type PlanToolCall, type ParsePlanResult } from "../plan/plan.js";
export { validatePlan, type PlanProblem, type PlanProblemKind } from "../plan/check.js";
export { resolveRefs, RefError, type RefErrorKind, type ToolResults, type UserContext } from "../plan/refs.js";
export { SCHEDULE_MODES, iterationScope, type ScheduleMode, type ScheduledCall } from "../plan/schedule.js";
export { DEFAULT_RETRY_POLICY, type ToolOutcome, type RetryPolicy } from "./executor.js";
export { toolResultValue } from "../mcp/result.js";
// Teil 4: running the agent, approval, trace (its renderings are in lib/display)
export { runAgent, type RunAgentOptions, type AgentRunResult } from "./loop.js";
export { classifyTool, type ToolSafety, type ApprovalPolicy, type ApprovalRequest, type ApprovalDecision, type ApproveFn, type ApprovalOutcome } from "./approval.js";
export {
  saveTrace,
  summarizeTrace,
  type AgentEvent,
  type AgentEventType,
  type AgentTrace,
  type TraceSummary,
  type RunStatus,
  type ToolErrorKind,
} from "./trace.js";
// Prompts of both agents (German texts the notebooks show)
export {
  buildPlannerSystemPrompt,
  buildHalfAgentSystemPrompt,
  planProblemsMessage,
  HALF_AGENT_RULES,
  NO_TOOLS_INSTRUCTION,
  TRAVEL_MATH_ROLE,
  type PlannerPromptOptions,
  type HalfAgentPromptOptions,
} from "./prompts.js";
// Teil 3: the half-agent
export {
  parseToolCall,
  halfAgentReplyFromJson,
  executeToolCall,
  findInToolHistory,
  formatToolHistory,
  buildHalfAgentMessages,
  buildFinalAnswerMessages,
  buildHalfAgentJsonSchema,
  findUnsupportedArguments,
  reviewToolProposal,
  type HalfAgentReply,
  type HalfAgentToolCall,
  type ToolHistory,
  type ToolHistoryEntry,
  type UnsupportedArgument,
} from "../half-agent/half-agent.js";
// Stand-ins for demos without a model or a server
export { ScriptedLlm, scriptedFailure, type ScriptedReply, type ScriptedRequest } from "../testing/scripted-llm.js";
export { InMemoryToolClient, ToolReportedError, type InMemoryTool } from "../testing/in-memory-tools.js";
// Approval with preview (staged writes), ask_user, answer writer, groundedness, sessions with a bounded history
export { StagedWorkspace, StagingError, type ChangePreview, type StagedChange } from "./workspace.js";
export { ASK_USER_UNAVAILABLE, type AskUserFn } from "./ask-user.js";
export { buildAnswerWriterMessages } from "./answer-writer.js";
export { checkGroundedness, type GroundednessReport } from "./groundedness.js";
export { AgentSession, SessionFileError, type AgentSessionOptions, type SessionTurn } from "./session.js";
export type { WindowReport } from "./window.js";

// Voting: k isolated runs, a vote on their outcomes, the winner's staged changes committed
export {
  decideVote,
  normalizeAnswer,
  outcomeKey,
  runVote,
  tallyVotes,
  voteDecided,
  VoteWorkspace,
  VOTE_MIN_TEMPERATURE,
  type VoteDecision,
  type VoteEvent,
  type VoteOptions,
  type VoteResult,
  type VoteRule,
  type VoteRun,
  type VoteTally,
} from "../patterns/vote.js";
export { noisyAnswer, noisyPlanner, seededRandom, type NoisyPlannerOptions } from "../testing/noisy-planner.js";
export {
  runNativeToolChat,
  toNativeFunctions,
  type NativeCallRecord,
  type NativeRunStatus,
  type NativeToolChatOptions,
  type NativeToolChatResult,
} from "../patterns/native-tools.js";
export { ScriptedToolCaller, type ScriptedToolRequest, type ScriptedToolRound } from "../testing/scripted-tool-caller.js";
export {
  halfAgentRow,
  nativeRow,
  refPlanRow,
  runHalfAgentOnce,
  styleTableMarkdown,
  type HalfAgentRun,
  type StyleRow,
  type ToolCallingStyle,
} from "../patterns/style-comparison.js";
