// The plan graph as a Mermaid flowchart (for pasting into Markdown, GitHub, mermaid.live): one subgraph
// per step, one node per tool call, an edge per `$ref` source, calls coloured by outcome.
import type { AgentTrace } from "../agent/trace.js";
import type { Plan } from "../plan/plan.js";
import {
  planGraph,
  shorten,
  stepTitle,
  traceGraph,
  type CallStatus,
  type PlanGraph,
  type PlanGraphOptions,
} from "./plan-graph.js";

const CLASSES: ReadonlyArray<[CallStatus, string, string]> = [
  ["ok", "ok", "fill:#d8f0d8,stroke:#2e7d32"],
  ["failed", "failed", "fill:#f8d7da,stroke:#c62828"],
  ["not_run", "notrun", "fill:#eaeef2,stroke:#8c959f"],
];

function label(text: string): string {
  return `"${text.replace(/"/g, "#quot;").replace(/[<>]/g, (c) => (c === "<" ? "#lt;" : "#gt;"))}"`;
}

/** Mermaid source of a plan graph. */
export function graphToMermaid(graph: PlanGraph, options: Pick<PlanGraphOptions, "direction"> = {}): string {
  const lines = [`flowchart ${options.direction ?? "LR"}`];
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  graph.steps.forEach((step, i) => {
    lines.push(`  subgraph s${i}[${label(stepTitle(step, i))}]`);
    for (const key of step.nodes) lines.push(`    ${key}[${label(`${byKey.get(key)?.id}: ${byKey.get(key)?.tool}`)}]`);
    lines.push("  end");
  });
  for (const node of graph.nodes) {
    if (node.kind === "user") lines.push('  user(["Nutzer"])');
    if (node.kind === "missing") lines.push(`  ${node.key}[/${label(`${node.id} ?`)}/]`);
  }
  for (const edge of graph.edges) {
    const arrow = byKey.get(edge.from)?.kind === "call" ? "-->" : "-.->";
    lines.push(`  ${edge.from} ${arrow}|${label(edge.args.join(", "))}| ${edge.to}`);
  }
  const classed = CLASSES.map(([status, name, style]) => ({
    name,
    style,
    keys: graph.nodes.filter((n) => n.status === status).map((n) => n.key),
  }));
  const used = classed.filter((c) => c.keys.length > 0);
  lines.push(
    ...used.map((c) => `  classDef ${c.name} ${c.style}`),
    ...used.map((c) => `  class ${c.keys.join(",")} ${c.name}`),
  );
  if (graph.final !== null) lines.push(`  final([${label(`Antwort: ${shorten(graph.final, 60)}`)}])`);
  return lines.join("\n");
}

/** Mermaid flowchart of a plan: one box per step, one node per tool call, an edge per `$ref`. */
export function renderPlanMermaid(plan: Plan, options: PlanGraphOptions = {}): string {
  return graphToMermaid(planGraph(plan, options), options);
}

/** The last plan of a run that had tools as Mermaid, coloured by what ran; undefined without a plan. */
export function renderTraceMermaid(trace: AgentTrace): string | undefined {
  const graph = traceGraph(trace);
  return graph ? graphToMermaid(graph) : undefined;
}
