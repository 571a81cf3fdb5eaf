// Typed events of an agent run, the trace that collects them, and renderers for notebooks:
// a text table of the tool calls and a Mermaid dependency diagram of a plan.
import { writeFile } from "node:fs/promises";
import { runStatusLabel, toolErrorLabel } from "../display/event-text.js";
import { compactJson } from "../plan/json.js";
import type { AgentEvent, AgentEventType, RunStatus } from "./events.js";
import type { Plan } from "../plan/plan.js";
import { collectRefs, USER_ROOT } from "../plan/refs.js";
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

/** Writes the trace as JSON (e.g. for `--trace out.json`). */
export async function saveTrace(trace: AgentTrace, path: string): Promise<void> {
  await writeFile(path, traceToJson(trace) + "\n", "utf8");
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

// ---------------------------------------------------------------------------------------------
// Text table

function cell(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** Text table of all tool calls: Runde | Schritt | id | Tool | Argumente | Ergebnis | ms. */
export function renderTraceTable(trace: AgentTrace, options: { width?: number } = {}): string {
  const width = options.width ?? 48;
  const callArgs = new Map<string, Record<string, unknown>>();
  const rows: string[][] = [];
  for (const e of trace.events) {
    if (e.type === "tool_call") callArgs.set(e.toolId, e.arguments);
    if (e.type === "tool_result" || e.type === "tool_error") {
      const args = callArgs.get(e.toolId);
      const outcome = e.type === "tool_result" ? compactJson(e.result, width + 1) : `FEHLER (${toolErrorLabel(e.errorKind)}): ${e.message}`;
      rows.push([
        String(e.iteration),
        String(e.stepIndex + 1),
        e.toolId,
        e.toolName,
        args === undefined ? "–" : compactJson(args, width + 1),
        outcome,
        String(Math.round(e.durationMs)),
      ]);
    }
  }
  const header = ["Runde", "Schritt", "id", "Tool", "Argumente", "Ergebnis", "ms"];
  const table = [header, ...rows.map((r) => r.map((c) => cell(c, width)))];
  const widths = header.map((_, i) => Math.max(...table.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ").trimEnd();
  const separator = widths.map((w) => "-".repeat(w)).join("-+-");
  const out = [line(header), separator, ...table.slice(1).map(line)];
  const final = trace.final !== undefined ? `\nAntwort (${runStatusLabel(trace.status)}): ${trace.final}` : "";
  return out.join("\n") + (rows.length === 0 ? "\n(keine Tool-Aufrufe)" : "") + final;
}

// ---------------------------------------------------------------------------------------------
// Mermaid

function mermaidLabel(text: string): string {
  return text.replace(/"/g, "#quot;").replace(/[<>]/g, (c) => (c === "<" ? "#lt;" : "#gt;"));
}

export interface MermaidOptions {
  /** Ids that ran successfully / failed (styled green / red). */
  succeeded?: ReadonlySet<string>;
  failed?: ReadonlySet<string>;
  direction?: "LR" | "TD";
}

/** Mermaid flowchart of a plan: one box per step, one node per tool call, an edge per `$ref`. */
export function renderPlanMermaid(plan: Plan, options: MermaidOptions = {}): string {
  const lines = [`flowchart ${options.direction ?? "LR"}`];
  const nodeOf = new Map<string, string>();
  let counter = 0;
  plan.steps.forEach((step) =>
    step.tools.forEach((call) => {
      if (!nodeOf.has(call.id)) nodeOf.set(call.id, `t${counter++}`);
    }),
  );
  let usesUser = false;
  const edges: string[] = [];
  const defined = new Set<string>();
  plan.steps.forEach((step, stepIndex) => {
    const title = step.description ? `Schritt ${stepIndex + 1}: ${step.description}` : `Schritt ${stepIndex + 1}`;
    lines.push(`  subgraph s${stepIndex}["${mermaidLabel(title)}"]`);
    for (const call of step.tools) {
      const node = nodeOf.get(call.id) as string;
      if (!defined.has(call.id)) {
        defined.add(call.id);
        lines.push(`    ${node}["${mermaidLabel(`${call.id}: ${call.name}`)}"]`);
      }
      const bySource = new Map<string, string[]>();
      for (const occ of collectRefs(call.arguments)) {
        const root = occ.parsed?.root;
        if (!root) continue;
        const list = bySource.get(root) ?? [];
        list.push(occ.location.join(".") || "*");
        bySource.set(root, list);
      }
      for (const [root, args] of bySource) {
        const label = mermaidLabel(args.join(", "));
        if (root === USER_ROOT) {
          usesUser = true;
          edges.push(`  user -.->|"${label}"| ${node}`);
        } else {
          const source = nodeOf.get(root);
          edges.push(source ? `  ${source} -->|"${label}"| ${node}` : `  missing_${node}[/"${mermaidLabel(root)} ?"/] -.-> ${node}`);
        }
      }
    }
    lines.push("  end");
  });
  if (usesUser) lines.push('  user(["Nutzer"])');
  lines.push(...edges);
  const succeeded = [...nodeOf].filter(([id]) => options.succeeded?.has(id)).map(([, n]) => n);
  const failed = [...nodeOf].filter(([id]) => options.failed?.has(id)).map(([, n]) => n);
  if (succeeded.length > 0 || failed.length > 0) {
    lines.push("  classDef ok fill:#d8f0d8,stroke:#2e7d32", "  classDef failed fill:#f8d7da,stroke:#c62828");
    if (succeeded.length > 0) lines.push(`  class ${succeeded.join(",")} ok`);
    if (failed.length > 0) lines.push(`  class ${failed.join(",")} failed`);
  }
  if (plan.final !== null) lines.push(`  final(["${mermaidLabel(`Antwort: ${plan.final.slice(0, 60)}${plan.final.length > 60 ? "…" : ""}`)}"])`);
  return lines.join("\n");
}

/** The last plan of a run as Mermaid, coloured by what ran. */
export function renderTraceMermaid(trace: AgentTrace): string | undefined {
  const plans = trace.events.filter((e): e is Extract<AgentEvent, { type: "plan" }> => e.type === "plan");
  const last = plans.at(-1);
  if (!last) return undefined;
  // The last plan often only answers; show the last one that had tools.
  const withTools = [...plans].reverse().find((p) => p.plan.steps.some((s) => s.tools.length > 0)) ?? last;
  // The latest outcome per id wins: a call held back in one round and run in a later one is "ok" only.
  const succeeded = new Set<string>();
  const failed = new Set<string>();
  for (const e of trace.events) {
    if (e.type === "tool_result") {
      succeeded.add(e.toolId);
      failed.delete(e.toolId);
    } else if (e.type === "tool_error") {
      failed.add(e.toolId);
      succeeded.delete(e.toolId);
    }
  }
  return renderPlanMermaid(withTools.plan, { succeeded, failed });
}
