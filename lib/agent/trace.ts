// The trace of an agent run: its typed events in order, saved as JSON, and counted in a summary.
// Renderings (text table, diagrams) live in lib/display.
import { writeFileAtomic } from "../files.js";
import type { AgentEvent, AgentEventType, RunStatus } from "./events.js";
import type { ScheduleMode } from "../plan/schedule.js";

export type { AgentEvent, AgentEventType, PlanVia, RunStatus, ToolErrorKind } from "./events.js";

export interface AgentTrace {
  version: 1;
  question: string;
  mode: ScheduleMode;
  startedAt: string;
  events: AgentEvent[];
  final?: string;
  status?: RunStatus;
}

export function createTrace(question: string, mode: ScheduleMode, startedAt = new Date()): AgentTrace {
  return { version: 1, question, mode, startedAt: startedAt.toISOString(), events: [] };
}

export function traceToJson(trace: AgentTrace): string {
  return JSON.stringify(trace, null, 2);
}

/** Writes the trace as JSON (e.g. for `--trace out.json`), atomically: never half a file. */
export async function saveTrace(trace: AgentTrace, path: string): Promise<void> {
  await writeFileAtomic(path, traceToJson(trace) + "\n");
}

export interface TraceSummary {
  iterations: number;
  llmCalls: number;
  plans: number;
  planErrors: number;
  validationRounds: number;
  /** Tool calls that ran (at least one attempt); calls that were held back or blocked do not count. */
  toolCalls: number;
  /** Of those, how many ended in an error. */
  toolErrors: number;
  nudges: number;
  status?: RunStatus;
}

/** Counts of a run's trace: rounds, model calls, plans and their errors, tool calls and failures, nudges. */
export function summarizeTrace(trace: AgentTrace): TraceSummary {
  const count = (type: AgentEventType) => trace.events.filter((e) => e.type === type).length;
  // An error with attempts 0 (held back, refused, unresolvable $ref …) never reached the tool.
  const ranAndFailed = trace.events.filter((e) => e.type === "tool_error" && e.attempts > 0).length;
  return {
    iterations: new Set(trace.events.filter((e) => e.iteration > 0).map((e) => e.iteration)).size,
    llmCalls: count("llm_request"),
    plans: count("plan"),
    planErrors: count("plan_error"),
    validationRounds: count("validation_problems"),
    toolCalls: count("tool_result") + ranAndFailed,
    toolErrors: ranAndFailed,
    nudges: count("nudge"),
    status: trace.status,
  };
}

/** Total duration of a run in ms (time of its last event). */
export function traceDurationMs(trace: AgentTrace): number {
  return Math.round(trace.events[trace.events.length - 1]?.atMs ?? 0);
}
