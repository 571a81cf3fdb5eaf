// The plan graph as short terminal text: one line per step, one per call with its tool, its outcome
// and where its `$ref`s point, e.g. "  wetter: get_weather ✓ ← geo (lat, lon), Nutzer (start_date)".
import type { AgentTrace } from "../agent/trace.js";
import type { Plan } from "../plan/plan.js";
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

const MARK: Record<CallStatus, string> = { ok: " ✓", failed: " ✗", not_run: " – nicht gelaufen" };

function source(node: GraphNode | undefined): string {
  if (node?.kind === "user") return "Nutzer";
  return node?.kind === "missing" ? `${node.id} ?` : (node?.id ?? "?");
}

/** Text form of a plan graph (what terminals get instead of a diagram). */
export function graphToText(graph: PlanGraph): string {
  const byKey = new Map(graph.nodes.map((n) => [n.key, n]));
  const lines: string[] = [];
  graph.steps.forEach((step, i) => {
    lines.push(stepTitle(step, i, 60));
    for (const key of step.nodes) {
      const node = byKey.get(key) as GraphNode;
      const from = graph.edges
        .filter((e) => e.to === key)
        .map((e) => `${source(byKey.get(e.from))} (${shorten(e.args.join(", "), 40)})`);
      lines.push(
        `  ${node.id}: ${node.tool}${node.status ? MARK[node.status] : ""}${from.length > 0 ? ` ← ${from.join(", ")}` : ""}`,
      );
    }
  });
  if (graph.final !== null) lines.push(`Antwort: ${shorten(graph.final, 60)}`);
  return lines.length > 0 ? lines.join("\n") : "(leerer Plan)";
}

/** A plan as text: steps, calls and their `$ref` sources. */
export function renderPlanText(plan: Plan, options: Pick<PlanGraphOptions, "status"> = {}): string {
  return graphToText(planGraph(plan, options));
}

/** The run's last tool plan as text, with each call's outcome; undefined when no plan came. */
export function renderTraceText(trace: AgentTrace): string | undefined {
  const graph = traceGraph(trace);
  return graph ? graphToText(graph) : undefined;
}
