// The end of a run: an answered run's answer is rewritten by the answer writer and checked for
// groundedness when asked for; then the `final` event, and the result object.
import type { ChatMessage } from "../llm/types.js";
import type { Plan } from "../plan/plan.js";
import { buildAnswerWriterMessages, writeAnswer } from "./answer-writer.js";
import { ASK_USER_TOOL_NAME } from "./ask-user.js";
import type { GroundednessReport } from "./groundedness.js";
import { emit, type RunState } from "./run-state.js";
import type { AgentTrace, RunStatus } from "./trace.js";
import type { StagedWorkspace } from "./workspace.js";
import { errorText } from "../util.js";

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

/** A second model call writes the answer from question, context and tool results only; on failure the planner's stays. */
async function rewriteAnswer(run: RunState, planned: string, warnings: string[]): Promise<string> {
  const { model, prompt, limits, signal } = run.settings;
  const window = limits.window;
  try {
    const input = {
      question: prompt.question,
      context: prompt.context,
      toolResults: { ...run.execution.results },
      today: prompt.today,
      maxResultChars: 1500,
    };
    // Many results: shorten each until the writer's prompt fits the window.
    const size = () =>
      buildAnswerWriterMessages(input).reduce((sum, m) => sum + (window?.count(m.content) ?? 0) + 8, 0);
    while (window && input.maxResultChars > 100 && size() > window.budget)
      input.maxResultChars = Math.floor(input.maxResultChars / 2);
    const text = await writeAnswer(model.llm, input, { signal });
    emit(run, { type: "answer_writer", draft: planned, text });
    return text;
  } catch (error) {
    if (signal?.aborted) throw error;
    emit(run, { type: "answer_writer", draft: planned, text: planned, error: errorText(error, { withName: true }) });
    warnings.push(
      `Antwort-Schreiber fehlgeschlagen, Antwort des Planers verwendet: ${errorText(error, { withName: true })}`,
    );
    return planned;
  }
}

/** The caller's groundedness check over everything the model was given. */
function checkAnswer(run: RunState, final: string): GroundednessReport | undefined {
  const check = run.settings.post.groundedness;
  if (!check) return undefined;
  const { prompt } = run.settings;
  const report = check({
    final,
    question: prompt.question,
    context: prompt.context,
    toolResults: Object.values(run.execution.results),
    otherSources: [...prompt.history.map((m) => m.content), prompt.today ?? ""],
    toolCalls: run.trace.events.filter((e) => e.type === "tool_call" && e.toolName !== ASK_USER_TOOL_NAME).length,
  });
  emit(run, {
    type: "groundedness",
    warnings: report.warnings,
    unsupported: report.unsupported.map((c) => c.text),
    noToolCalls: report.noToolCalls,
  });
  return report;
}

export async function finishRun(
  run: RunState,
  planned: string,
  status: RunStatus,
  error?: string,
): Promise<AgentRunResult> {
  const warnings: string[] = [];
  const answered = status === "answered";
  const final = answered && run.settings.post.answerWriter ? await rewriteAnswer(run, planned, warnings) : planned;
  const groundedness = answered ? checkAnswer(run, final) : undefined;
  if (groundedness) warnings.push(...groundedness.warnings);
  emit(run, { type: "final", text: final, status });
  run.trace.final = final;
  run.trace.status = status;
  return {
    final,
    status,
    trace: run.trace,
    iterations: run.iteration,
    messages: run.messages,
    toolResults: { ...run.execution.results },
    lastPlan: run.lastPlan,
    warnings,
    workspace: run.workspace,
    ...(groundedness ? { groundedness } : {}),
    ...(error ? { error } : {}),
  };
}
