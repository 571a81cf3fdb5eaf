// The kit's public surface, listed explicitly and grouped by part. Notebooks, examples and the CLI import
// from here ("./lib/index"). Documented entry points besides this one: the folder indexes
// (lib/<folder>/index.ts: one concept each, for scripts and developers who need more of one folder),
// lib/exercises/index.ts (Aufgabe notebooks) and lib/testing/index.ts (stand-ins: scripted planner,
// in-memory tools). Anything else is internal; tests import it by path.

// Settings from the environment (.env)
export { ConfigError, findProjectRoot, loadConfig, type KitConfig } from "./config.js";
// KitError itself: lib/errors.ts (the 130-value cap of this index is reached); its options type is documented here.
export type { KitErrorOptions } from "./errors.js";

// Numbers as participants read them: germanNumber(0.735, 3) → "0,735"
export { germanNumber } from "./util.js";

// Teil 1 — the model of the notebooks (in rehearsal mode, WORKSHOP_PROBE=1, a scripted one)
export { loadLlm } from "./rehearsal/index.js";

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
export type {
  AnsweredFunctionCall,
  ArithmeticVerdict,
  ChatRole,
  InProcessLlmInfo,
  LoadLlmOptions,
  LocalLlmOptions,
  LocalToolCaller,
  NativeFunction,
  NativeFunctionCall,
  OpenAiLlmOptions,
  PromptStateEvent,
  ServerLlmInfo,
  TokenCounter,
  ToolCallingLlm,
  ToolChatHistory,
  ToolChatRound,
} from "./llm/index.js";

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
export type {
  Bm25Hit,
  EmbeddingDtype,
  IndexMetric,
  LoadCorpusOptions,
  OpenRagStoreOptions,
  ProgressMode,
  VectorIndexOptions,
} from "./rag/index.js";
export {
  firstHitRank,
  loadQaSet,
  locatePassages,
  retrievalMetrics,
  type QaItem,
  type RetrievalMetrics,
} from "./rag-eval/index.js";

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
export type {
  AgentEventType,
  ApprovalOutcome,
  RetryPolicy,
  ToolErrorKind,
  ToolOutcome,
  ToolSafety,
  WindowReport,
} from "./agent/index.js";

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
export { evalTableHtml } from "./display/index.js";

// Types that appear in the signatures above (options, results, event parts), for the API reference
export type {
  AgentEventBase,
  AnswerWriterInput,
  CallOptions,
  Claim,
  GroundednessCheck,
  GroundednessInput,
  PlanOutput,
  PlanVia,
  SessionFile,
  SessionFileErrorKind,
  StagedStatus,
} from "./agent/index.js";
export type { HalfAgentMessagesOptions } from "./half-agent/index.js";
export type { DescribedTool, ServerCommand, ServerStartInput, ToolRoute } from "./mcp/index.js";
export type {
  HalfAgentRun,
  NativeRunStatus,
  NativeToolChatOptions,
  ToolCallingStyle,
  VoteDecision,
  VoteEvent,
  VoteRun,
  VoteTally,
} from "./patterns/index.js";
export type {
  ArgumentIssue,
  ExecutedTool,
  JsonExtractFailureKind,
  PlanJsonSchemaOptions,
  PlanParseErrorKind,
  ScopeOptions,
  ValidationContext,
} from "./plan/index.js";
export type { Bm25Options, EmbedOptions, StoreBuildOptions, StoreManifest } from "./rag/index.js";
export type { PassageLocation } from "./rag-eval/index.js";
