// The deck fits its own slides when it opens, measured in the browser (layout.ts), step by step and only as
// far as a slide needs: smaller type (text 28, code 20, outputs 18 px), a long output of short lines in two
// columns, then text outputs show as many whole records from their head as the room left allows (a
// record: a line without indentation and the indented lines below it) with a marker for what they leave
// out — and the slide's notes say what the room does not see (deckFit.shortened counts it for the slides
// stage) — then pictures shrink. Lines a cell keeps
// (metadata.slides.show, class "keep") are never hidden; code, Markdown and tables never shortened — a slide
// they overfill is the slides stage's to report.
import { SLIDE_PROBLEMS_JS } from "./layout.js";

/** Page source: defines window.deckFit and fits every leaf slide once reveal.js is ready. */
export const FIT_JS = `(() => {
  const problemsOf = ${SLIDE_PROBLEMS_JS};
  const tooLong = (slide) => problemsOf(slide).some((p) => p.kind === "bottom" || p.kind === "controls");
  const deckFit = (window.deckFit = { done: false, fitted: 0, shortened: [] });
  const notebook = " – die ganze Ausgabe steht im Notebook";
  const marker = (text) => Object.assign(document.createElement("span"), { className: "line more", textContent: text });
  const lineWord = (n) => n === 1 ? "1 Zeile" : n + " Zeilen";

  /** Hides the first \`count\` records of \`order\` and marks each run of hidden lines (and the uncarried rest). */
  function hide(outputs, order, count) {
    const hidden = new Set(order.slice(0, count).flat());
    for (const pre of outputs) {
      pre.querySelectorAll(".line.more").forEach((m) => m.remove());
      const lines = [...pre.querySelectorAll(".line")];
      let run = 0;
      const close = (before) => {
        const rest = before ? 0 : Number(pre.dataset.rest || 0);
        if (run + rest > 0) {
          const text = before ? "⋯ " + lineWord(run) + " ausgelassen" + notebook : "⋯ noch " + lineWord(run + rest) + notebook;
          pre.insertBefore(marker(text), before);
        }
        run = 0;
      };
      for (const line of lines) {
        line.hidden = hidden.has(line);
        if (line.hidden) run++;
        else close(line);
      }
      close(null);
    }
  }

  /** An output's lines as records: a record starts at a non-empty line without indentation, its indented
   * (or empty) lines belong to it. With fewer than three records, each line is one. */
  function records(pre) {
    const lines = [...pre.querySelectorAll(".line")].filter((l) => !l.classList.contains("more"));
    const groups = [];
    for (const line of lines) {
      const starts = groups.length === 0 || (line.textContent.trim() !== "" && !/^\\s/.test(line.textContent));
      if (starts) groups.push([line]);
      else groups.at(-1).push(line);
    }
    return groups.length >= 3 ? groups : lines.map((l) => [l]);
  }

  /** Records to hide, in order: always the last shown record of the output that shows the most lines, so
   * every output keeps its head, whole records, and a marker says how many lines follow. A record with a
   * kept line stays. */
  function hidingOrder(outputs) {
    const left = outputs.map((pre) => records(pre).filter((r) => !r.some((l) => l.classList.contains("keep"))));
    const size = (list) => list.reduce((n, r) => n + r.length, 0);
    const order = [];
    for (;;) {
      const longest = left.reduce((a, b) => (size(b) > size(a) ? b : a), []);
      if (longest.length === 0) return order;
      order.push(longest.pop());
    }
  }

  /** The fewest records of \`order\` to hide so the slide fits (all of them when nothing fits). */
  function shorten(slide, outputs) {
    const order = hidingOrder(outputs);
    let [low, high] = [0, order.length];
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      hide(outputs, order, mid);
      if (tooLong(slide)) low = mid + 1;
      else high = mid;
    }
    // Balanced columns are not quite monotone: from there, one line at a time until it fits.
    hide(outputs, order, low);
    while (low < order.length && tooLong(slide)) hide(outputs, order, ++low);
    return low;
  }

  /** Pictures as tall as the room left (down to 40 % of their height). */
  function shrinkPictures(slide) {
    const pictures = [...slide.querySelectorAll(".out svg, img.out")];
    if (pictures.length === 0) return;
    const heights = pictures.map((p) => p.getBoundingClientRect().height / Reveal.getScale());
    const scale = (f) => pictures.forEach((p, i) => (p.style.maxHeight = Math.floor(heights[i] * f) + "px"));
    for (let f = 0.95; f >= 0.4 && tooLong(slide); f -= 0.05) scale(f);
  }

  /** Steps, each only when the slide still does not fit: smaller type (text 28 px, code 20, outputs 18),
   * a long output in two columns, shorter outputs, smaller pictures. */
  function fit(slide) {
    const outputs = [...slide.querySelectorAll("pre.out")];
    hide(outputs, [], 0);
    if (!tooLong(slide)) return;
    deckFit.fitted++;
    slide.classList.add("dense");
    if (!tooLong(slide)) return;
    for (const pre of outputs) {
      if (pre.querySelectorAll(".line").length < 12) continue;
      pre.classList.add("columns");
      // Only for short lines: prose that wraps in a half-width column reads worse than a shorter output.
      const lines = [...pre.querySelectorAll(".line")];
      const wraps = lines.filter((l) => l.offsetHeight > 1.5 * parseFloat(getComputedStyle(l).lineHeight)).length;
      if (pre.scrollWidth > pre.clientWidth || wraps > Math.max(1, lines.length / 10)) pre.classList.remove("columns");
    }
    if (!tooLong(slide)) return;
    shorten(slide, outputs);
    if (tooLong(slide)) shrinkPictures(slide);
  }

  /** Records each shortened output of the slide (deckFit.shortened: its cell and the lines left out) and
   * tells the presenter in the slide's notes what the room does not see. */
  function report(slide) {
    for (const pre of slide.querySelectorAll("pre.out")) {
      const hidden = [...pre.querySelectorAll(".line[hidden]")];
      const count = hidden.length + Number(pre.dataset.rest || 0);
      if (count === 0) continue;
      deckFit.shortened.push({ cell: pre.dataset.cell === undefined ? null : Number(pre.dataset.cell), hidden: count });
      let notes = slide.querySelector(":scope > aside.notes");
      if (!notes) notes = slide.appendChild(Object.assign(document.createElement("aside"), { className: "notes" }));
      const first = (hidden[0]?.textContent ?? "").trim().slice(0, 80);
      const p = document.createElement("p");
      p.textContent = "Auf der Folie gekürzt: " + lineWord(count) + " der Ausgabe nicht gezeigt" +
        (first ? ", ab „" + first + "“" : "") + " – die ganze Ausgabe steht im Notebook.";
      notes.appendChild(p);
    }
  }

  /** Lays out each leaf slide in turn (reveal.js hides the distant ones) and fits it. */
  function fitAll() {
    const leaves = [...document.querySelectorAll(".reveal .slides section")].filter((s) => !s.querySelector("section"));
    for (const slide of leaves) {
      const shown = [slide, slide.parentElement].map((el) => [el, el.style.display]);
      shown.forEach(([el]) => (el.style.display = "block"));
      fit(slide);
      report(slide);
      shown.forEach(([el, display]) => (el.style.display = display));
    }
    deckFit.done = true;
  }
  Reveal.on("ready", fitAll);
})();`;
