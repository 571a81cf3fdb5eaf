// The kit's public names, grouped by part. Notebooks, scripts and the CLI import from here
// ("./lib/index"); everything else is internal and imported by path in tests.

// Configuration: paths and settings from the environment (.env)
export {
  ConfigError,
  findProjectRoot,
  loadConfig,
  type KitConfig,
} from "./config.js";

// Teil 1 — language models: load, chat, JSON output, typed errors
export {
  ContextOverflowError,
  describeLlm,
  formatMeter,
  GpuBackendError,
  JsonNotSupportedError,
  LlmConnectionError,
  LlmError,
  LlmInputError,
  LlmOutputError,
  loadLlm,
  loadLocalLlm,
  loadOpenAiLlm,
  MODEL_CHOICES,
  modelChoicePath,
  ModelLoadError,
  ModelNotFoundError,
  tokenCounter,
  type ChatMessage,
  type ChatResult,
  type ChatRole,
  type GenerationMeter,
  type GenerationOptions,
  type JsonSchema,
  type Llm,
  type LlmInfo,
  type LoadLlmOptions,
  type LocalLlm,
  type LocalLlmOptions,
  type ModelChoice,
  type OpenAiLlmOptions,
  type TokenCounter,
} from "./llm/index.js";

// Teil 2 — retrieval: sentences, chunks, embeddings, vector/BM25 index, RAG context and prompt
export {
  Bm25Index,
  buildRagMessages,
  chunkDocuments,
  chunkText,
  createEmbedder,
  DEFAULT_CHUNKING,
  DEFAULT_EMBEDDING_DTYPE,
  defaultCorpusDir,
  defaultRagCacheDir,
  DimensionMismatchError,
  EMBEDDING_DTYPES,
  embeddingModelFiles,
  EmbeddingModelLoadError,
  EmbeddingModelNotFoundError,
  EmptyCorpusError,
  firstHitRank,
  formatMetricsTable,
  getRagContext,
  IndexStoreError,
  loadCorpus,
  loadQaSet,
  locatePassages,
  openRagStore,
  pullEmbeddingModel,
  RagError,
  RagFileNotFoundError,
  RagInputError,
  RagStore,
  retrievalMetrics,
  searchText,
  splitSentences,
  storeHash,
  TRAVEL_PLANNER_PERSONA,
  VectorIndex,
  type Bm25Hit,
  type Chunk,
  type ChunkingOptions,
  type ChunkMetadata,
  type CorpusDocument,
  type Embedder,
  type EmbedderOptions,
  type EmbeddingDtype,
  type EmbeddingModelFiles,
  type IndexKind,
  type IndexMetric,
  type LoadCorpusOptions,
  type OpenRagStoreOptions,
  type ProgressMode,
  type QaItem,
  type RagContext,
  type RetrievalMetrics,
  type RetrievedChunk,
  type SearchHit,
  type VectorIndexOptions,
} from "./rag/index.js";

