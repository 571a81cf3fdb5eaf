// Runs the task set: each task k times (different seeds) in one style — the $ref plan (runAgent), the
// half-agent or native tool calling — turns every run into an EvalRun, checks it, and collects a report.
// The model and the tool clients are injected; the CLI (scripts/apps/eval/agent.ts) starts them.
import { runAgent, type AgentRunResult } from "../agent/loop.js";
import { checkGroundedness } from "../agent/groundedness.js";
import { PLAN_FEEDBACK_LEADS, TRAVEL_MATH_ROLE } from "../agent/prompts.js";
import type { AgentEvent } from "../agent/trace.js";
import type { ChatMessage, Llm } from "../llm/types.js";
import { createToolCaller } from "../llm/native-tools.js";
import { combineToolClients } from "../mcp/composite.js";
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import { runNativeToolChat } from "../patterns/native-tools.js";
import { runHalfAgentOnce } from "../patterns/style-comparison.js";
import { runVote } from "../patterns/vote.js";
import { errorText } from "../util.js";
import { checkRun, type CheckResult, type EvalCall, type EvalRun } from "./checks.js";
import {
  buildReport,
  type EvalReport,
  type EvalStyle,
  type RunMeta,
  type RunRecord,
  type TaskReport,
  type Ablation,
} from "./report.js";
import type { EvalTask, TaskSet } from "./tasks.js";

/** The model of one run: a real model (the same for every run) or a scripted stand-in per task and seed. */
export type PlannerFor = (
  task: EvalTask,
  seed: number,
) => {
  /** The model of this run. */
  llm: Llm;
  /** Gets the run's events (a scripted planner fills its answer from the tool results). */
  onEvent?: (event: AgentEvent) => void;
};

export interface EvaluationOptions {
  /** The task set the tasks come from (its version goes into the report). Required. */
  set: TaskSet;
  /** The tasks to run (all of `set.tasks` or a selection). Required. */
  tasks: readonly EvalTask[];
  /** Runs per task, whole number ≥ 1 (pass@1 and pass^k are over these). Required. */
  k: number;
  /** How a run answers: "plan" (runAgent), "half" (half-agent) or "native" (native tool calling). Required. */
  style: EvalStyle;
  /** The travel server's client, and the math server's for tasks that need it. Required. */
  tools: { reise: ToolClient; mathe?: ToolClient };
  /** The model of each run (a real one, or a scripted planner per task and seed). Required. */
  planner: PlannerFor;
  /** Plan style only: leave one part out — "feedback" (replans learn only that a plan failed), "grammar" (text plans), "vote" (3 runs voting). Default: none. */
  ablation?: Ablation;
  /** Longest reply per model call (default: the backend's own limit). */
  maxTokens?: number;
  /** Planning rounds per run (runAgent's maxIterations; default its own, 8). */
  maxRounds?: number;
  /** Seed of run r of task i: baseSeed + 1000 i + r (default 1). */
  baseSeed?: number;
  /** Stops between runs; the finished tasks stay in the report, marked incomplete. */
  signal?: AbortSignal;
  /** Called after every run (progress). */
  onRun?: (task: EvalTask, run: number, check: CheckResult) => void;
  /** Called after every finished task with the report so far (for writing partial results). */
  onTask?: (partial: EvalReport) => void;
  /** How and where the run is made (model, machine, date …), copied into the report. Default: none. */
  meta?: Partial<RunMeta>;
}

const BLIND_FEEDBACK =
  'Dein Plan war nicht verwendbar. Schicke einen neuen Plan als JSON-Objekt mit "steps" und "final".';

const FEEDBACK_LEADS = Object.values(PLAN_FEEDBACK_LEADS);

/** Ablation "feedback": the model learns that its plan failed, not why. */
export function withoutFeedback(llm: Llm): Llm {
  const blind = (messages: ChatMessage[]) =>
    messages.map((m) =>
      m.role === "user" && FEEDBACK_LEADS.some((lead) => m.content.startsWith(lead))
        ? { ...m, content: BLIND_FEEDBACK }
        : m,
    );
  return {
    get info() {
      return llm.info;
    },
    get lastMeter() {
      return llm.lastMeter;
    },
    chat: (messages, options) => llm.chat(blind(messages), options),
    generateJson: (schema, messages, options) => llm.generateJson(schema, blind(messages), options),
    dispose: () => llm.dispose(),
    ...(llm.createToolCaller ? { createToolCaller: () => llm.createToolCaller!() } : {}),
  } as Llm;
}

