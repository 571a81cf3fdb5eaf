// The kit's public surface, listed explicitly and grouped by part. Notebooks, examples and the CLI import
// from here ("./lib/index"). Documented entry points besides this one: the folder indexes
// (lib/<folder>/index.ts: one concept each, for scripts and developers who need more of one folder),
// lib/exercises/index.ts (Aufgabe notebooks) and lib/testing/index.ts (stand-ins: scripted planner,
// in-memory tools). Anything else is internal; tests import it by path.

// Settings from the environment (.env)
export { ConfigError, findProjectRoot, loadConfig, type KitConfig } from "./config.js";

// Teil 1 — the model of the notebooks (in rehearsal mode, WORKSHOP_PROBE=1, a scripted one)
export { loadLlm } from "./rehearsal/load.js";

// Teil 1 — language models: load, chat, JSON output, native tool calling, typed errors
export {
  checkArithmetic,
  ContextOverflowError,
  createToolCaller,
  describeArithmetic,
  describeLlm,
  formatMeter,
  GpuBackendError,
  JsonNotSupportedError,
  LlmConnectionError,
  LlmError,
  LlmInputError,
  LlmOutputError,
  LlmResponseTooLargeError,
  LlmStreamIncompleteError,
  LlmTimeoutError,
  loadLocalLlm,
  loadOpenAiLlm,
  ModelClosedError,
  ModelLoadError,
  ModelNotFoundError,
  NativeToolsUnsupportedError,
  todayMessage,
  tokenCounter,
  type ChatMessage,
  type ChatResult,
  type GenerationMeter,
  type GenerationOptions,
  type JsonSchema,
  type Llm,
  type LlmInfo,
  type LocalLlm,
} from "./llm/index.js";
export type { InProcessLlmInfo, LoadLlmOptions, NativeFunction, OpenAiLlmOptions, ServerLlmInfo, ToolCallingLlm } from "./llm/index.js";
export type { ChatRole, PromptStateEvent } from "./llm/types.js";
export type { LocalLlmOptions } from "./llm/local.js";
export type { TokenCounter } from "./llm/tokens.js";
export type { ArithmeticVerdict } from "./llm/number-check.js";
export type { AnsweredFunctionCall, LocalToolCaller, NativeFunctionCall, ToolChatHistory, ToolChatRound } from "./llm/native-tools.js";

// Teil 2 — retrieval: sentences → chunks → embeddings → vector/BM25 index → context → prompt; evaluation
export {
  Bm25Index,
  buildRagMessages,
  chunkDocuments,
  chunkText,
  CONTEXT_SEPARATOR,
  createEmbedder,
  DEFAULT_CHUNKING,
  defaultCorpusDir,
  defaultRagCacheDir,
  DimensionMismatchError,
  EmbeddingModelLoadError,
  EmbeddingModelNotFoundError,
  EmptyCorpusError,
  HnswUnavailableError,
  IndexStoreError,
  loadCorpus,
  openRagStore,
  RagError,
  RagFileNotFoundError,
  RagInputError,
  RagStore,
  searchText,
  splitSentences,
  storeHash,
  TRAVEL_PLANNER_PERSONA,
  VectorIndex,
  type Chunk,
  type ChunkingOptions,
  type ChunkMetadata,
  type CorpusDocument,
  type Embedder,
  type EmbedderOptions,
  type IndexKind,
  type RagContext,
  type RetrievedChunk,
  type SearchHit,
} from "./rag/index.js";
export type { Bm25Hit } from "./rag/bm25.js";
export type { EmbeddingDtype } from "./rag/embedder.js";
export type { IndexMetric, VectorIndexOptions } from "./rag/vector-index.js";
export type { LoadCorpusOptions } from "./rag/corpus.js";
export type { OpenRagStoreOptions } from "./rag/store.js";
export type { ProgressMode } from "./rag/progress.js";
export { firstHitRank, formatMetricsTable, loadQaSet, locatePassages, retrievalMetrics, type QaItem, type RetrievalMetrics } from "./rag/evaluation.js";

// Teil 3 — tools over MCP: travel and math servers, one client session each, several clients as one
export {
  CompositeToolClient,
  formatToolsForPrompt,
  MathServerStartError,
  McpConnectionError,
  McpToolClient,
  ServerStartError,
  startMathServer,
  startTravelServer,
  ToolClientSetupError,
  toolResultValue,
  ToolTimeoutError,
  TravelServerStartError,
  type CatalogOptions,
  type McpClientOptions,
  type ServerHandle,
  type StartMathServerOptions,
  type StartTravelServerOptions,
  type ToolCallResult,
  type ToolClient,
  type ToolClients,
  type ToolInfo,
  type TravelServerHandle,
} from "./mcp/index.js";

// Teil 3 — the half-agent: one tool call per turn, run by hand
export {
  buildFinalAnswerMessages,
  buildHalfAgentJsonSchema,
  buildHalfAgentMessages,
  buildHalfAgentSystemPrompt,
  executeToolCall,
  findInToolHistory,
  findUnsupportedArguments,
  formatToolHistory,
  HALF_AGENT_FORMAT,
  HALF_AGENT_RULES,
  halfAgentReplyFromJson,
  NO_TOOLS_INSTRUCTION,
  parseToolCall,
  reviewToolProposal,
  type HalfAgentPromptOptions,
  type HalfAgentReply,
  type HalfAgentToolCall,
  type ToolHistory,
  type ToolHistoryEntry,
  type UnsupportedArgument,
} from "./half-agent/index.js";

