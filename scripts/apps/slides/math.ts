// Formulas on the slides, offline: display formulas ($$…$$) and inline formulas ($…$), as Jupyter writes
// them, are rendered by KaTeX at build time, before the Markdown parser sees (and unescapes) their
// backslashes. Code keeps its dollars, and so does a dollar that opens no formula: "$ref", "5 $", "US$5"
// (the inline rule is Pandoc's: no space inside the dollars, no digit or letter right after the closing
// one). A deck with a formula inlines KaTeX's CSS with only the fonts its formulas use (math-fonts.ts).
import katex from "katex";

/** An inline formula: `$` not after a letter, digit, `\` or `$`, then no space; the closing `$` after no
 * space and before no letter, digit or `$`; no blank line inside. Shared with the slides stage, which
 * reports such text left visible on a slide (formula-check.ts). */
export const INLINE_MATH =
  /(?<![\\$\p{L}\p{N}_])\$(?=[^\s$])((?:[^$\n]|\n(?![ \t]*\n))*?[^\s$\\])\$(?![\p{L}\p{N}_$])/u;

/** Code (fenced or inline) keeps its dollars; then display formulas, then inline ones. */
const CODE_OR_MATH = new RegExp(
  [/(```[\s\S]*?```|~~~[\s\S]*?~~~|``[^`]*?``|`[^`\n]*`)/.source, /\$\$([\s\S]+?)\$\$/.source, INLINE_MATH.source].join(
    "|",
  ),
  "gu",
);

/** Markdown → HTML where each formula outside code becomes KaTeX's HTML. */
export function withMath(markdown: string, render: (markdown: string) => string): string {
  const formulas: string[] = [];
  const tex = (source: string, displayMode: boolean) => {
    formulas.push(katex.renderToString(source.trim(), { displayMode, throwOnError: false, output: "html" }));
    return formulas.length - 1;
  };
  const marked = markdown.replace(CODE_OR_MATH, (all, code?: string, display?: string, inline?: string) => {
    if (code !== undefined) return all;
    if (display !== undefined) return `\n\nKATEX-FORMEL-${tex(display, true)}\n\n`;
    return `KATEX-INLINE-${tex(inline!, false)}-`;
  });
  if (formulas.length === 0) return render(markdown);
  return render(marked)
    .replace(/(?:<p>)?KATEX-FORMEL-(\d+)(?:<\/p>)?/g, (_, n: string) => formulas[Number(n)]!)
    .replace(/KATEX-INLINE-(\d+)-/g, (_, n: string) => formulas[Number(n)]!);
}
