// What a slide looks like on the projector, measured in the browser: one function (as page source) that
// both the deck's own fitting (fit.ts) and the slides stage (scripts/dev/slides-check.ts) run on a laid-out
// leaf slide. Coordinates are the slide's own (1280×720 before reveal.js scales it), so the answer is the
// same at every window size.

/** One thing wrong with a slide's layout. */
export interface LayoutProblem {
  /** sideways: an element is wider than its box (a hidden scrollbar or cut text); right / bottom: a content
   * box crosses the slide's edge; controls: a content box lies under the navigation arrows. */
  kind: "sideways" | "right" | "bottom" | "controls";
  /** The first words of the element concerned. */
  words: string;
}

/**
 * `(slide) => LayoutProblem[]` for a displayed leaf <section>. Content boxes are the line boxes of its
 * text and the boxes of code blocks, outputs, tables and pictures; the controls' corner is the union of
 * reveal.js's arrow buttons shown (plus a small gap) and the deck's reserved corner, if it has one.
 * Speaker notes and what is not rendered do not count.
 */
export const SLIDE_PROBLEMS_JS = `(slide) => {
  const config = Reveal.getConfig();
  const outer = slide.getBoundingClientRect();
  const k = config.width / outer.width;
  const box = (r) => ({ left: (r.left - outer.left) * k, top: (r.top - outer.top) * k,
    right: (r.right - outer.left) * k, bottom: (r.bottom - outer.top) * k });
  // The arrows shown may differ from slide to slide (plus a small gap); the deck's reserved corner
  // (theme.css) covers them all.
  const gap = 6;
  const corners = [
    ...[...document.querySelectorAll(".reveal .controls button")].map((b) => box(b.getBoundingClientRect()))
      .map((r) => ({ ...r, left: r.left - gap, top: r.top - gap })),
    ...[...slide.querySelectorAll(":scope > .controls-corner")].map((c) => box(c.getBoundingClientRect())),
  ].filter((r) => r.right > r.left + gap);
  const corner = corners.length === 0 ? null
    : { left: Math.min(...corners.map((r) => r.left)), top: Math.min(...corners.map((r) => r.top)) };
  const words = (el) => (el.textContent || el.tagName).replace(/\\s+/g, " ").trim().slice(0, 60);
  // Speaker notes and what is not rendered (a closed <details>) do not count; hidden fragments do.
  const inNotes = (el) => Boolean(el.closest("aside.notes")) || !el.checkVisibility();
  const problems = [];
  const seen = new Set();
  const add = (kind, el) => {
    const key = kind + "|" + words(el);
    if (!seen.has(key)) { seen.add(key); problems.push({ kind, words: words(el) }); }
  };
  for (const el of [slide, ...slide.querySelectorAll("*")]) {
    if (!(el instanceof HTMLElement) || inNotes(el) || el.clientWidth === 0) continue;
    if (getComputedStyle(el).display === "inline") continue;
    if (el.scrollWidth > el.clientWidth + 1) add("sideways", el);
  }
  const boxes = [];
  const walker = document.createTreeWalker(slide, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || inNotes(node.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) boxes.push([node.parentElement, box(r)]);
  }
  for (const el of slide.querySelectorAll("pre, table, img, svg, .out")) {
    if (inNotes(el) || el.parentElement.closest("svg")) continue;
    for (const r of el.getClientRects()) boxes.push([el, box(r)]);
  }
  for (const [el, b] of boxes) {
    if (b.right <= b.left || b.bottom <= b.top) continue;
    if (b.right > config.width + 0.5) add("right", el);
    if (b.bottom > config.height + 0.5) add("bottom", el);
    if (corner && b.right > corner.left && b.bottom > corner.top && b.top < config.height && b.left < config.width) add("controls", el);
  }
  return problems;
}`;
