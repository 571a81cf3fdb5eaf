// runAgent's options: the flat interface callers write (notebooks, CLI, tests, bench), every default in
// RUN_DEFAULTS, and resolveOptions, which turns them into the settings the loop reads, grouped like the
// AI SDK's tool loop: model, tools, prompt, limits, safety, post-processing.
import { DEFAULT_TOOL_TIMEOUT_MS } from "../timeouts.js";
import type { ChatMessage, GenerationOptions, Llm } from "../llm/types.js";
import { tokenCounter } from "../llm/tokens.js";
import { combineToolClients, type ToolClients } from "../mcp/composite.js";
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import type { ScheduleMode } from "../plan/schedule.js";
import type { ApprovalPolicy, ApproveFn } from "./approval.js";
import type { AskUserFn } from "./ask-user.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./executor.js";
import { checkGroundedness, type GroundednessInput, type GroundednessReport } from "./groundedness.js";
import { MAX_RESULT_CHARS } from "./prompts.js";
import type { AgentEvent } from "./trace.js";
import type { StagedWorkspace } from "./workspace.js";

/** How plans are generated (see plan-call.ts). */
export type PlanOutput = "auto" | "grammar" | "text";

/** A caller's own groundedness check: gets the answer and its sources, returns the warnings (see groundedness.ts). */
export type GroundednessCheck = (input: GroundednessInput) => GroundednessReport;

/** Every option of runAgent; the defaults are in RUN_DEFAULTS (or said here when they depend on the run). */
export interface RunAgentOptions {
  // Model
  /** The model that writes the plans (and the answer, with `answerWriter`): loadLlm, loadLocalLlm, loadOpenAiLlm or a ScriptedLlm. Required. */
  llm: Llm;
  /** How plans are generated: "auto" (grammar, falling back to text), "grammar" or "text". Default "auto". */
  planOutput?: PlanOutput;
  /** Sampling options for every planning call (default: the model's own; `signal` comes from this run's `signal`). */
  generation?: Omit<GenerationOptions, "signal">;

  // Tools
  /** One tool client, or several by alias ({ reise, mathe }): merged by lib/mcp's CompositeToolClient. */
  tools: ToolClient | ToolClients;
  /** The tool catalog (default: `await tools.listTools()`). */
  catalog?: ToolInfo[];
  /** Where side-effecting calls are staged before approval (default: a fresh StagedWorkspace for this run). */
  workspace?: StagedWorkspace;
  /** Offer the `ask_user` tool to the planner. Default true. */
  offerAskUser?: boolean;

  // Prompt
  /** The user's question, in the participant's words. Required. */
  question: string;
  /** Earlier conversation, inserted between the system messages and the question. Default: none. */
  history?: ChatMessage[];
  /** Retrieved context (RAG), sent as its own system message. Default: none. */
  context?: string;
  /** Replaces the planner system prompt (default: buildPlannerSystemPrompt(catalog, …)). */
  systemPrompt?: string;
  /** Replaces the travel persona of the default planner prompt (e.g. TRAVEL_MATH_ROLE with the math server). */
  role?: string;
  /** Today's date for the prompt and `user.today` (YYYY-MM-DD). Default: none, so the prompt names no date. */
  today?: string;
  /** Extra fields for `user.*` references; `raw` (the question) is always there. Default: none. */
  userCtx?: Record<string, unknown>;

  // Limits
  /** Planning rounds before giving up; whole numbers ≥ 1 (smaller values count as 1). Default 8. */
  maxIterations?: number;
  /** In the last round, allow only an answer. Default true. */
  forceFinalOnLastIteration?: boolean;
  /**
   * Time limit per tool call, staged previews and commits included (executor.ts). Default 30 000 ms
   * (DEFAULT_TOOL_TIMEOUT_MS, longer than the travel server's upstream deadline; lib/timeouts.ts).
   */
  toolTimeoutMs?: number;
  /** Sending a call again after a transient failure (e.g. a lost connection). Default: 1 retry, 200–2000 ms back-off. */
  retry?: Partial<RetryPolicy>;
  /** How tool calls run (see plan/schedule.ts). Default "dependency". */
  mode?: ScheduleMode;
  /** Longest tool result (characters of JSON) shown to the model. Default 3000, so a few results fit an 8k context. */
  maxResultChars?: number;
  /**
   * The sliding window: tokens the prompt may use (default: the model's context size minus room for the
   * reply) and how tokens are counted (default: the model's tokenizer, else an estimate). false = never trim.
   */
  contextWindow?:
    | false
    | {
        /** Tokens the prompt may use (default: context size − reply − chat-template room). */
        maxPromptTokens?: number;
        /** Counts the tokens of a text (default: the model's tokenizer, else an estimate). */
        countTokens?: (text: string) => number;
        /** Newest tool rounds kept whole; ≥ 1 (default 2). */
        keepRecentRounds?: number;
      };
  /** Ends the run (status "aborted") and every call in flight. */
  signal?: AbortSignal;

