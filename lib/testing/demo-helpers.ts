// Helpers the presentation notebooks (Teil 3 and 4) call in one line: a scripted "good model" for a
// plan, a tool client that answers slowly, and short previews of long texts and JSON (pictures and
// tables of a run: lib/display). They show the agent at work; they are not what the notebooks teach.
import type { ToolClient } from "../mcp/types.js";
import type { PlanStep } from "../plan/plan.js";
import { ScriptedLlm } from "./scripted-llm.js";
import type { AgentEvent, AgentTrace } from "../agent/trace.js";

/** The first `maxLines` lines of a text, then "… N weitere Zeilen" when there are more. */
export function firstLines(text: string, maxLines = 12): string {
  const lines = text.split("\n");
  if (lines.length <= maxLines) return text;
  const more = lines.length - maxLines;
  return `${lines.slice(0, maxLines).join("\n")}\n… ${more} weitere ${more === 1 ? "Zeile" : "Zeilen"}`;
}

/** A value as indented JSON, cut to its first lines (see firstLines). */
export function jsonPreview(value: unknown, maxLines = 12): string {
  return firstLines(JSON.stringify(value, null, 2) ?? String(value), maxLines);
}

/** A value as one line of JSON, cut after `max` characters. */
export function shortJson(value: unknown, max = 200): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

export interface ScriptedPlanRun {
  /** Stands in for the model: sends the plan until every tool has run, then the answer. */
  llm: ScriptedLlm;
  /** Pass to runAgent: records tool results for the answer (and forwards every event to `watch`). */
  onEvent: (event: AgentEvent) => void;
}

/**
 * A scripted "good model" for runAgent: it sends the same plan until every tool of it has a result,
 * then writes `answer(results)` built from the real tool results. Spread it into runAgent's options.
 */
export function scriptedPlan(
  steps: PlanStep[],
  answer: (results: Map<string, unknown>) => string,
  watch?: (event: AgentEvent) => void,
): ScriptedPlanRun {
  const results = new Map<string, unknown>();
  const ids = steps.flatMap((step) => step.tools.map((t) => t.id));
  const llm = new ScriptedLlm(
    [() => ({ steps, final: ids.every((id) => results.has(id)) ? answer(results) : null })],
    { whenExhausted: "repeat-last" },
  );
  const onEvent = (event: AgentEvent) => {
    if (event.type === "tool_result") results.set(event.toolId, event.result);
    watch?.(event);
  };
  return { llm, onEvent };
}

/** The same tool client, but every call waits `ms` milliseconds first (as if it went over the internet). */
export function withDelay(inner: ToolClient, ms: number): ToolClient {
  return {
    listTools: () => inner.listTools(),
    callTool: async (name, args, options) => {
      await new Promise((done) => setTimeout(done, ms));
      return inner.callTool(name, args, options);
    },
    close: async () => {},
  };
}

/** Total duration of a run in ms (time of its last event). */
export function traceDurationMs(trace: AgentTrace): number {
  return Math.round(trace.events[trace.events.length - 1]?.atMs ?? 0);
}
