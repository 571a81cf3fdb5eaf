// Formulas on the slides, offline: display formulas ($$…$$, as Jupyter writes them) are rendered by KaTeX
// at build time, before the Markdown parser sees (and unescapes) their backslashes. A deck with a formula
// inlines KaTeX's CSS with its WOFF2 fonts as data URLs (about 360 KB); a deck without one carries none.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import katex from "katex";

const DISPLAY_MATH = /\$\$([\s\S]+?)\$\$/g;
/** Code (fenced or inline) keeps its dollars. */
const CODE = /(```[\s\S]*?```|`[^`\n]*`)/;

/** Markdown → HTML where each $$…$$ outside code becomes KaTeX's HTML. */
export function withMath(markdown: string, render: (markdown: string) => string): string {
  const formulas: string[] = [];
  const marked = markdown
    .split(CODE)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(DISPLAY_MATH, (_, tex: string) => {
      formulas.push(katex.renderToString(tex.trim(), { displayMode: true, throwOnError: false, output: "html" }));
      return `\n\nKATEX-FORMEL-${formulas.length - 1}\n\n`;
    })))
    .join("");
  if (formulas.length === 0) return render(markdown);
  return render(marked).replace(/(?:<p>)?KATEX-FORMEL-(\d+)(?:<\/p>)?/g, (_, n: string) => formulas[Number(n)]!);
}

/** KaTeX's CSS with its WOFF2 fonts inlined (the WOFF and TTF fallbacks dropped): no request, any browser in use today. */
export function katexCss(): string {
  const dist = dirname(createRequire(import.meta.url).resolve("katex"));
  const css = readFileSync(join(dist, "katex.min.css"), "utf8");
  return css.replace(/src:url\(fonts\/([\w-]+\.woff2)\) format\("woff2"\)[^;}]*/g, (_, file: string) =>
    `src:url(data:font/woff2;base64,${readFileSync(join(dist, "fonts", file)).toString("base64")}) format("woff2")`);
}
