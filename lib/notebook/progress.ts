// Feedback on long work inside a notebook cell: one line with a progress bar that updates in place
// (tslab's display id), instead of a wall of lines. Outside a notebook there is no such line; the CLI
// keeps its terminal bar (rag/progress.ts).
import { escapeHtml } from "./escape-html.js";
import { liveOutput } from "./output.js";

export interface ProgressLine {
  /** `fraction` 0…1; `detail` a short text after the percentage (e.g. "120 / 480 Chunks"). */
  update(fraction: number, detail?: string): void;
  /** Final state of the line (e.g. "fertig in 2,1 s"). */
  done(detail?: string): void;
}

const MIN_INTERVAL_MS = 200;

function render(label: string, fraction: number, detail: string | undefined, finished: boolean): string {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  const bar = `<progress value="${percent}" max="100" style="width:220px;vertical-align:middle"></progress>`;
  const tail = detail ? ` · ${escapeHtml(detail)}` : "";
  const mark = finished ? "✓ " : "";
  return `<div class="kit-progress" style="font-size:12px">${mark}${escapeHtml(label)} ${bar} ${percent} %${tail}</div>`;
}

/** A progress line in the current cell, or `null` outside a notebook. Updates are throttled (5 per second). */
export function progressLine(label: string): ProgressLine | null {
  const out = liveOutput();
  if (!out) return null;
  const started = performance.now();
  let last = -Infinity;
  let lastFraction = 0;
  out.update({ text: `${label} …`, html: render(label, 0, undefined, false) });
  return {
    update(fraction, detail) {
      lastFraction = fraction;
      const now = performance.now();
      if (now - last < MIN_INTERVAL_MS) return;
      last = now;
      out.update({ text: `${label} ${Math.round(fraction * 100)} %`, html: render(label, fraction, detail, false) });
    },
    done(detail) {
      const seconds = ((performance.now() - started) / 1000).toLocaleString("de-DE", { maximumFractionDigits: 1 });
      const text = detail ?? `fertig in ${seconds} s`;
      out.update({ text: `${label}: ${text}`, html: render(label, Math.max(lastFraction, 1), text, true) });
    },
  };
}
