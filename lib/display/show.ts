// What notebooks call to show results: pictures and tables in the cell, text in a terminal.
// Each function returns nothing (a returned value would be printed by tslab as an object dump).
import type { Plan } from "../plan/plan.js";
import type { AgentTrace } from "../agent/trace.js";
import type { ToolInfo } from "../mcp/types.js";
import { formatMetricsTable, type RetrievalMetrics } from "../rag-eval/evaluation.js";
import { escapeHtml } from "./html.js";
import { inNotebook, show } from "../notebook/output.js";
import { dotToSvg } from "./graphviz.js";
import { graphToDot } from "./plan-dot.js";
import { planGraph, traceGraph, type PlanGraph } from "./plan-graph.js";
import { graphToMermaid } from "./plan-mermaid.js";
import { graphToText } from "./plan-text.js";
import { kvReuseRounds, kvReuseTableHtml, metricsTableHtml, toolCatalogHtml, traceTableHtml } from "./tables.js";
import { renderTimelineSvg, renderTimelineText } from "./timeline.js";
import { renderTraceTable } from "./trace-text.js";

export interface DiagramOptions {
  /** Also offer the Mermaid source (collapsed, for pasting elsewhere). Default true. */
  mermaid?: boolean;
}

/** The Mermaid source of a diagram, collapsed under a line that says what it is for. */
export function mermaidDetails(mermaid: string): string {
  const summary = "Mermaid-Quelltext des Diagramms – zum Kopieren, z. B. nach GitHub oder mermaid.live";
  return `<details class="kit-mermaid"><summary style="font-size:11px;color:#57606a">${summary}</summary><pre>${escapeHtml(mermaid)}</pre></details>`;
}

/** One graph, three forms: SVG in the cell (with the Mermaid source below), text in a terminal. */
async function showGraph(graph: PlanGraph, options: DiagramOptions): Promise<void> {
  const text = graphToText(graph);
  if (!inNotebook()) {
    show({ text });
    return;
  }
  show({ text, svg: await dotToSvg(graphToDot(graph)) });
  if (options.mermaid !== false) {
    const mermaid = graphToMermaid(graph);
    show({ text: mermaid, html: mermaidDetails(mermaid) });
  }
}

/** A plan's dependency diagram: one box per tool call (id and tool), one arrow per `$ref`. */
export async function showPlan(plan: Plan, options: DiagramOptions = {}): Promise<void> {
  await showGraph(planGraph(plan), options);
}

/** The run's last plan with tools, green where a call succeeded, red where it failed. */
export async function showTraceDiagram(trace: AgentTrace, options: DiagramOptions = {}): Promise<void> {
  const graph = traceGraph(trace);
  if (!graph) {
    show({ text: "(kein Plan mit Tools – nichts zu zeichnen)" });
    return;
  }
  await showGraph(graph, options);
}

/** All tool calls of a run as a table (HTML in notebooks, text in a terminal). */
export function showTraceTable(trace: AgentTrace): void {
  show({ text: renderTraceTable(trace), html: traceTableHtml(trace) });
}

/** When each tool call ran: one bar per call over time (parallel calls overlap). */
export function showTimeline(trace: AgentTrace, options: { title?: string } = {}): void {
  const svg = renderTimelineSvg(trace, options);
  const text = (options.title ? `${options.title}\n` : "") + renderTimelineText(trace);
  show(svg ? { text, svg } : { text });
}

/** Prompt tokens computed anew vs. reused from the KV cache, per planning round. */
export function showKvReuse(trace: AgentTrace): void {
  const text = kvReuseRounds(trace)
    .map((r) => `Runde ${r.iteration}: ${r.evaluated} Tokens neu berechnet, ${r.reused} aus dem KV-Cache`)
    .join("\n");
  show({ text: text || "(keine Messwerte)", html: kvReuseTableHtml(trace) });
}

/** Retrieval metrics per method (hit@k, MRR). */
export function showMetrics(
  rows: ReadonlyArray<{ method: string; metrics: RetrievalMetrics }>,
  mrrDepth: number,
): void {
  show({ text: formatMetricsTable(rows, mrrDepth), html: metricsTableHtml(rows, mrrDepth) });
}

/** The tools a server offers, with their input and output fields. */
export function showToolCatalog(tools: readonly ToolInfo[]): void {
  const text = tools.map((t) => `${t.name}: ${t.description}`).join("\n");
  show({ text, html: toolCatalogHtml(tools) });
}
