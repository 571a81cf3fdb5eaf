// Everything one run of runAgent keeps, in one object: the settings, the catalog the planner sees, the
// conversation, what the tools returned, the trace, and the counters the stop rules read.
//
// Prompt layout (stable prefix for KV-cache reuse): [system: planner prompt + catalog]
// [system: context] [history…] [user: question], then per round only appended messages:
// [assistant: plan] [user: tool results | problems | nudge].
import type { ChatMessage, JsonSchema } from "../llm/types.js";
import { contextMessage, todayMessage } from "../llm/messages.js";
import type { ToolInfo } from "../mcp/types.js";
import { buildFinalAnswerJsonSchema, buildPlanJsonSchema, type Plan } from "../plan/plan.js";
import { ASK_USER_TOOL, ASK_USER_TOOL_NAME } from "./ask-user.js";
import { createExecutionState, type ExecutionState, type ExecutorEvent } from "./executor.js";
import { buildPlannerSystemPrompt } from "./prompts.js";
import type { RunSettings } from "./run-options.js";
import { createTrace, type AgentEvent, type AgentTrace, type PlanVia } from "./trace.js";
import { fitToWindow, wasTrimmed, type WindowReport } from "./window.js";
import { hideStagingFields, StagedWorkspace } from "./workspace.js";

export interface RunState {
  readonly settings: RunSettings;
  readonly startedAt: number;
  readonly trace: AgentTrace;
  /** What the planner sees: the server's tools without staging fields, plus ask_user. */
  readonly catalog: ToolInfo[];
  readonly byName: ReadonlyMap<string, ToolInfo>;
  readonly schemas: { plan: JsonSchema; final: JsonSchema };
  /** For `user.*` references. */
  readonly userCtx: Record<string, unknown>;
  readonly workspace: StagedWorkspace;
  /** Results and executed ids of tool calls (mutated by the executor). */
  readonly execution: ExecutionState;
  /** The whole conversation; `headCount` system messages, then history, the question at `questionIndex`, then the rounds. */
  readonly messages: ChatMessage[];
  readonly headCount: number;
  readonly questionIndex: number;
  /** The current planning round (1-based; 0 before the first). */
  iteration: number;
  via: PlanVia;
  /** Only an answer is allowed from now on. */
  forceFinal: boolean;
  /** Generation errors in a row. */
  generationErrors: number;
  lastPlan?: Plan;
  lastWindow?: WindowReport;
}

/** Records an event in the trace (with round and time) and hands it to `onEvent`. */
export function emit(run: RunState, event: ExecutorEvent | AgentEvent): void {
  const full = {
    ...event,
    iteration: run.iteration,
    atMs: Math.round((performance.now() - run.startedAt) * 10) / 10,
  } as AgentEvent;
  run.trace.events.push(full);
  run.settings.onEvent?.(full);
}

/** Lists the tools (unless given), builds the prompt and emits `run_start`. */
export async function startRun(settings: RunSettings): Promise<RunState> {
  const startedAt = performance.now();
  const { prompt, tools, limits } = settings;
  const trace = createTrace(prompt.question, limits.mode);
  const serverCatalog = tools.catalog ?? (await tools.client.listTools());
  const offerAsk = tools.offerAskUser && !serverCatalog.some((t) => t.name === ASK_USER_TOOL_NAME);
  const catalog = [...serverCatalog.map(hideStagingFields), ...(offerAsk ? [ASK_USER_TOOL] : [])];
  const userCtx: Record<string, unknown> = {
    raw: prompt.question,
    ...(prompt.today ? { today: prompt.today } : {}),
    ...prompt.userCtx,
  };
  const systemPrompt =
    prompt.systemPrompt ?? buildPlannerSystemPrompt(catalog, { userFields: Object.keys(userCtx), role: prompt.role });
  const messages: ChatMessage[] = [{ role: "system", content: systemPrompt }];
  if (prompt.today) messages.push(todayMessage(prompt.today));
  if (prompt.context) messages.push(contextMessage(prompt.context));
  const headCount = messages.length;
  messages.push(...prompt.history, { role: "user", content: prompt.question });
  const run: RunState = {
    settings,
    startedAt,
    trace,
    catalog,
    byName: new Map(catalog.map((t) => [t.name, t])),
    schemas: { plan: buildPlanJsonSchema(catalog), final: buildFinalAnswerJsonSchema() },
    userCtx,
    workspace: tools.workspace ?? new StagedWorkspace(tools.client, serverCatalog),
    execution: createExecutionState(),
    messages,
    headCount,
    questionIndex: messages.length - 1,
    iteration: 0,
    via: settings.model.planOutput === "text" ? "text" : "grammar",
    forceFinal: false,
    generationErrors: 0,
  };
  const today = prompt.today ? { today: prompt.today } : {};
  emit(run, {
    type: "run_start",
    question: prompt.question,
    mode: limits.mode,
    maxIterations: limits.maxIterations,
    tools: catalog.map((t) => t.name),
    ...today,
  });
  return run;
}

/** What is sent: the whole conversation, or the sliding window of it when it would not fit (emits `history_trimmed`). */
export function promptMessages(run: RunState): ChatMessage[] {
  const window = run.settings.limits.window;
  if (!window) return run.messages;
  const { messages, headCount, questionIndex } = run;
  const { messages: sent, report } = fitToWindow(
    {
      head: messages.slice(0, headCount),
      history: messages.slice(headCount, questionIndex),
      question: messages[questionIndex]!,
      rounds: messages.slice(questionIndex + 1),
    },
    { budgetTokens: window.budget, count: window.count, keepRecentRounds: window.keepRecentRounds },
  );
  if (wasTrimmed(report) && JSON.stringify(report) !== JSON.stringify(run.lastWindow))
    emit(run, { type: "history_trimmed", report });
  run.lastWindow = report;
  return sent;
}