  // Safety
  /** Decides on calls that change something (with a preview when the tool offers one). Default: none, so they are refused. */
  approve?: ApproveFn;
  /** Which tools count as read-only, which are blocked, and how long approval may take. Default: the tools' own hints. */
  approval?: ApprovalPolicy;
  /** Answers the planner's `ask_user` calls (notebook input, terminal). Default: none, so they fail with „Rückfrage nicht möglich". */
  askUser?: AskUserFn;

  // Post-processing
  /** Let a second model call write the final answer from question, context and tool results only. Default false. */
  answerWriter?: boolean;
  /**
   * Check the answer against its sources. true: the travel heuristic checkGroundedness (numbers, dates,
   * places; groundedness.ts); a function: the caller's own check. Warnings in the trace and the result.
   * Default false.
   */
  groundedness?: boolean | GroundednessCheck;

  /** Called with every event of the run as it happens (the same events end up in the trace). */
  onEvent?: (event: AgentEvent) => void;
}

/** runAgent's defaults, in one place. */
export const RUN_DEFAULTS = {
  planOutput: "auto",
  offerAskUser: true,
  maxIterations: 8,
  forceFinalOnLastIteration: true,
  toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
  retry: DEFAULT_RETRY_POLICY,
  mode: "dependency",
  maxResultChars: MAX_RESULT_CHARS,
  answerWriter: false,
  groundedness: false,
} as const satisfies Partial<RunAgentOptions>;

/** The prompt budget and how tokens are counted (undefined: never trim). */
export interface PromptWindow {
  budget: number;
  count: (text: string) => number;
  keepRecentRounds?: number;
}

/** The options with their defaults applied, grouped. */
export interface RunSettings {
  model: { llm: Llm; planOutput: PlanOutput; generation: GenerationOptions };
  tools: { client: ToolClient; catalog?: ToolInfo[]; workspace?: StagedWorkspace; offerAskUser: boolean };
  prompt: {
    question: string;
    history: ChatMessage[];
    context?: string;
    systemPrompt?: string;
    role?: string;
    today?: string;
    userCtx?: Record<string, unknown>;
  };
  limits: {
    maxIterations: number;
    forceFinalOnLastIteration: boolean;
    toolTimeoutMs: number;
    retry: RetryPolicy;
    mode: ScheduleMode;
    maxResultChars: number;
    window?: PromptWindow;
  };
  safety: { approval: ApprovalPolicy; approve?: ApproveFn; askUser?: AskUserFn };
  post: { answerWriter: boolean; groundedness?: GroundednessCheck };
  signal?: AbortSignal;
  /** Called with every event of the run as it happens (the same events end up in the trace). */
  onEvent?: (event: AgentEvent) => void;
}

/** The prompt budget: the model's context minus room for the reply and the chat template. */
function promptWindow(options: RunAgentOptions): PromptWindow | undefined {
  if (options.contextWindow === false) return undefined;
  const settings = options.contextWindow ?? {};
  const contextSize = options.llm.info.contextSize;
  const reply = options.generation?.maxTokens ?? (contextSize ? Math.min(1024, Math.floor(contextSize / 4)) : 1024);
  const budget =
    settings.maxPromptTokens ?? (contextSize ? contextSize - reply - 64 - Math.ceil(contextSize * 0.03) : undefined);
  if (budget === undefined || budget <= 0) return undefined;
  return {
    budget,
    count: settings.countTokens ?? tokenCounter(options.llm).count,
    keepRecentRounds: settings.keepRecentRounds,
  };
}

export function resolveOptions(options: RunAgentOptions): RunSettings {
  const d = RUN_DEFAULTS;
  const groundedness = options.groundedness ?? d.groundedness;
  return {
    model: {
      llm: options.llm,
      planOutput: options.planOutput ?? d.planOutput,
      generation: { ...options.generation, signal: options.signal },
    },
    tools: {
      client: combineToolClients(options.tools),
      catalog: options.catalog,
      workspace: options.workspace,
      offerAskUser: options.offerAskUser ?? d.offerAskUser,
    },
    prompt: {
      question: options.question,
      history: options.history ?? [],
      context: options.context,
      systemPrompt: options.systemPrompt,
      role: options.role,
      today: options.today,
      userCtx: options.userCtx,
    },
    limits: {
      maxIterations: Math.max(1, Math.floor(options.maxIterations ?? d.maxIterations)),
      forceFinalOnLastIteration: options.forceFinalOnLastIteration ?? d.forceFinalOnLastIteration,
      toolTimeoutMs: options.toolTimeoutMs ?? d.toolTimeoutMs,
      retry: { ...d.retry, ...options.retry },
      mode: options.mode ?? d.mode,
      maxResultChars: options.maxResultChars ?? d.maxResultChars,
      window: promptWindow(options),
    },
    safety: { approval: options.approval ?? {}, approve: options.approve, askUser: options.askUser },
    post: {
      answerWriter: options.answerWriter ?? d.answerWriter,
      groundedness: groundedness === true ? checkGroundedness : groundedness || undefined,
    },
    signal: options.signal,
    onEvent: options.onEvent,
  };
}
