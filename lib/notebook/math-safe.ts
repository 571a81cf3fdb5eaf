// Output the front ends' MathJax must leave alone. Notebook 6/7 and JupyterLab typeset every HTML and
// Markdown output: "$ref … $ref" becomes italic maths, and in Markdown a "$" pair even swallows the "|"
// of a table. Two layers, both needed: Markdown text escapes "$" and "\" (the front ends' math finder
// runs before Markdown is rendered), and every rich output sits inside an element of MathJax's default
// ignore class (MathJax 2 and 3 skip it when they typeset the rendered page).

/** MathJax's default class for "do not typeset" (tex2jax ignoreClass in 2, ignoreHtmlClass in 3). */
export const NO_MATH_CLASS = "tex2jax_ignore";

/** `html` inside an element MathJax skips. Wrapping twice is harmless. */
export function mathSafeHtml(html: string): string {
  return `<div class="${NO_MATH_CLASS}">${html}</div>`;
}

/** Plain text for a Markdown table cell or line: "\", "$", "|" and backquotes escaped, whitespace one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\$|`]/g, (c) => `\\${c}`);
}

/** Markdown (its text escaped with escapeMarkdown) inside an element MathJax skips. */
export function mathSafeMarkdown(markdown: string): string {
  return `<div class="${NO_MATH_CLASS}">\n\n${markdown}\n\n</div>`;
}
