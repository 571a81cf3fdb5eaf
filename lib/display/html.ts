// Small HTML building blocks for notebook outputs: escaping, shortened cells with the full value on
// hover, and one table layout that wraps instead of scrolling sideways (fits 1280 px windows).

import { escapeHtml } from "../notebook/escape-html.js";
import { NO_MATH_CLASS } from "../notebook/math-safe.js";
import { cutAtWord } from "../util.js";

export { escapeHtml };

/** `text` cut to `max` characters (one line); the full text is in the title (shown on hover). */
export function shortCell(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return escapeHtml(flat);
  return `<span title="${escapeHtml(text)}">${escapeHtml(cutAtWord(flat, max))}</span>`;
}

export interface HtmlColumn {
  title: string;
  /** Right-aligned numbers, or left-aligned text (default). */
  align?: "left" | "right";
  /** Share of the table width for text columns, e.g. "30%". */
  width?: string;
}

const TABLE_STYLE =
  "border-collapse:collapse;table-layout:fixed;width:100%;max-width:100%;font-size:12px;line-height:1.35";
const CELL_STYLE =
  "border:1px solid #d0d7de;padding:3px 6px;vertical-align:top;overflow-wrap:anywhere;word-break:break-word";

/**
 * A table whose cells are already HTML (use escapeHtml / shortCell). `rowStyle` colours whole rows.
 * `className` lets tests and front ends find it (e.g. "kit-trace-table").
 */
export function htmlTable(
  columns: readonly HtmlColumn[],
  rows: ReadonlyArray<readonly string[]>,
  options: { className: string; caption?: string; rowStyle?: (index: number) => string | undefined } = {
    className: "kit-table",
  },
): string {
  const head = columns
    .map(
      (c) =>
        `<th style="${CELL_STYLE};background:#f6f8fa;text-align:${c.align ?? "left"}${c.width ? `;width:${c.width}` : ""}">${escapeHtml(c.title)}</th>`,
    )
    .join("");
  const body = rows
    .map((r, i) => {
      const style = options.rowStyle?.(i);
      const cells = r
        .map((cell, j) => `<td style="${CELL_STYLE};text-align:${columns[j]?.align ?? "left"}">${cell}</td>`)
        .join("");
      return `<tr${style ? ` style="${style}"` : ""}>${cells}</tr>`;
    })
    .join("\n");
  const caption = options.caption
    ? `<caption style="caption-side:bottom;text-align:left;padding-top:4px">${escapeHtml(options.caption)}</caption>`
    : "";
  // MathJax-safe wherever the table ends up (tslab.display.html too, not only show()).
  return `<table class="${escapeHtml(options.className)} ${NO_MATH_CLASS}" style="${TABLE_STYLE}">${caption}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A coloured status label: green ok, red error, grey otherwise. */
export function statusBadge(label: string, tone: "ok" | "error" | "neutral"): string {
  const colours = {
    ok: "#1a7f37;background:#dafbe1",
    error: "#cf222e;background:#ffebe9",
    neutral: "#57606a;background:#eaeef2",
  };
  return `<span style="color:${colours[tone]};border-radius:3px;padding:0 4px;display:inline-block">${escapeHtml(label)}</span>`;
}
