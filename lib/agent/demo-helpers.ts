// Helpers the presentation notebooks (Teil 3 and 4) call in one line: a scripted "good model" for a
// plan, a tool client that answers slowly, a text timeline of tool calls, and short previews of long
// texts and JSON. They show the agent at work; they are not what the notebooks teach.
import type { ToolClient } from "../mcp/types.js";
import type { PlanStep } from "./plan.js";
import { ScriptedLlm } from "./scripted-planner.js";
import type { AgentEvent, AgentTrace } from "./trace.js";

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

/** A Mermaid diagram as a Markdown code block (JupyterLab ≥ 4.1 and VS Code draw it), or a note when there is none. */
export function mermaidMarkdown(diagram: string | undefined): string {
  return diagram === undefined ? "*(kein Plan mit Tools – nichts zu zeichnen)*" : `\`\`\`mermaid\n${diagram}\n\`\`\``;
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

/** One line per tool call of a trace: id, start → end in ms, and a bar (one █ per `msPerBlock`). */
export function toolTimeline(trace: AgentTrace, msPerBlock = 50): string {
  const started = new Map<string, number>();
  const lines: string[] = [];
  for (const e of trace.events) {
    if (e.type === "tool_call") started.set(e.toolId, e.atMs);
    if (e.type !== "tool_result" && e.type !== "tool_error") continue;
    const from = started.get(e.toolId) ?? e.atMs;
    const bar = " ".repeat(Math.round(from / msPerBlock)) + "█".repeat(Math.max(1, Math.round((e.atMs - from) / msPerBlock)));
    const span = `${String(Math.round(from)).padStart(5)} → ${String(Math.round(e.atMs)).padStart(5)} ms`;
    lines.push(`${e.toolId.padEnd(11)} ${span}  ${bar}`);
  }
  return lines.join("\n");
}

/** Total duration of a run in ms (time of its last event). */
export function traceDurationMs(trace: AgentTrace): number {
  return Math.round(trace.events[trace.events.length - 1]?.atMs ?? 0);
}
