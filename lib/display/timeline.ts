// The parallel-run timeline: one bar per tool call from its start to its end, on a common time axis.
// Hand-written SVG (a few rectangles and lines) — small enough not to need a charting library.
import type { AgentTrace } from "../agent/trace.js";
import { escapeHtml } from "./html.js";

export interface TimelineBar {
  toolId: string;
  toolName: string;
  stepIndex: number;
  iteration: number;
  startMs: number;
  endMs: number;
  ok: boolean;
}

/** Bars of all tool calls that ran (a call's first attempt to its result or error), in start order. */
export function timelineBars(trace: AgentTrace): TimelineBar[] {
  const started = new Map<string, number>();
  const bars: TimelineBar[] = [];
  for (const e of trace.events) {
    if (e.type === "tool_call" && !started.has(`${e.iteration}:${e.toolId}`))
      started.set(`${e.iteration}:${e.toolId}`, e.atMs);
    if (e.type === "tool_result" || (e.type === "tool_error" && e.attempts > 0)) {
      const startMs = started.get(`${e.iteration}:${e.toolId}`) ?? e.atMs - e.durationMs;
      bars.push({
        toolId: e.toolId,
        toolName: e.toolName,
        stepIndex: e.stepIndex,
        iteration: e.iteration,
        startMs,
        endMs: e.atMs,
        ok: e.type === "tool_result",
      });
    }
  }
  return bars.sort((a, b) => a.startMs - b.startMs);
}

/** A "nice" tick step (1, 2, 5 × 10^n) giving about `count` ticks over `span`. */
function tickStep(span: number, count: number): number {
  const raw = Math.max(span / count, 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? 10 * power;
}

/** SVG timeline (width 760 px, scales down with the cell); undefined when no tool ran. */
export function renderTimelineSvg(trace: AgentTrace, options: { title?: string } = {}): string | undefined {
  const bars = timelineBars(trace);
  if (bars.length === 0) return undefined;
  const width = 760;
  const labelWidth = 170;
  const rowHeight = 22;
  const top = options.title ? 44 : 24;
  const plotWidth = width - labelWidth - 20;
  const endMs = Math.max(...bars.map((b) => b.endMs), 1);
  const x = (ms: number) => labelWidth + (ms / endMs) * plotWidth;
  const height = top + bars.length * rowHeight + 28;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="kit-timeline" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" style="max-width:100%;height:auto" font-family="Helvetica,Arial,sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  if (options.title)
    parts.push(`<text x="4" y="16" font-size="13" font-weight="bold">${escapeHtml(options.title)}</text>`);
  const step = tickStep(endMs, 6);
  const axisY = top + bars.length * rowHeight + 4;
  for (let t = 0; t <= endMs + 1e-9; t += step) {
    parts.push(
      `<line x1="${x(t).toFixed(1)}" y1="${top - 6}" x2="${x(t).toFixed(1)}" y2="${axisY}" stroke="#d0d7de" stroke-width="1"/>`,
      `<text x="${x(t).toFixed(1)}" y="${axisY + 14}" text-anchor="middle" fill="#57606a">${Math.round(t)} ms</text>`,
    );
  }
  bars.forEach((b, i) => {
    const y = top + i * rowHeight;
    const x0 = x(b.startMs);
    const w = Math.max(2, x(b.endMs) - x0);
    const fill = b.ok ? "#2da44e" : "#cf222e";
    const tip = `${b.toolId} (${b.toolName}), Runde ${b.iteration}, Schritt ${b.stepIndex + 1}: ${Math.round(b.startMs)}–${Math.round(b.endMs)} ms${b.ok ? "" : ", Fehler"}`;
    parts.push(
      `<g><title>${escapeHtml(tip)}</title>`,
      `<text x="4" y="${y + 14}">${escapeHtml(b.toolId)}</text>`,
      `<text x="${labelWidth - 6}" y="${y + 14}" text-anchor="end" fill="#57606a">${escapeHtml(b.toolName)}</text>`,
      `<rect x="${x0.toFixed(1)}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowHeight - 8}" rx="3" fill="${fill}"/>`,
      // The duration right of the bar, or inside its end when there is no room left.
      x0 + w + 50 <= width
        ? `<text x="${(x0 + w + 4).toFixed(1)}" y="${y + 14}" fill="#24292f">${Math.round(b.endMs - b.startMs)} ms</text>`
        : `<text x="${(x0 + w - 4).toFixed(1)}" y="${y + 14}" text-anchor="end" fill="#ffffff">${Math.round(b.endMs - b.startMs)} ms</text>`,
      `</g>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n");
}

/** Text form for terminals: one line per call with start, end and a bar (one █ ≈ `msPerChar`). */
export function renderTimelineText(trace: AgentTrace, msPerChar = 50): string {
  const bars = timelineBars(trace);
  if (bars.length === 0) return "(keine Tool-Aufrufe)";
  const idWidth = Math.max(...bars.map((b) => b.toolId.length));
  return bars
    .map((b) => {
      const bar =
        " ".repeat(Math.round(b.startMs / msPerChar)) +
        (b.ok ? "█" : "▒").repeat(Math.max(1, Math.round((b.endMs - b.startMs) / msPerChar)));
      return `${b.toolId.padEnd(idWidth)} ${String(Math.round(b.startMs)).padStart(5)} → ${String(Math.round(b.endMs)).padStart(5)} ms  ${bar}`;
    })
    .join("\n");
}