/** The calls of a plan run from its trace: every call that ran, and every write that was refused. */
export function callsOfTrace(events: readonly AgentEvent[]): EvalCall[] {
  const calls: EvalCall[] = [];
  const byId = new Map<string, EvalCall>();
  const planned = new Map<string, Record<string, unknown>>();
  for (const e of events) {
    if (e.type === "plan") for (const s of e.plan.steps) for (const t of s.tools) planned.set(t.id, t.arguments);
    if (e.type === "tool_call" && e.attempt === 1) {
      const call: EvalCall = { name: e.toolName, arguments: e.arguments, ok: false };
      calls.push(call);
      byId.set(e.toolId, call);
    }
    if (e.type === "tool_result") {
      const call = byId.get(e.toolId);
      if (call) Object.assign(call, { ok: true, result: e.result });
    }
    if (e.type === "approval" && !e.outcome.allowed)
      calls.push({ name: e.toolName, arguments: planned.get(e.toolId) ?? {}, ok: false });
  }
  return calls;
}

/** Plan validity and repairs: invalid replies (unparsable or with problems) and how many the next reply repaired. */
function planCounts(events: readonly AgentEvent[]): Pick<EvalRun, "validPlans" | "planReplies" | "repairedRounds"> {
  const verdicts: boolean[] = [];
  for (const e of events) {
    if (e.type === "plan") verdicts.push(true);
    if (e.type === "plan_error") verdicts.push(false);
    if (e.type === "validation_problems") verdicts[verdicts.length - 1] = false;
  }
  return {
    validPlans: verdicts.filter(Boolean).length,
    planReplies: verdicts.length,
    // An invalid reply whose feedback led straight to a valid plan.
    repairedRounds: verdicts.filter((v, i) => !v && verdicts[i + 1] === true).length,
  };
}

/** The EvalRun of one runAgent result: answer, calls, warnings, rounds, plan validity, prompt tokens, `ms`. */
export function planRun(result: AgentRunResult, ms: number): EvalRun {
  const events = result.trace.events;
  const meterTokens = events.reduce(
    (n, e) => n + ((e.type === "plan" || e.type === "plan_error") && e.meter ? e.meter.promptTokensEvaluated : 0),
    0,
  );
  return {
    answer: result.final,
    calls: callsOfTrace(events),
    warnings: result.warnings,
    rounds: events.filter((e) => e.type === "llm_request").length,
    status: result.status,
    ...planCounts(events),
    promptTokens: meterTokens,
    ms,
  };
}

/** The client (travel, or travel and math as one) and its catalog, listed once per evaluation. */
type Toolset = { client: ToolClient; catalog: ToolInfo[] };

function toolsetCache(tools: EvaluationOptions["tools"]): (task: EvalTask) => Promise<Toolset> {
  const cache = new Map<string, Promise<Toolset>>();
  return (task) => {
    const both = task.servers?.includes("mathe") === true && tools.mathe !== undefined;
    const key = both ? "reise+mathe" : "reise";
    let entry = cache.get(key);
    if (!entry) {
      const client = both ? combineToolClients({ reise: tools.reise, mathe: tools.mathe! }) : tools.reise;
      entry = client.listTools().then((catalog) => ({ client, catalog }));
      cache.set(key, entry);
    }
    return entry;
  };
}

function groundednessWarnings(task: EvalTask, answer: string, calls: readonly EvalCall[], today: string): string[] {
  const report = checkGroundedness({
    final: answer,
    question: task.question,
    context: task.context,
    toolResults: calls.filter((c) => c.ok).map((c) => c.result),
    otherSources: [...(task.history ?? []).map((m) => m.content), today],
    toolCalls: calls.length,
  });
  return report.warnings;
}

