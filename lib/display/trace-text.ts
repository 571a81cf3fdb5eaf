// The tool calls of a run as a text table for terminals (the notebook gets traceTableHtml in tables.ts).
import type { AgentTrace } from "../agent/trace.js";
import { compactJson } from "../plan/json.js";
import { runStatusLabel, toolErrorLabel } from "./event-text.js";

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
      const outcome =
        e.type === "tool_result"
          ? compactJson(e.result, width + 1)
          : `FEHLER (${toolErrorLabel(e.errorKind)}): ${e.message}`;
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
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join(" | ")
      .trimEnd();
  const separator = widths.map((w) => "-".repeat(w)).join("-+-");
  const out = [line(header), separator, ...table.slice(1).map(line)];
  const final = trace.final !== undefined ? `\nAntwort (${runStatusLabel(trace.status)}): ${trace.final}` : "";
  return out.join("\n") + (rows.length === 0 ? "\n(keine Tool-Aufrufe)" : "") + final;
}
