// What the slides stage checks about formulas on a laid-out slide (page source, like layout.ts): no TeX
// left in the visible text, and every glyph KaTeX rendered finds the font face it asks for in the deck
// (math-fonts.ts inlines only the faces the formulas use; a missing one falls back to a wrong glyph).
import { INLINE_MATH } from "./math.js";
import { allKatexFaces } from "./math-fonts.js";

/** Raw TeX in visible text outside code: $$…$$, \(…\), \[…\], $…$ around a command, or an inline formula
 * KaTeX did not render (math.ts's own rule, so "$ref" and "5 $" stay readable text). */
export const RAW_TEX = new RegExp(
  [/\$\$|\\\(|\\\[|\$[^$\n]*\\[a-zA-Z]+[^$\n]*\$/.source, INLINE_MATH.source].join("|"),
  "u",
);

/** `(slide) => string[]`: the KaTeX faces ("KaTeX_Math|400|italic (x)") its formulas ask for and the deck
 * does not declare. */
export const missingFacesJs = (): string => `(slide) => {
  const shipped = new Set(${JSON.stringify(allKatexFaces())});
  const weight = (w) => (w === "bold" || Number(w) >= 600 ? 700 : 400);
  const declared = new Set([...document.fonts].map((f) => f.family.replace(/["']/g, "") + "|" + weight(f.weight) + "|" + f.style));
  const missing = new Set();
  for (const el of slide.querySelectorAll(".katex-html *")) {
    const glyphs = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent.trim()).join("");
    if (!glyphs) continue;
    const css = getComputedStyle(el);
    const face = css.fontFamily.split(",")[0].trim().replace(/["']/g, "") + "|" + weight(css.fontWeight) + "|" + (css.fontStyle === "italic" ? "italic" : "normal");
    if (shipped.has(face) && !declared.has(face)) missing.add(face + " (" + glyphs.slice(0, 20) + ")");
  }
  return [...missing];
}`;