// Teil 4 — the $ref plan core (pure): parse, check, resolve references, schedule
export {
  buildPlanJsonSchema,
  checkPlan,
  iterationScope,
  parsePlan,
  parsePlanValue,
  PlanParseError,
  RefError,
  resolveRefs,
  SCHEDULE_MODES,
  type ParsePlanResult,
  type Plan,
  type PlanCheck,
  type PlanProblem,
  type PlanProblemKind,
  type PlanStep,
  type PlanToolCall,
  type RefErrorKind,
  type ScheduledCall,
  type ScheduleMode,
  type ToolResults,
  type UserContext,
} from "./plan/index.js";

// Teil 4 — running a plan: the loop, approval with staged writes, ask_user, answer writer, sessions, trace
export {
  AgentSession,
  ASK_USER_UNAVAILABLE,
  buildAnswerWriterMessages,
  buildPlannerSystemPrompt,
  checkGroundedness,
  planProblemsMessage,
  runAgent,
  saveTrace,
  SessionFileError,
  StagedWorkspace,
  StagingError,
  summarizeTrace,
  traceDurationMs,
  TRAVEL_MATH_ROLE,
  type AgentEvent,
  type AgentRunResult,
  type AgentSessionOptions,
  type AgentTrace,
  type ApprovalDecision,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApproveFn,
  type AskUserFn,
  type ChangePreview,
  type GroundednessReport,
  type PlannerPromptOptions,
  type RunAgentOptions,
  type RunStatus,
  type SessionTurn,
  type StagedChange,
  type TraceSummary,
} from "./agent/index.js";
export type { AgentEventType, ToolErrorKind } from "./agent/events.js";
export type { ApprovalOutcome, ToolSafety } from "./agent/approval.js";
export type { RetryPolicy, ToolOutcome } from "./agent/executor.js";
export type { WindowReport } from "./agent/window.js";

// Teil 4 — patterns on top: voting over k isolated runs, native function calling, the style comparison
export {
  halfAgentRow,
  nativeRow,
  refPlanRow,
  runHalfAgentOnce,
  runNativeToolChat,
  runVote,
  styleTableMarkdown,
  type NativeCallRecord,
  type NativeToolChatResult,
  type StyleRow,
  type VoteOptions,
  type VoteResult,
  type VoteRule,
} from "./patterns/index.js";

// What notebooks show: SVG diagrams, HTML tables, German event texts (text forms outside a notebook)
export {
  describeAgentEvent,
  describeVoteEvent,
  firstLines,
  jsonPreview,
  runStatusLabel,
  SCHEDULE_MODE_LABELS,
  shortJson,
  showKvReuse,
  showMetrics,
  showPlan,
  showTimeline,
  showToolCatalog,
  showTraceDiagram,
  showTraceTable,
  voteHtml,
  type DiagramOptions,
} from "./display/index.js";
// The Modell-Check's table (the check itself: runModelCheck in lib/eval/index.ts, `npm run eval:agent`)
export { evalTableHtml } from "./display/eval.js";

// Types that appear in the signatures above (options, results, event parts), for the API reference
export type { AgentEventBase, PlanVia } from "./agent/events.js";
export type { AnswerWriterInput } from "./agent/answer-writer.js";
export type { Claim, GroundednessInput } from "./agent/groundedness.js";
export type { GroundednessCheck, PlanOutput } from "./agent/run-options.js";
export type { SessionFile, SessionFileErrorKind } from "./agent/session.js";
export type { CallOptions, StagedStatus } from "./agent/workspace.js";
export type { HalfAgentMessagesOptions } from "./half-agent/half-agent.js";
export type { ServerCommand } from "./mcp/server-command.js";
export type { ServerStartInput } from "./mcp/errors.js";
export type { ToolRoute } from "./mcp/composite.js";
export type { NativeRunStatus, NativeToolChatOptions } from "./patterns/native-tools.js";
export type { HalfAgentRun, ToolCallingStyle } from "./patterns/style-comparison.js";
export type { VoteDecision, VoteEvent, VoteRun, VoteTally } from "./patterns/vote.js";
export type { ArgumentIssue } from "./plan/arguments.js";
export type { ExecutedTool, ValidationContext } from "./plan/check.js";
export type { PlanJsonSchemaOptions, PlanParseErrorKind } from "./plan/plan.js";
export type { ScopeOptions } from "./plan/schedule.js";
export type { JsonExtractFailureKind } from "./plan/json-extract.js";
export type { Bm25Options } from "./rag/bm25.js";
export type { EmbedOptions } from "./rag/embedder.js";
export type { PassageLocation } from "./rag/evaluation.js";
export type { StoreBuildOptions, StoreManifest } from "./rag/store.js";
export type { DescribedTool } from "./schema/text.js";