async function runOnce(o: EvaluationOptions, task: EvalTask, seed: number, toolset: Toolset): Promise<EvalRun> {
  const started = performance.now();
  const { llm: base, onEvent } = o.planner(task, seed);
  const llm = o.ablation === "feedback" ? withoutFeedback(base) : base;
  const { client, catalog } = toolset;
  const today = o.set.today;
  if (o.style === "plan") {
    const options = {
      llm,
      tools: client,
      catalog,
      question: task.question,
      history: task.history ?? [],
      context: task.context,
      today,
      ...(task.servers?.includes("mathe") ? { role: TRAVEL_MATH_ROLE } : {}),
      approve: () => task.approve ?? false,
      askUser: task.askUserAnswer !== undefined ? () => task.askUserAnswer ?? "" : undefined,
      groundedness: true,
      ...(o.maxRounds ? { maxIterations: o.maxRounds } : {}),
      planOutput: o.ablation === "grammar" ? ("text" as const) : ("auto" as const),
      generation: { seed, ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}) },
      onEvent,
      signal: o.signal,
    };
    if (o.ablation === "vote") {
      // A planner per vote run (scripted stand-ins keep state per run; a real model is the same each time).
      const planners = new Map<number, ReturnType<PlannerFor>>();
      const llmForRun = (run: number, s: number) => {
        const p = run === 0 ? { llm, onEvent } : o.planner(task, s);
        planners.set(run, p);
        return p.llm;
      };
      const { onEvent: _single, ...shared } = options;
      const vote = await runVote({
        ...shared,
        k: 3,
        baseSeed: seed,
        llmForRun,
        onRunEvent: (run, e) => planners.get(run)?.onEvent?.(e),
      });
      if (vote.winner)
        return { ...planRun(vote.winner, performance.now() - started), promptTokens: vote.promptTokensEvaluated };
      return {
        answer: vote.final,
        calls: [],
        warnings: [],
        rounds: 0,
        status: "no_winner",
        validPlans: 0,
        planReplies: 0,
        repairedRounds: 0,
        promptTokens: vote.promptTokensEvaluated,
        ms: performance.now() - started,
      };
    }
    return planRun(await runAgent(options), performance.now() - started);
  }
  if (o.style === "half") {
    const run = await runHalfAgentOnce({
      llm,
      tools: client,
      catalog,
      question: task.question,
      today,
      generation: { seed, ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}) },
    });
    const calls = run.toolHistory.map((h) => ({
      name: h.tool,
      arguments: h.arguments,
      ok: h.error === undefined,
      result: h.result,
    }));
    return finishOther(
      task,
      run.answer,
      calls,
      run.meters.length,
      run.meters.reduce((n, m) => n + m.promptTokensEvaluated, 0),
      started,
      today,
    );
  }
  const caller = await createToolCaller(llm);
  const run = await runNativeToolChat({
    llm: caller,
    tools: client,
    catalog,
    question: task.question,
    generation: { seed, ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}) },
    signal: o.signal,
  });
  const calls = run.calls
    .filter((c) => c.executed)
    .map((c) => ({
      name: c.name,
      arguments: (c.params ?? {}) as Record<string, unknown>,
      ok: c.error === undefined,
      result: c.result,
    }));
  return finishOther(task, run.answer, calls, run.rounds, run.promptTokensEvaluated, started, today);
}

function finishOther(
  task: EvalTask,
  answer: string,
  calls: EvalCall[],
  rounds: number,
  promptTokens: number,
  started: number,
  today: string,
): EvalRun {
  const warnings = groundednessWarnings(task, answer, calls, today);
  // No plans in these styles: plan validity stays empty ("–" in the table).
  return {
    answer,
    calls,
    warnings,
    rounds,
    status: "answered",
    validPlans: 0,
    planReplies: 0,
    repairedRounds: 0,
    promptTokens,
    ms: performance.now() - started,
  };
}

/** Runs every task k times; stops between runs when `signal` aborts (the finished tasks stay in the report). */
export async function runEvaluation(o: EvaluationOptions): Promise<EvalReport> {
  const finished: TaskReport[] = [];
  const ctx = { today: o.set.today, tolerance: o.set.coordinateToleranceDeg };
  const toolsetFor = toolsetCache(o.tools);
  const report = (complete: boolean) =>
    buildReport(finished, { ...o.meta, k: o.k, style: o.style, ablation: o.ablation, complete });
  for (const [i, task] of o.tasks.entries()) {
    const runs: RunRecord[] = [];
    for (let r = 0; r < o.k; r++) {
      if (o.signal?.aborted) return report(false);
      const seed = (o.baseSeed ?? 1) + 1000 * i + r;
      let run: EvalRun;
      try {
        run = await runOnce(o, task, seed, await toolsetFor(task));
      } catch (error) {
        if (o.signal?.aborted) return report(false);
        run = {
          answer: "",
          calls: [],
          warnings: [],
          rounds: 0,
          status: `error: ${errorText(error)}`,
          validPlans: 0,
          planReplies: 0,
          repairedRounds: 0,
          promptTokens: 0,
          ms: 0,
        };
      }
      if (o.signal?.aborted && run.status === "aborted") return report(false);
      const check = checkRun(task, run, ctx);
      runs.push({ seed, check, run });
      o.onRun?.(task, r, check);
    }
    finished.push({ id: task.id, category: task.category, question: task.question, runs });
    o.onTask?.(report(i === o.tasks.length - 1));
  }
  return report(true);
}
