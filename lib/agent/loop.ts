// The agent loop: ask for a plan → check it → run the ready tools → append the results → ask again,
// until the plan has an answer and no open step. The LLM, the tools, approval and event handling are
// injected; nothing here touches files or the network by itself.
//
// The parts, each in its own file: the options and their defaults (run-options.ts), the run's state and
// prompt (run-state.ts), one planning call (plan-call.ts), the tool calls of one round (executor.ts),
// and the end of a run: answer writer, groundedness, result (finish.ts). What ends a run is said by the
// small stop rules below.
import type { Plan, PlanToolCall } from "../plan/plan.js";
import { checkPlan } from "../plan/check.js";
import { iterationScope, pendingCalls } from "../plan/schedule.js";
import { classifyTool } from "./approval.js";
import { executeScope, type ToolOutcome } from "./executor.js";
import { finishRun, type AgentRunResult } from "./finish.js";
import { requestPlan, type ReplyError } from "./plan-call.js";
import {
  ABORTED_ANSWER,
  FALLBACK_ANSWER,
  llmErrorAnswer,
  NUDGE_MESSAGE,
  planParseErrorMessage,
  planProblemsMessage,
  toolResultsMessage,
} from "./prompts.js";
import { resolveOptions, type RunAgentOptions } from "./run-options.js";
import { emit, promptMessages, startRun, type RunState } from "./run-state.js";

export type { AgentRunResult } from "./finish.js";
export type { RunAgentOptions } from "./run-options.js";

// Stop rules: small named decisions the loop reads from top to bottom.

/** All rounds used. */
function outOfRounds(run: RunState): boolean {
  return run.iteration > run.settings.limits.maxIterations;
}

/** Only an answer is allowed: after a nudge, or in the last round (unless forceFinalOnLastIteration is false). */
function isFinalRound(run: RunState): boolean {
  const { maxIterations, forceFinalOnLastIteration } = run.settings.limits;
  return run.forceFinal || (run.iteration === maxIterations && forceFinalOnLastIteration);
}

/** A failing backend twice in a row, or once with an error more rounds cannot fix, ends the run. */
function tooManyGenerationErrors(run: RunState, error: ReplyError): boolean {
  return error.kind === "generation" && (!error.retryable || run.generationErrors >= 2);
}

/** The plan's answer, if it has one. */
function answerOf(plan: Plan): string | null {
  return plan.final !== null && plan.final.trim() !== "" ? plan.final : null;
}

/** An answer ends the run once nothing is open to run (or no round is left for tools), even with broken leftovers in the plan. */
function answeredWithNothingOpen(final: string | null, open: readonly unknown[], finalRound: boolean): final is string {
  return final !== null && (open.length === 0 || finalRound);
}

/** Steps ran out without an answer (or no round is left for tools): ask for the answer only. */
function needsAnswerOnly(open: readonly unknown[], finalRound: boolean): boolean {
  return open.length === 0 || finalRound;
}

/** Runs this round's ready calls; calls that change something keep the model's step order even in dependency mode (schedule.ts). */
function runTools(
  run: RunState,
  plan: Plan,
  prepared: ReadonlyMap<string, Record<string, unknown>>,
): Promise<ToolOutcome[]> {
  const { limits, safety, signal } = run.settings;
  const isReadOnly = (call: PlanToolCall) =>
    classifyTool(run.byName.get(call.name), call.name, safety.approval) === "read-only";
  const scope = iterationScope(plan, (id) => run.execution.executed.has(id), limits.mode, { isReadOnly });
  return executeScope(plan, scope, run.execution, {
    client: run.settings.tools.client,
    catalog: run.byName,
    mode: limits.mode,
    toolTimeoutMs: limits.toolTimeoutMs,
    retry: limits.retry,
    approval: safety.approval,
    approve: safety.approve,
    workspace: run.workspace,
    askUser: safety.askUser,
    userCtx: run.userCtx,
    prepared,
    emit: (event) => emit(run, event),
    signal,
  });
}

/**
 * Answers `options.question` with the model and the tools: plans, runs the ready tool calls, plans
 * again with their results, until the plan has a final answer or the rounds are used up. Never throws
 * for a model or tool failure: the result's status and trace say what happened.
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const settings = resolveOptions(options);
  const { model, limits, signal } = settings;
  const run = await startRun(settings);
  try {
    for (run.iteration = 1; !outOfRounds(run); run.iteration++) {
      if (signal?.aborted) return await finishRun(run, ABORTED_ANSWER, "aborted");
      const finalRound = isFinalRound(run);
      const reply = await requestPlan({
        llm: model.llm,
        messages: promptMessages(run),
        schema: finalRound ? run.schemas.final : run.schemas.plan,
        forceFinal: finalRound,
        planOutput: model.planOutput,
        via: run.via,
        generation: model.generation,
        emit: (event) => emit(run, event),
      });
      run.via = reply.via;
      const meter = model.llm.lastMeter;
      run.messages.push({ role: "assistant", content: reply.raw || "(keine Ausgabe)" });

      if (!reply.ok) {
        emit(run, { type: "plan_error", kind: reply.error.kind, message: reply.error.message, raw: reply.raw, meter });
        if (reply.error.kind === "generation") run.generationErrors++;
        if (tooManyGenerationErrors(run, reply.error)) {
          run.messages.pop();
          return await finishRun(run, llmErrorAnswer(reply.error.message), "llm_error", reply.error.message);
        }
        run.messages.push({ role: "user", content: planParseErrorMessage(reply.error) });
        continue;
      }
      run.generationErrors = 0;
      const plan = (run.lastPlan = reply.plan);
      emit(run, { type: "plan", plan, raw: reply.raw, via: reply.via, meter });

      const { problems, prepared } = checkPlan(plan, run.catalog, {
        executed: run.execution.executed,
        toolResults: run.execution.results,
        userCtx: run.userCtx,
        blocked: settings.safety.approval.blocked,
      });
      const open = pendingCalls(plan, (id) => run.execution.executed.has(id));
      const final = answerOf(plan);
      if (answeredWithNothingOpen(final, open, finalRound)) return await finishRun(run, final, "answered");
      if (problems.length > 0) {
        emit(run, { type: "validation_problems", problems });
        run.messages.push({ role: "user", content: planProblemsMessage(problems) });
        continue;
      }
      if (needsAnswerOnly(open, finalRound)) {
        if (run.iteration < limits.maxIterations) {
          emit(run, { type: "nudge", message: NUDGE_MESSAGE });
          run.messages.push({ role: "user", content: NUDGE_MESSAGE });
        }
        run.forceFinal = true;
        continue;
      }

      const outcomes = await runTools(run, plan, prepared);
      run.messages.push({
        role: "user",
        content: toolResultsMessage(outcomes, { maxResultChars: limits.maxResultChars }),
      });
    }
  } catch (error) {
    if (signal?.aborted) return await finishRun(run, ABORTED_ANSWER, "aborted");
    throw error;
  }
  run.iteration = limits.maxIterations;
  return await finishRun(run, FALLBACK_ANSWER, "max_iterations");
}