// Teil 3 — tools over MCP: travel and math servers, client sessions, several clients as one, tool catalog
export {
  combineToolClients,
  CompositeToolClient,
  connectMathClientStdio,
  connectTravelClient,
  connectTravelClientStdio,
  formatToolsForPrompt,
  MathServerStartError,
  McpConnectionError,
  McpToolClient,
  startMathServer,
  startTravelServer,
  ToolClientSetupError,
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

// Teil 3/4 — agents: half-agent, plan agent, trace and its renderings
export {
  buildFinalAnswerMessages,
  buildHalfAgentJsonSchema,
  buildHalfAgentMessages,
  buildHalfAgentSystemPrompt,
  buildPlanJsonSchema,
  buildPlannerSystemPrompt,
  classifyTool,
  DEFAULT_RETRY_POLICY,
  describeAgentEvent,
  executeToolCall,
  findInToolHistory,
  findUnsupportedArguments,
  formatToolHistory,
  HALF_AGENT_RULES,
  halfAgentReplyFromJson,
  InMemoryToolClient,
  iterationScope,
  NO_TOOLS_INSTRUCTION,
  parsePlan,
  parsePlanValue,
  parseToolCall,
  PlanParseError,
  planProblemsMessage,
  RefError,
  renderPlanMermaid,
  renderTraceMermaid,
  renderTraceTable,
  resolveRefs,
  reviewToolProposal,
  runAgent,
  runStatusLabel,
  saveTrace,
  SCHEDULE_MODE_LABELS,
  SCHEDULE_MODES,
  scriptedFailure,
  ScriptedLlm,
  summarizeTrace,
  ToolReportedError,
  toolResultValue,
  TRAVEL_MATH_ROLE,
  validatePlan,
  type AgentEvent,
  type AgentEventType,
  type AgentRunResult,
  type AgentTrace,
  type ApprovalOutcome,
  type ApprovalPolicy,
  type ApprovalRequest,
  type ApproveFn,
  type HalfAgentPromptOptions,
  type HalfAgentReply,
  type HalfAgentToolCall,
  type InMemoryTool,
  type ParsePlanResult,
  type Plan,
  type PlannerPromptOptions,
  type PlanProblem,
  type PlanProblemKind,
  type PlanStep,
  type PlanToolCall,
  type RefErrorKind,
  type RetryPolicy,
  type RunAgentOptions,
  type RunStatus,
  type ScheduledCall,
  type ScheduleMode,
  type ScriptedReply,
  type ScriptedRequest,
  type ToolErrorKind,
  type ToolHistory,
  type ToolHistoryEntry,
  type ToolOutcome,
  type ToolResults,
  type ToolSafety,
  type TraceSummary,
  type UnsupportedArgument,
  type UserContext,
} from "./agent/index.js";

// What notebooks show: SVG diagrams, HTML tables (text forms outside a notebook)
export {
  showKvReuse,
  showMetrics,
  showPlan,
  showTimeline,
  showToolCatalog,
  showTraceDiagram,
  showTraceTable,
  type DiagramOptions,
} from "./display/index.js";

// Helpers the presentation notebooks call in one line (scripted plan, slow client, previews)
export {
  firstLines,
  jsonPreview,
  scriptedPlan,
  shortJson,
  traceDurationMs,
  withDelay,
} from "./testing/demo-helpers.js";

// Teil 4 — approval with a preview of staged writes, ask_user, grounded answers, sessions
export {
  AgentSession,
  ASK_USER_UNAVAILABLE,
  buildAnswerWriterMessages,
  checkGroundedness,
  SessionFileError,
  StagedWorkspace,
  StagingError,
  type AgentSessionOptions,
  type ApprovalDecision,
  type AskUserFn,
  type ChangePreview,
  type GroundednessReport,
  type SessionTurn,
  type StagedChange,
  type WindowReport,
} from "./agent/index.js";

// Teil 4 — voting over k isolated runs (MAKER pattern)
export {
  describeVoteEvent,
  noisyPlanner,
  normalizeAnswer,
  runVote,
  voteHtml,
  type VoteOptions,
  type VoteResult,
  type VoteRule,
} from "./agent/index.js";
// Teil 1/4 — arithmetic hook and native function calling (model's own tool-call format)
export {
  checkArithmetic,
  createToolCaller,
  describeArithmetic,
  NativeToolsUnsupportedError,
  numbersInText,
  type ArithmeticVerdict,
  type NativeFunction,
  type ToolCallingLlm,
} from "./llm/index.js";
export {
  halfAgentRow,
  nativeRow,
  refPlanRow,
  runHalfAgentOnce,
  runNativeToolChat,
  ScriptedToolCaller,
  styleTableMarkdown,
  type NativeCallRecord,
  type NativeToolChatResult,
  type StyleRow,
} from "./agent/index.js";
export { CONTEXT_SEPARATOR } from "./rag/store.js";
export { HALF_AGENT_FORMAT } from "./agent/prompts.js";

// Types that public signatures above use (parameters, fields, results), so that they have a page in the
// API reference (`npm run docs`; test/scripts/api-docs.test.ts fails on a public type left out).
export type { Bm25Options } from "./rag/bm25.js";
export type { EmbedOptions } from "./rag/embedder.js";
export type { PassageLocation } from "./rag/evaluation.js";
export type { StoreBuildOptions, StoreManifest } from "./rag/store.js";
export type { ServerCommand } from "./mcp/server-command.js";
export type { ToolRoute } from "./mcp/composite.js";
export type { PromptStateEvent } from "./llm/types.js";
export type { AnsweredFunctionCall, LocalToolCaller, NativeFunctionCall, ToolChatHistory, ToolChatRound } from "./llm/tool-calling.js";
export type { ArgumentCheck, ArgumentIssue, ArgumentValidator } from "./plan/arguments.js";
export type { ExecutedTool, ValidationContext } from "./plan/check.js";
export type { JsonExtractFailureKind } from "./plan/json-extract.js";
export type { PlanJsonSchemaOptions, PlanParseErrorKind } from "./plan/plan.js";
export type { ScopeOptions } from "./plan/schedule.js";
export type { AgentEventBase, PlanVia } from "./agent/events.js";
export type { MermaidOptions } from "./agent/trace.js";
export type { AnswerWriterInput } from "./agent/answer-writer.js";
export type { Claim, GroundednessInput } from "./agent/groundedness.js";
export type { SessionFile, SessionFileErrorKind } from "./agent/session.js";
export type { CallOptions, StagedStatus } from "./agent/workspace.js";
export type { HalfAgentMessagesOptions } from "./half-agent/half-agent.js";
export type { NativeRunStatus, NativeToolChatOptions } from "./patterns/native-tools.js";
export type { HalfAgentRun, ToolCallingStyle } from "./patterns/style-comparison.js";
export type { VoteDecision, VoteEvent, VoteRun, VoteTally } from "./patterns/vote.js";
export type { ScriptedPlanRun } from "./testing/demo-helpers.js";
export type { RecordedCall } from "./testing/in-memory-tools.js";
export type { NoisyPlannerOptions } from "./testing/noisy-planner.js";
export type { ScriptedFailure, ScriptedLlmOptions } from "./testing/scripted-llm.js";
export type { ScriptedToolRequest, ScriptedToolRound } from "./testing/scripted-tool-caller.js";
