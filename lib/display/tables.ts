// HTML tables for notebooks: the tool calls of an agent run, the KV-cache reuse per round, retrieval
// metrics and the tool catalog. The CLI and logs keep the text forms (renderTraceTable, formatMetricsTable).
import { TOOL_ERROR_LABELS, RUN_STATUS_LABELS } from "./event-text.js";
import type { AgentTrace } from "../agent/trace.js";
import { describeType, schemaFields } from "../schema/text.js";
import type { ToolInfo } from "../mcp/types.js";
import { formatMetric, type RetrievalMetrics } from "../rag-eval/evaluation.js";
import { escapeHtml, htmlTable, shortCell, statusBadge } from "./html.js";

/** JSON with a space after each `,` and `:` (and inside brackets): the browser wraps a table cell there, never inside a token. */
function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 1)?.replace(/\n\s*/gu, " ") ?? String(value);
  } catch {
    return String(value);
  }
}

/** Trace table: Runde, Schritt, id, Tool, Argumente, Ergebnis, ms, Status (coloured). */
export function traceTableHtml(trace: AgentTrace, options: { maxChars?: number } = {}): string {
  const max = options.maxChars ?? 90;
  const args = new Map<string, Record<string, unknown>>();
  const rows: string[][] = [];
  const tones: ("ok" | "error" | "neutral")[] = [];
  for (const e of trace.events) {
    if (e.type === "tool_call") args.set(`${e.iteration}:${e.toolId}`, e.arguments);
    if (e.type !== "tool_result" && e.type !== "tool_error") continue;
    const callArgs = args.get(`${e.iteration}:${e.toolId}`);
    const ok = e.type === "tool_result";
    const tone = ok ? "ok" : e.attempts > 0 ? "error" : "neutral";
    tones.push(tone);
    rows.push([
      String(e.iteration),
      String(e.stepIndex + 1),
      `<code>${escapeHtml(e.toolId)}</code>`,
      escapeHtml(e.toolName),
      callArgs === undefined ? "–" : shortCell(json(callArgs), max),
      ok ? shortCell(json(e.result), max) : shortCell(e.message, max),
      String(Math.round(e.durationMs)),
      statusBadge(ok ? "ok" : (TOOL_ERROR_LABELS[e.errorKind] ?? e.errorKind), tone),
    ]);
  }
  const columns = [
    { title: "Runde", align: "right" as const, width: "52px" },
    { title: "Schritt", align: "right" as const, width: "56px" },
    { title: "id", width: "12%" },
    { title: "Tool", width: "11%" },
    { title: "Argumente", width: "28%" },
    { title: "Ergebnis", width: "30%" },
    { title: "ms", align: "right" as const, width: "52px" },
    { title: "Status", width: "11%" },
  ];
  const answer =
    trace.final !== undefined
      ? `Antwort (${RUN_STATUS_LABELS[trace.status ?? "answered"] ?? trace.status}): ${trace.final}`
      : undefined;
  const table =
    rows.length === 0
      ? "<p><em>(keine Tool-Aufrufe)</em></p>"
      : htmlTable(columns, rows, { className: "kit-trace-table" });
  return `<div class="kit-trace">${table}${answer ? `<p style="margin:4px 0">${shortCell(answer, 400)}</p>` : ""}</div>`;
}

export interface KvRound {
  iteration: number;
  evaluated: number;
  reused: number;
}

/** Prompt tokens computed anew vs. taken from the KV cache, per planning round of a run. */
export function kvReuseRounds(trace: AgentTrace): KvRound[] {
  const rounds: KvRound[] = [];
  for (const e of trace.events) {
    if ((e.type === "plan" || e.type === "plan_error") && e.meter) {
      rounds.push({
        iteration: e.iteration,
        evaluated: e.meter.promptTokensEvaluated,
        reused: e.meter.promptTokensReused,
      });
    }
  }
  return rounds;
}

