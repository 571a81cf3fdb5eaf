// KaTeX's CSS for a deck, with only the font faces its formulas use, as WOFF2 data URLs (the WOFF and TTF
// fallbacks dropped: every browser in use today reads WOFF2). All 20 faces weigh about 350 KB in base64;
// Teil 2's formulas need two of them. Which faces a formula uses follows from KaTeX's own CSS: a rule
// whose classes all occur in the deck's formulas and that names a KaTeX family (`.mathnormal` →
// KaTeX_Math italic, `.amsrm` → KaTeX_AMS, `.delimsizing.size2` → KaTeX_Size2; `.katex` itself →
// KaTeX_Main). Bold (`.mathbf`, `.textbf`) is inherited by nested formula parts, so it applies to every
// family used; italic only where a rule sets it with its family, or without one (`.textit`). The slides
// stage checks in the browser that every glyph of every formula finds its face (formula-check.ts).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A font face as CSS names it: "KaTeX_Main|700|italic". */
export type FaceKey = string;
const faceKey = (family: string, bold: boolean, italic: boolean): FaceKey =>
  `${family}|${bold ? 700 : 400}|${italic ? "italic" : "normal"}`;

const katexDist = () => dirname(createRequire(import.meta.url).resolve("katex"));

interface Rule {
  selector: string;
  body: string;
}
const rulesOf = (css: string): Rule[] =>
  [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({ selector: m[1]!.trim(), body: m[2]! }));

/** The class names used in `html`. */
function classesIn(html: string): Set<string> {
  return new Set([...html.matchAll(/class="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/)).filter(Boolean));
}

/** A rule applies when every class of one of its selectors occurs in the formulas (a safe overestimate). */
function applies(selector: string, classes: Set<string>): boolean {
  return selector.split(",").some((part) => {
    const names = [...part.matchAll(/\.([\w-]+)/g)].map((m) => m[1]!);
    return names.length > 0 && names.every((n) => classes.has(n));
  });
}

/** The font faces the formulas in `html` use (KaTeX's class names decide). */
export function facesUsed(html: string, css = readFileSync(join(katexDist(), "katex.min.css"), "utf8")): Set<FaceKey> {
  const classes = classesIn(html);
  const tied: { family: string; italic: boolean }[] = [];
  let bold = false;
  let looseItalic = false;
  for (const { selector, body } of rulesOf(css)) {
    if (selector.startsWith("@font-face") || !applies(selector, classes)) continue;
    const family = /font(?:-family)?:[^;]*?(KaTeX_\w+)/.exec(body)?.[1];
    const italic = /font(?:-style)?:[^;]*\bitalic\b/.test(body);
    if (/font(?:-weight)?:[^;]*\b(?:bold|700)\b/.test(body)) bold = true;
    if (family) tied.push({ family, italic });
    else if (italic) looseItalic = true;
  }
  const faces = new Set<FaceKey>();
  for (const { family, italic } of tied) {
    for (const it of looseItalic ? [italic, true] : [italic]) {
      faces.add(faceKey(family, false, it));
      if (bold) faces.add(faceKey(family, true, it));
    }
  }
  return faces;
}

/** The face a @font-face rule declares. */
function declaredFace(body: string): FaceKey | undefined {
  const family = /font-family:\s*"?(KaTeX_\w+)/.exec(body)?.[1];
  if (!family) return undefined;
  return faceKey(family, /font-weight:\s*(?:700|bold)/.test(body), /font-style:\s*italic/.test(body));
}

/** Every face KaTeX ships. */
export function allKatexFaces(): FaceKey[] {
  const css = readFileSync(join(katexDist(), "katex.min.css"), "utf8");
  return rulesOf(css)
    .filter((r) => r.selector === "@font-face")
    .map((r) => declaredFace(r.body))
    .filter((f): f is FaceKey => f !== undefined);
}

/**
 * KaTeX's CSS with the WOFF2 fonts inlined: for `html` (the deck's slides) only the faces its formulas
 * use, without it all of them.
 */
export function katexCss(html?: string): string {
  const dist = katexDist();
  const css = readFileSync(join(dist, "katex.min.css"), "utf8");
  const used = html === undefined ? undefined : facesUsed(html, css);
  return css.replace(/@font-face\{([^}]*)\}/g, (rule, body: string) => {
    const face = declaredFace(body);
    if (used && (!face || !used.has(face))) return "";
    return rule.replace(
      /src:url\(fonts\/([\w-]+\.woff2)\) format\("woff2"\)[^;}]*/,
      (_, file: string) =>
        `src:url(data:font/woff2;base64,${readFileSync(join(dist, "fonts", file)).toString("base64")}) format("woff2")`,
    );
  });
}
