// The plan graph as Graphviz DOT and SVG: one box per tool call labelled "id" and "tool", one cluster
// per step, one arrow per `$ref` source (labelled with the arguments it fills).
import type { AgentTrace } from "../agent/trace.js";
import type { Plan } from "../plan/plan.js";
import { dotToSvg } from "./graphviz.js";
import {
  planGraph,
  shorten,
  stepTitle,
  traceGraph,
  type CallStatus,
  type GraphNode,
  type PlanGraph,
  type PlanGraphOptions,
} from "./plan-graph.js";

const FILL: Record<CallStatus, string> = { ok: "#dafbe1", failed: "#ffebe9", not_run: "#eaeef2" };
const STROKE: Record<CallStatus, string> = { ok: "#1a7f37", failed: "#cf222e", not_run: "#8c959f" };
// Graphviz measures text with its built-in Helvetica metrics only when the name is exactly "Helvetica";
// browsers without it use a metric-compatible sans-serif (Arial, Liberation Sans), so labels fit.
const FONT = "Helvetica";

/** A DOT string literal. */
function q(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

function callLine(node: GraphNode): string {
  const colours = node.status ? `, fillcolor="${FILL[node.status]}", color="${STROKE[node.status]}"` : "";
  return `    ${node.key} [label=${q(`${node.id}\n${node.tool ?? ""}`)}, tooltip=${q(`${node.id}: ${node.tool ?? ""}`)}${colours}];`;
}

/** DOT source of a plan graph. */
export function graphToDot(graph: PlanGraph, options: Pick<PlanGraphOptions, "direction"> = {}): string {
  const lines = [
    "digraph plan {",
    `  rankdir=${options.direction ?? "LR"}; bgcolor="transparent"; nodesep=0.3; ranksep=0.45; pad=0.1;`,
    `  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#57606a", fontname=${q(FONT)}, fontsize=11];`,
    `  edge [color="#57606a", fontname=${q(FONT)}, fontsize=9, fontcolor="#57606a"];`,
    `  graph [fontname=${q(FONT)}, fontsize=10, labeljust=l, style="rounded,dashed", color="#8c959f"];`,
  ];
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  graph.steps.forEach((step, i) => {
    lines.push(`  subgraph cluster_${i} {`, `    label=${q(stepTitle(step, i, 48))};`);
    for (const key of step.nodes) lines.push(callLine(byKey.get(key) as GraphNode));
    lines.push("  }");
  });
  for (const node of graph.nodes) {
    if (node.kind === "user")
      lines.push(`  user [label="Nutzer", shape=ellipse, fillcolor="#ddf4ff", color="#0969da"];`);
    if (node.kind === "missing")
      lines.push(`  ${node.key} [label=${q(`${node.id} ?`)}, shape=note, fillcolor="#fff8c5"];`);
  }
  if (graph.final !== null)
    lines.push(`  final [label=${q(`Antwort: ${shorten(graph.final, 60)}`)}, shape=note, fillcolor="#fff8c5"];`);
  for (const edge of graph.edges) {
    const dashed = byKey.get(edge.from)?.kind === "call" ? "" : ", style=dashed";
    lines.push(`  ${edge.from} -> ${edge.to} [label=${q(shorten(edge.args.join(", "), 40))}${dashed}];`);
  }
  lines.push("}");
  return lines.join("\n");
}

/** Graphviz DOT source of a plan (exported for tests and for people who paste it elsewhere). */
export function planToDot(plan: Plan, options: PlanGraphOptions = {}): string {
  return graphToDot(planGraph(plan, options), options);
}

export async function renderPlanSvg(plan: Plan, options: PlanGraphOptions = {}): Promise<string> {
  return dotToSvg(planToDot(plan, options));
}

/** The run's last tool plan, coloured by what happened to each call; undefined when no plan came. */
export async function renderTraceSvg(trace: AgentTrace): Promise<string | undefined> {
  const graph = traceGraph(trace);
  return graph ? dotToSvg(graphToDot(graph)) : undefined;
}
