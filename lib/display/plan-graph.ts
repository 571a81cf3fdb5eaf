// Plan and trace dependency diagrams as SVG, rendered in Node by Graphviz compiled to WebAssembly
// (@viz-js/viz): no browser, no Python, no network. One box per tool call labelled "id" and "tool",
// one cluster per step, one arrow per `$ref` (labelled with the arguments it fills).
import type { Plan } from "../plan/plan.js";
import { collectRefs, USER_ROOT } from "../plan/refs.js";
import type { AgentEvent, AgentTrace } from "../agent/trace.js";

export type CallStatus = "ok" | "failed" | "not_run";

export interface PlanGraphOptions {
  /** Outcome per tool id (colours the boxes); ids without an entry are drawn plain. */
  status?: ReadonlyMap<string, CallStatus>;
  direction?: "LR" | "TB";
}

const FILL: Record<CallStatus, string> = { ok: "#dafbe1", failed: "#ffebe9", not_run: "#eaeef2" };
const STROKE: Record<CallStatus, string> = { ok: "#1a7f37", failed: "#cf222e", not_run: "#8c959f" };
// Graphviz measures text with its built-in Helvetica metrics only when the name is exactly "Helvetica";
// browsers without it use a metric-compatible sans-serif (Arial, Liberation Sans), so labels fit.
const FONT = "Helvetica";

/** A DOT string literal. */
function q(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Graphviz DOT source of a plan (exported for tests and for people who paste it elsewhere). */
export function planToDot(plan: Plan, options: PlanGraphOptions = {}): string {
  const lines = [
    "digraph plan {",
    `  rankdir=${options.direction ?? "LR"}; bgcolor="transparent"; nodesep=0.3; ranksep=0.45; pad=0.1;`,
    `  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#57606a", fontname=${q(FONT)}, fontsize=11];`,
    `  edge [color="#57606a", fontname=${q(FONT)}, fontsize=9, fontcolor="#57606a"];`,
    `  graph [fontname=${q(FONT)}, fontsize=10, labeljust=l, style="rounded,dashed", color="#8c959f"];`,
  ];
  const nodeOf = new Map<string, string>();
  plan.steps.forEach((step) => step.tools.forEach((call) => nodeOf.has(call.id) || nodeOf.set(call.id, `t${nodeOf.size}`)));
  const edges: string[] = [];
  let usesUser = false;
  const defined = new Set<string>();
  plan.steps.forEach((step, stepIndex) => {
    const title = step.description ? `Schritt ${stepIndex + 1}: ${shorten(step.description, 48)}` : `Schritt ${stepIndex + 1}`;
    lines.push(`  subgraph cluster_${stepIndex} {`, `    label=${q(title)};`);
    for (const call of step.tools) {
      const node = nodeOf.get(call.id) as string;
      if (!defined.has(call.id)) {
        defined.add(call.id);
        const status = options.status?.get(call.id);
        const colours = status ? `, fillcolor="${FILL[status]}", color="${STROKE[status]}"` : "";
        lines.push(`    ${node} [label=${q(`${call.id}\n${call.name}`)}, tooltip=${q(`${call.id}: ${call.name}`)}${colours}];`);
      }
      const bySource = new Map<string, string[]>();
      for (const occ of collectRefs(call.arguments)) {
        const root = occ.parsed?.root;
        if (!root) continue;
        bySource.set(root, [...(bySource.get(root) ?? []), occ.location.join(".") || "*"]);
      }
      for (const [root, args] of bySource) {
        const label = q(shorten(args.join(", "), 40));
        if (root === USER_ROOT) {
          usesUser = true;
          edges.push(`  user -> ${node} [label=${label}, style=dashed];`);
        } else if (nodeOf.has(root)) {
          edges.push(`  ${nodeOf.get(root)} -> ${node} [label=${label}];`);
        } else {
          edges.push(`  ${q(`missing_${root}`)} [label=${q(`${root} ?`)}, shape=note, fillcolor="#fff8c5"];`, `  ${q(`missing_${root}`)} -> ${node} [label=${label}, style=dashed];`);
        }
      }
    }
    lines.push("  }");
  });
  if (usesUser) lines.push(`  user [label="Nutzer", shape=ellipse, fillcolor="#ddf4ff", color="#0969da"];`);
  if (plan.final !== null) lines.push(`  final [label=${q(`Antwort: ${shorten(plan.final, 60)}`)}, shape=note, fillcolor="#fff8c5"];`);
  lines.push(...edges, "}");
  return lines.join("\n");
}

type Viz = { renderString(dot: string, options: { format: "svg"; engine?: string }): string };
let viz: Promise<Viz> | undefined;

async function graphviz(): Promise<Viz> {
  // Loaded on first use: the WebAssembly module is ~1 MB and not needed to import lib.
  viz ??= import("@viz-js/viz").then((m) => m.instance() as Promise<Viz>);
  return viz;
}

/** SVG of a DOT graph, sized to the container (never wider than the cell). */
export async function dotToSvg(dot: string): Promise<string> {
  const svg = (await graphviz()).renderString(dot, { format: "svg", engine: "dot" });
  // Drop the XML prolog and doctype (front ends embed the element), let it shrink to the cell width.
  return svg
    .slice(svg.indexOf("<svg"))
    .replace(/<svg width="(\d+(?:\.\d+)?)pt" height="(\d+(?:\.\d+)?)pt"/, (_m, w: string, h: string) =>
      `<svg class="kit-diagram" width="${w}pt" height="${h}pt" style="max-width:100%;height:auto"`,
    );
}

export async function renderPlanSvg(plan: Plan, options: PlanGraphOptions = {}): Promise<string> {
  return dotToSvg(planToDot(plan, options));
}

/** Outcome per tool id over a whole run: the latest result or error of an id wins. */
export function callStatuses(trace: AgentTrace): Map<string, CallStatus> {
  const status = new Map<string, CallStatus>();
  for (const e of trace.events) {
    if (e.type === "tool_result") status.set(e.toolId, "ok");
    else if (e.type === "tool_error") status.set(e.toolId, e.attempts > 0 ? "failed" : status.get(e.toolId) === "ok" ? "ok" : "not_run");
  }
  return status;
}

/** The last plan of a run that had tool calls (the very last one often only answers). */
export function lastToolPlan(trace: AgentTrace): Plan | undefined {
  const plans = trace.events.filter((e): e is Extract<AgentEvent, { type: "plan" }> => e.type === "plan").map((e) => e.plan);
  return [...plans].reverse().find((p) => p.steps.some((s) => s.tools.length > 0)) ?? plans.at(-1);
}

/** The run's last tool plan, coloured by what happened to each call; undefined when no plan came. */
export async function renderTraceSvg(trace: AgentTrace): Promise<string | undefined> {
  const plan = lastToolPlan(trace);
  return plan ? renderPlanSvg(plan, { status: callStatuses(trace) }) : undefined;
}
