// One model of a plan's `$ref` graph, drawn three ways: DOT/SVG (plan-dot.ts), Mermaid (plan-mermaid.ts)
// and terminal text (plan-text.ts). A node per tool call (grouped by the step that first names it), one
// for the user context and one per unknown `$ref` root; an edge per (source, call) pair, labelled with
// the arguments it fills. Pure; the only place that walks the references for drawing.
import type { AgentEvent, AgentTrace } from "../agent/trace.js";
import type { Plan } from "../plan/plan.js";
import { collectRefs, USER_ROOT } from "../plan/refs.js";

export type CallStatus = "ok" | "failed" | "not_run";

export interface GraphNode {
  /** Unique name that is safe in DOT and Mermaid: t0, t1 … per call id, m0 … per unknown root, "user". */
  key: string;
  kind: "call" | "user" | "missing";
  /** The call id, the unknown root, or "user". */
  id: string;
  /** The tool (calls only). */
  tool?: string;
  /** Outcome of the call, when statuses were given. */
  status?: CallStatus;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** Argument paths filled through this edge, e.g. ["lat", "lon"] ("*" for the whole arguments). */
  args: string[];
}

export interface GraphStep {
  description: string;
  /** Keys of the call nodes this step names first. */
  nodes: string[];
}

export interface PlanGraph {
  steps: GraphStep[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The plan's answer (drawn as a note), or null. */
  final: string | null;
}

export interface PlanGraphOptions {
  /** Outcome per tool id (colours the calls); ids without an entry are drawn plain. */
  status?: ReadonlyMap<string, CallStatus>;
  direction?: "LR" | "TB";
}

/** The graph of `plan`: calls, the user context and unknown roots as nodes, `$ref`s as edges. */
export function planGraph(plan: Plan, options: Pick<PlanGraphOptions, "status"> = {}): PlanGraph {
  const keyOf = new Map<string, string>();
  const nodes: GraphNode[] = [];
  const steps: GraphStep[] = plan.steps.map((step) => {
    const named: string[] = [];
    for (const call of step.tools) {
      if (keyOf.has(call.id)) continue;
      const key = `t${keyOf.size}`;
      keyOf.set(call.id, key);
      const status = options.status?.get(call.id);
      nodes.push({ key, kind: "call", id: call.id, tool: call.name, ...(status ? { status } : {}) });
      named.push(key);
    }
    return { description: step.description, nodes: named };
  });
  const missing = new Map<string, string>();
  const edges: GraphEdge[] = [];
  let usesUser = false;
  for (const call of plan.steps.flatMap((s) => s.tools)) {
    const bySource = new Map<string, string[]>();
    for (const occ of collectRefs(call.arguments)) {
      const root = occ.parsed?.root;
      if (root) bySource.set(root, [...(bySource.get(root) ?? []), occ.location.join(".") || "*"]);
    }
    for (const [root, args] of bySource) {
      let from = keyOf.get(root);
      if (root === USER_ROOT) {
        usesUser = true;
        from = USER_ROOT;
      } else if (from === undefined) {
        from = missing.get(root) ?? `m${missing.size}`;
        missing.set(root, from);
      }
      edges.push({ from, to: keyOf.get(call.id) as string, args });
    }
  }
  if (usesUser) nodes.push({ key: USER_ROOT, kind: "user", id: USER_ROOT });
  for (const [root, key] of missing) nodes.push({ key, kind: "missing", id: root });
  return { steps, nodes, edges, final: plan.final };
}

/** Outcome per tool id over a whole run: the latest result or error of an id wins; never tried is "not_run". */
export function callStatuses(trace: AgentTrace): Map<string, CallStatus> {
  const status = new Map<string, CallStatus>();
  for (const e of trace.events) {
    if (e.type === "tool_result") status.set(e.toolId, "ok");
    else if (e.type === "tool_error")
      status.set(e.toolId, e.attempts > 0 ? "failed" : status.get(e.toolId) === "ok" ? "ok" : "not_run");
  }
  return status;
}

/** The last plan of a run that had tool calls (the very last one often only answers). */
export function lastToolPlan(trace: AgentTrace): Plan | undefined {
  const plans = trace.events
    .filter((e): e is Extract<AgentEvent, { type: "plan" }> => e.type === "plan")
    .map((e) => e.plan);
  return [...plans].reverse().find((p) => p.steps.some((s) => s.tools.length > 0)) ?? plans.at(-1);
}

/** The graph of the run's last tool plan, with each call's outcome; undefined when no plan came. */
export function traceGraph(trace: AgentTrace): PlanGraph | undefined {
  const plan = lastToolPlan(trace);
  return plan ? planGraph(plan, { status: callStatuses(trace) }) : undefined;
}

/** `text` on one line, cut to `max` characters with "…". */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "Schritt 2: Wetter" (or "Schritt 2" without a description). */
export function stepTitle(step: GraphStep, index: number, max = Infinity): string {
  return step.description
    ? `Schritt ${index + 1}: ${max === Infinity ? step.description : shorten(step.description, max)}`
    : `Schritt ${index + 1}`;
}