export function kvReuseTableHtml(trace: AgentTrace): string {
  const rounds = kvReuseRounds(trace);
  if (rounds.length === 0) return "<p><em>(keine Messwerte: das Modell meldet keine KV-Cache-Zahlen)</em></p>";
  const rows = rounds.map((r) => {
    const total = r.evaluated + r.reused;
    const share = total === 0 ? 0 : r.reused / total;
    const bar = `<span style="display:inline-block;width:${Math.round(share * 100)}px;height:8px;background:#2da44e"></span>`;
    return [String(r.iteration), String(r.evaluated), String(r.reused), `${(share * 100).toFixed(0)} % ${bar}`];
  });
  return htmlTable(
    [
      { title: "Runde", align: "right" },
      { title: "Tokens neu berechnet", align: "right" },
      { title: "aus dem KV-Cache", align: "right" },
      { title: "Anteil wiederverwendet" },
    ],
    rows,
    { className: "kit-kv-table" },
  );
}

/** Retrieval metrics, one row per method (hit@1/3/5, MRR@depth). */
export function metricsTableHtml(
  rows: ReadonlyArray<{ method: string; metrics: RetrievalMetrics }>,
  mrrDepth: number,
): string {
  const best = (key: keyof RetrievalMetrics) => Math.max(...rows.map((r) => r.metrics[key]));
  const cell = (m: RetrievalMetrics, key: keyof RetrievalMetrics) => {
    const text = formatMetric(m[key]);
    return rows.length > 1 && m[key] === best(key) ? `<b>${text}</b>` : text;
  };
  return htmlTable(
    [
      { title: "Methode", width: "34%" },
      { title: "Fragen", align: "right" },
      { title: "hit@1", align: "right" },
      { title: "hit@3", align: "right" },
      { title: "hit@5", align: "right" },
      { title: `MRR@${mrrDepth}`, align: "right" },
    ],
    rows.map(({ method, metrics: m }) => [
      escapeHtml(method),
      String(m.questions),
      cell(m, "hitAt1"),
      cell(m, "hitAt3"),
      cell(m, "hitAt5"),
      cell(m, "mrr"),
    ]),
    { className: "kit-metrics-table", caption: "fett: bester Wert der Spalte" },
  );
}

/** Fields as `name*: Typ`, each with its description below it when `described` (the input fields). */
function fieldList(
  schema: Record<string, unknown> | undefined,
  markRequired: boolean,
  described = markRequired,
): string {
  const fields = schemaFields(schema);
  if (fields.length === 0) return "–";
  return fields
    .map((f) => {
      const mark = markRequired && f.required ? "*" : "";
      // Visible under the field: a projector audience never sees a hover tooltip.
      const info =
        described && f.description
          ? `<br><span style="color:#57606a;font-size:90%">${escapeHtml(f.description)}</span>`
          : "";
      return `<code>${escapeHtml(f.name)}${mark}</code>: ${escapeHtml(describeType(f.schema))}${info}`;
    })
    .join("<br>");
}

/**
 * The tool catalog: name, full description, input fields (* = required) with their descriptions, output
 * fields by name and type. Short enough that Notebook 6 does not fold the output into a small scroll box
 * (it does above about 100 lines); the output fields' descriptions are in the raw schema and the prompt.
 */
export function toolCatalogHtml(tools: readonly ToolInfo[]): string {
  return htmlTable(
    [
      { title: "Tool", width: "14%" },
      { title: "Beschreibung", width: "36%" },
      { title: "Eingabe (* = Pflicht)", width: "28%" },
      { title: "Ausgabe", width: "22%" },
    ],
    tools.map((t) => [
      `<code>${escapeHtml(t.name)}</code>`,
      shortCell(t.description || "(keine Beschreibung)", 400),
      fieldList(t.inputSchema, true),
      fieldList(t.outputSchema, false),
    ]),
    { className: "kit-tool-catalog" },
  );
}
