// The agent loop: ask for a plan → validate → run the ready tools → append results → ask again,
// until the plan has an answer and no open step. The LLM, the tools, approval and event handling are
// injected; nothing here touches files or the network by itself.
//
// Plan output: with `planOutput: "auto"` (default) plans come from `llm.generateJson` with the plan
// grammar (buildPlanJsonSchema), so they always parse. If generateJson throws an error that says the
// backend cannot do it (JsonNotSupportedError), the loop switches to `llm.chat` + parsePlan for the
// rest of the run and emits an `output_fallback` event. Any other generation error counts as a failed round: the model is told and
// asked again; a second one in a row, or one that more rounds cannot fix (context overflow, lost
// connection, model not loadable: LlmError.fatal), ends the run with status "llm_error".
// "grammar" never falls back; "text" always uses chat + parsePlan.
//
// Prompt layout (stable prefix for KV-cache reuse): [system: planner prompt + catalog]
// [system: context] [history…] [user: question], then per iteration only appended messages:
// [assistant: plan] [user: tool results | problems | nudge].
import { DEFAULT_TOOL_TIMEOUT_MS } from "../timeouts.js";
import { JsonNotSupportedError, LlmError } from "../llm/errors.js";
import type { ChatMessage, GenerationOptions, Llm } from "../llm/types.js";
import { combineToolClients, type ToolClients } from "../mcp/composite.js";
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import { classifyTool, type ApprovalPolicy, type ApproveFn } from "./approval.js";
import { createExecutionState, DEFAULT_RETRY_POLICY, executeScope, type ExecutorEvent, type RetryPolicy } from "./executor.js";
import { buildFinalAnswerJsonSchema, buildPlanJsonSchema, parsePlan, parsePlanValue, type Plan, type PlanParseError, type PlanToolCall } from "../plan/plan.js";
import {
  ABORTED_ANSWER,
  buildPlannerSystemPrompt,
  contextMessage,
  FALLBACK_ANSWER,
  llmErrorAnswer,
  NUDGE_MESSAGE,
  planParseErrorMessage,
  planProblemsMessage,
  toolResultsMessage,
} from "./prompts.js";
import { iterationScope, openCalls, type ScheduleMode } from "../plan/schedule.js";
import { createTrace, type AgentEvent, type AgentTrace, type PlanVia, type RunStatus } from "./trace.js";
import { checkPlan } from "../plan/check.js";
import { tokenCounter } from "../llm/tokens.js";
import { buildAnswerWriterMessages, writeAnswer } from "./answer-writer.js";
import { ASK_USER_TOOL, ASK_USER_TOOL_NAME, type AskUserFn } from "./ask-user.js";
import { checkGroundedness, type GroundednessInput, type GroundednessReport } from "./groundedness.js";
import { fitToWindow, wasTrimmed, type WindowReport } from "./window.js";
import { untilAborted } from "../util.js";
import { hideStagingFields, StagedWorkspace } from "./workspace.js";

export interface RunAgentOptions {
  question: string;
  llm: Llm;
  /** One tool client, or several by alias ({ reise, mathe }): merged by lib/mcp's CompositeToolClient. */
  tools: ToolClient | ToolClients;
  /** The tool catalog; default `await tools.listTools()`. */
  catalog?: ToolInfo[];
  /** Earlier conversation, inserted between the system messages and the question. */
  history?: ChatMessage[];
  /** Retrieved context (RAG), sent as its own system message. */
  context?: string;
  /** Replaces the planner system prompt (default buildPlannerSystemPrompt(catalog, …)). */
  systemPrompt?: string;
  /** Replaces the travel persona of the default planner prompt (e.g. TRAVEL_MATH_ROLE with the math server). */
  role?: string;
  /** Today's date for the prompt and `user.today` (YYYY-MM-DD). */
  today?: string;
  /** Planning rounds before giving up (default 8). */
  maxIterations?: number;
  approve?: ApproveFn;
  approval?: ApprovalPolicy;
  onEvent?: (event: AgentEvent) => void;
  /** Extra fields for `user.*` references; `raw` (the question) is always there. */
  userCtx?: Record<string, unknown>;
  /** Per tool call (default DEFAULT_TOOL_TIMEOUT_MS = 30 000 ms, longer than the travel server's upstream deadline; lib/timeouts.ts). */
  toolTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** How tool calls run (default "dependency"; see schedule.ts). */
  mode?: ScheduleMode;
  /** How plans are generated (default "auto", see the file comment). */
  planOutput?: "auto" | "grammar" | "text";
  /** Sampling options for every planning call. */
  generation?: Omit<GenerationOptions, "signal">;
  /** In the last round, allow only an answer (default true). */
  forceFinalOnLastIteration?: boolean;
  /** Longest tool result (characters of JSON) shown to the model (default 3000, so a few results fit an 8k context). */
  maxResultChars?: number;
  signal?: AbortSignal;
  /** Answers the planner's `ask_user` calls (notebook input, terminal); without it they fail with „Rückfrage nicht möglich". */
  askUser?: AskUserFn;
  /** Offer the `ask_user` tool to the planner (default true). */
  offerAskUser?: boolean;
  /** Where side-effecting calls are staged before approval (default: a fresh StagedWorkspace for this run). */
  workspace?: StagedWorkspace;
  /** Let a second model call write the final answer from question, context and tool results only (default false). */
  answerWriter?: boolean;
  /**
   * Check the answer against its sources (default off). true: the travel heuristic checkGroundedness
   * (numbers, dates, places; groundedness.ts); a function: the caller's own check. Warnings in the trace.
   */
  groundedness?: boolean | ((input: GroundednessInput) => GroundednessReport);
  /**
   * The sliding window: tokens the prompt may use (default: the model's context size minus room for the
   * reply) and how tokens are counted (default: the model's tokenizer, else an estimate). false = never trim.
   */
  contextWindow?: false | { maxPromptTokens?: number; countTokens?: (text: string) => number; keepRecentRounds?: number };
}

export interface AgentRunResult {
  final: string;
  status: RunStatus;
  trace: AgentTrace;
  /** Planning rounds used. */
  iterations: number;
  /** The whole conversation as sent to the model (for a follow-up question). */
  messages: ChatMessage[];
  /** Results of successful tool calls by id. */
  toolResults: Record<string, unknown>;
  lastPlan?: Plan;
  /** The backend's error when status is "llm_error". */
  error?: string;
  /** Groundedness and answer-writer warnings (German), also in the trace. */
  warnings: string[];
  groundedness?: GroundednessReport;
  /** The run's staged and committed changes. */
  workspace: StagedWorkspace;
}

/** Generation errors another round cannot fix (the prompt only grows, the server stays down). */
function isFatalLlmError(error: unknown): boolean {
  return error instanceof LlmError && error.fatal;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

type ReplyError = Pick<PlanParseError, "kind" | "message"> | { kind: "generation"; message: string; fatal: boolean };
type PlanReply = { ok: true; plan: Plan; raw: string; via: PlanVia; error?: undefined } | { ok: false; error: ReplyError; raw: string; via: PlanVia; plan?: undefined };

/** The prompt budget: the model's context minus room for the reply and the chat template. */
function windowSettings(options: RunAgentOptions): { budget: number; count: (text: string) => number; keepRecentRounds?: number } | undefined {
  if (options.contextWindow === false) return undefined;
  const settings = options.contextWindow ?? {};
  const contextSize = options.llm.info.contextSize;
  const reply = options.generation?.maxTokens ?? (contextSize ? Math.min(1024, Math.floor(contextSize / 4)) : 1024);
  const budget = settings.maxPromptTokens ?? (contextSize ? contextSize - reply - 64 - Math.ceil(contextSize * 0.03) : undefined);
  if (budget === undefined || budget <= 0) return undefined;
  return { budget, count: settings.countTokens ?? tokenCounter(options.llm).count, keepRecentRounds: settings.keepRecentRounds };
}

export async function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const started = performance.now();
  const mode = options.mode ?? "dependency";
  const maxIterations = Math.max(1, Math.floor(options.maxIterations ?? 8));
  const trace = createTrace(options.question, mode);
  let iteration = 0;
  const emit = (event: ExecutorEvent | AgentEvent) => {
    const full = { ...event, iteration, atMs: Math.round((performance.now() - started) * 10) / 10 } as AgentEvent;
    trace.events.push(full);
    options.onEvent?.(full);
  };

  const tools = combineToolClients(options.tools);
  const serverCatalog = options.catalog ?? (await tools.listTools());
  const workspace = options.workspace ?? new StagedWorkspace(tools, serverCatalog);
  // The planner sees write tools without their staging fields, plus ask_user.
  const offerAsk = options.offerAskUser !== false && !serverCatalog.some((t) => t.name === ASK_USER_TOOL_NAME);
  const catalog = [...serverCatalog.map(hideStagingFields), ...(offerAsk ? [ASK_USER_TOOL] : [])];
  const byName = new Map(catalog.map((t) => [t.name, t]));
  const userCtx: Record<string, unknown> = { raw: options.question, ...(options.today ? { today: options.today } : {}), ...options.userCtx };
  const systemPrompt = options.systemPrompt ?? buildPlannerSystemPrompt(catalog, { userFields: Object.keys(userCtx), today: options.today, role: options.role });
  const messages: ChatMessage[] = [{ role: "system", content: systemPrompt }];
  if (options.context) messages.push({ role: "system", content: contextMessage(options.context) });
  const headCount = messages.length;
  messages.push(...(options.history ?? []), { role: "user", content: options.question });
  const questionIndex = messages.length - 1;
  const window = windowSettings(options);
  let lastWindow: WindowReport | undefined;
  /** What is sent: the whole conversation, or the sliding window of it when it would not fit. */
  const promptMessages = (): ChatMessage[] => {
    if (!window) return messages;
    const { messages: sent, report } = fitToWindow(
      { head: messages.slice(0, headCount), history: messages.slice(headCount, questionIndex), question: messages[questionIndex]!, rounds: messages.slice(questionIndex + 1) },
      { budgetTokens: window.budget, count: window.count, keepRecentRounds: window.keepRecentRounds },
    );
    if (wasTrimmed(report) && JSON.stringify(report) !== JSON.stringify(lastWindow)) emit({ type: "history_trimmed", report });
    lastWindow = report;
    return sent;
  };

  const planSchema = buildPlanJsonSchema(catalog);
  const finalSchema = buildFinalAnswerJsonSchema();
  let via: PlanVia = options.planOutput === "text" ? "text" : "grammar";
  const generation: GenerationOptions = { ...options.generation, signal: options.signal };
  const state = createExecutionState();
  const retry: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  let lastPlan: Plan | undefined;

  emit({ type: "run_start", question: options.question, mode, maxIterations, tools: catalog.map((t) => t.name), ...(options.today ? { today: options.today } : {}) });

  const askPlan = async (forceFinal: boolean): Promise<PlanReply> => {
    const sent = promptMessages();
    emit({ type: "llm_request", via, forceFinal, messageCount: sent.length });
    if (via === "grammar") {
      try {
        const value = await untilAborted(options.llm.generateJson(forceFinal ? finalSchema : planSchema, sent, generation), options.signal);
        const raw = JSON.stringify(value) ?? "";
        const parsed = parsePlanValue(value, raw);
        return parsed.ok ? { ok: true, plan: parsed.plan, raw, via } : { ok: false, error: parsed.error, raw, via };
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (!(options.planOutput !== "grammar" && error instanceof JsonNotSupportedError)) {
          return { ok: false, error: { kind: "generation", message: errorMessage(error), fatal: isFatalLlmError(error) }, raw: "", via };
        }
        via = "text";
        emit({ type: "output_fallback", message: `generateJson wird nicht unterstützt (${errorMessage(error)}); weiter mit chat() und parsePlan.` });
      }
    }
    let text: string;
    try {
      text = (await untilAborted(options.llm.chat(sent, generation), options.signal)).text;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { ok: false, error: { kind: "generation", message: errorMessage(error), fatal: isFatalLlmError(error) }, raw: "", via };
    }
    const parsed = parsePlan(text);
    return parsed.ok ? { ok: true, plan: parsed.plan, raw: text, via } : { ok: false, error: parsed.error, raw: text, via };
  };

  const finish = async (planned: string, status: RunStatus, error?: string): Promise<AgentRunResult> => {
    let final = planned;
    const warnings: string[] = [];
    let groundedness: GroundednessReport | undefined;
    if (status === "answered" && options.answerWriter) {
      try {
        const input = { question: options.question, context: options.context, toolResults: { ...state.results }, today: options.today, maxResultChars: 1500 };
        // Many results: shorten each until the writer's prompt fits the window.
        const size = () => buildAnswerWriterMessages(input).reduce((sum, m) => sum + (window?.count(m.content) ?? 0) + 8, 0);
        while (window && input.maxResultChars > 100 && size() > window.budget) input.maxResultChars = Math.floor(input.maxResultChars / 2);
        final = await writeAnswer(options.llm, input, { signal: options.signal });
        emit({ type: "answer_writer", draft: planned, text: final });
      } catch (writerError) {
        if (options.signal?.aborted) throw writerError;
        emit({ type: "answer_writer", draft: planned, text: planned, error: errorMessage(writerError) });
        warnings.push(`Antwort-Schreiber fehlgeschlagen, Antwort des Planers verwendet: ${errorMessage(writerError)}`);
      }
    }
    if (status === "answered" && options.groundedness) {
      const check = options.groundedness === true ? checkGroundedness : options.groundedness;
      const toolCalls = trace.events.filter((e) => e.type === "tool_call" && e.toolName !== ASK_USER_TOOL_NAME).length;
      groundedness = check({
        final,
        question: options.question,
        context: options.context,
        toolResults: Object.values(state.results),
        otherSources: [...(options.history ?? []).map((m) => m.content), options.today ?? ""],
        toolCalls,
      });
      emit({ type: "groundedness", warnings: groundedness.warnings, unsupported: groundedness.unsupported.map((c) => c.text), noToolCalls: groundedness.noToolCalls });
      warnings.push(...groundedness.warnings);
    }
    emit({ type: "final", text: final, status });
    trace.final = final;
    trace.status = status;
    return {
      final,
      status,
      trace,
      iterations: iteration,
      messages,
      toolResults: { ...state.results },
      lastPlan,
      warnings,
      workspace,
      ...(groundedness ? { groundedness } : {}),
      ...(error ? { error } : {}),
    };
  };

  let forceFinal = false;
  let generationErrors = 0;
  try {
    for (iteration = 1; iteration <= maxIterations; iteration++) {
      if (options.signal?.aborted) return await finish(ABORTED_ANSWER, "aborted");
      const finalRound = forceFinal || (iteration === maxIterations && options.forceFinalOnLastIteration !== false);
      const reply = await askPlan(finalRound);
      const meter = options.llm.lastMeter;
      messages.push({ role: "assistant", content: reply.raw || "(keine Ausgabe)" });
      if (!reply.ok) {
        emit({ type: "plan_error", kind: reply.error.kind, message: reply.error.message, raw: reply.raw, meter });
        if (reply.error.kind === "generation") {
          // A failing backend twice in a row (or an error more rounds cannot fix) ends the run.
          generationErrors++;
          if (("fatal" in reply.error && reply.error.fatal) || generationErrors >= 2) {
            messages.pop();
            return await finish(llmErrorAnswer(reply.error.message), "llm_error", reply.error.message);
          }
        }
        messages.push({ role: "user", content: planParseErrorMessage(reply.error) });
        continue;
      }
      generationErrors = 0;
      const plan = reply.plan;
      lastPlan = plan;
      emit({ type: "plan", plan, raw: reply.raw, via: reply.via, meter });
      const final = plan.final !== null && plan.final.trim() !== "" ? plan.final : null;

      const { problems, prepared } = checkPlan(plan, catalog, {
        executed: state.executed,
        toolResults: state.results,
        userCtx,
        blocked: options.approval?.blocked,
      });
      const hasRun = (id: string) => state.executed.has(id);
      const open = openCalls(plan, hasRun);
      if (problems.length > 0) {
        // An answer with broken leftovers in the plan is still an answer once nothing is open to run.
        if (final !== null && (open.length === 0 || finalRound)) return await finish(final, "answered");
        emit({ type: "validation_problems", problems });
        messages.push({ role: "user", content: planProblemsMessage(problems) });
        continue;
      }
      if (open.length === 0 || finalRound) {
        if (final !== null) return await finish(final, "answered");
        // Steps ran out without an answer (or no room is left for tools): ask for the answer only.
        if (iteration < maxIterations) {
          emit({ type: "nudge", message: NUDGE_MESSAGE });
          messages.push({ role: "user", content: NUDGE_MESSAGE });
        }
        forceFinal = true;
        continue;
      }

      // Calls that change something keep the model's step order even in dependency mode (schedule.ts).
      const isReadOnly = (call: PlanToolCall) => classifyTool(byName.get(call.name), call.name, options.approval) === "read-only";
      const scope = iterationScope(plan, hasRun, mode, { isReadOnly });
      const outcomes = await executeScope(plan, scope, state, {
        client: tools,
        catalog: byName,
        mode,
        toolTimeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
        retry,
        approval: options.approval ?? {},
        approve: options.approve,
        workspace,
        askUser: options.askUser,
        userCtx,
        prepared,
        emit,
        signal: options.signal,
      });
      messages.push({ role: "user", content: toolResultsMessage(outcomes, { maxResultChars: options.maxResultChars }) });
    }
  } catch (error) {
    if (options.signal?.aborted) return await finish(ABORTED_ANSWER, "aborted");
    throw error;
  }
  iteration = maxIterations;
  return await finish(FALLBACK_ANSWER, "max_iterations");
}
