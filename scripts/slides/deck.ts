// Notebook → reveal.js deck, one self-contained HTML file. The Jupyter slide metadata decides the shape
// (cell.metadata.slideshow.slide_type: slide = new slide, subslide = new vertical slide, fragment =
// appears on the next click, "-" = continues, skip = left out, notes = speaker notes); a long text output
// shows its first lines, as many as fit below its code, and says how many more the notebook has; the talking
// points of docs/sprechernotizen.md join the notes of the slide whose title they name. reveal.js's CSS
// and JS are inlined, so the deck makes no request at all.
import { stripVTControlCharacters } from "node:util";
import { escapeHtml } from "../../lib/notebook/escape-html.js";

export type SlideType = "slide" | "subslide" | "fragment" | "-" | "skip" | "notes";
const SLIDE_TYPES: readonly SlideType[] = ["slide", "subslide", "fragment", "-", "skip", "notes"];

export interface NbOutput {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
}
export interface NbCell {
  cell_type: string;
  source: string | string[];
  metadata?: { slideshow?: { slide_type?: string } };
  outputs?: NbOutput[];
}
export interface Notebook {
  cells: NbCell[];
}

const joined = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join("") : (s ?? ""));

/** The cell's slide type ("-" when it has none or an unknown one). */
export function slideType(cell: NbCell): SlideType {
  const t = cell.metadata?.slideshow?.slide_type as SlideType | undefined;
  return t !== undefined && SLIDE_TYPES.includes(t) ? t : "-";
}

/** One vertical slide: its blocks of HTML (a fragment block appears on a click) and its notes. */
export interface Subslide {
  title: string;
  blocks: { html: string; fragment: boolean }[];
  notes: string[];
}
/** One horizontal slide: its vertical slides, the first one is the slide itself. */
export type Slide = Subslide[];

export type RenderMarkdown = (markdown: string) => string;

/** Characters per line of a text output on a slide (20 px monospace in the 1280 px slide), for wrapping. */
const OUTPUT_COLUMNS = 100;
/** Rough slide heights (px at 1280×720, the theme's sizes) to decide how much of a long output fits. */
const SLIDE_PX = 700;
const CODE_LINE_PX = 22 * 1.3;
const OUTPUT_LINE_PX = 20 * 1.3;
/** A code or output block's padding and margin. */
const BLOCK_PX = 40;
/** Pictures and HTML tables: their height is not known before the browser lays them out. */
const RICH_OUTPUT_PX = 260;

/** Lines a text takes on a slide when long lines wrap at `columns`. */
function visualLines(text: string, columns = OUTPUT_COLUMNS): number {
  return text.replace(/\n$/, "").split("\n").reduce((n, line) => n + Math.max(1, Math.ceil([...line].length / columns)), 0);
}

/** Estimated height of a Markdown cell on a slide: headings, paragraphs, list items, table rows, code lines. */
function markdownPx(markdown: string): number {
  let px = 0;
  let fence = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) {
      fence = !fence;
      px += fence ? BLOCK_PX : 0;
    } else if (fence) px += CODE_LINE_PX;
    else if (/^#\s/.test(line)) px += 62 * Math.ceil(line.length / 40) + 18;
    else if (/^#{2,}\s/.test(line)) px += 51 * Math.ceil(line.length / 50) + 18;
    else if (/^\s*\|/.test(line)) px += /^\s*\|[\s:|-]+\|\s*$/.test(line) ? 0 : 46;
    else if (line.trim() !== "") px += 41.6 * Math.ceil(line.length / 70);
    else px += 12;
  }
  return px + 24;
}

function textOutput(o: NbOutput): string | undefined {
  if (o.output_type === "stream") return joined(o.text);
  if (o.output_type === "error") return "";
  const data = o.data ?? {};
  if (data["image/svg+xml"] || data["text/html"] || data["text/markdown"] || data["image/png"]) return undefined;
  return data["text/plain"] ? joined(data["text/plain"]) : "";
}

/** Estimated height of a code cell on a slide, its text outputs shown with at most `outputLines` lines. */
function codeCellPx(cell: NbCell, outputLines = Infinity): number {
  let px = joined(cell.source).split("\n").length * CODE_LINE_PX + BLOCK_PX;
  let text = 0;
  for (const o of cell.outputs ?? []) {
    const t = textOutput(o);
    if (t === undefined) px += RICH_OUTPUT_PX;
    else if (t !== "") {
      text += visualLines(t);
      px += BLOCK_PX;
    }
  }
  return px + Math.min(text, outputLines) * OUTPUT_LINE_PX;
}

/** How many lines of text output fit on a slide below `cell`'s code when the rest of the slide takes `othersPx` (at least 4). */
function outputLinesFor(cell: NbCell, othersPx: number): number {
  const fixed = codeCellPx(cell, 0);
  return Math.max(4, Math.floor((SLIDE_PX - othersPx - fixed) / OUTPUT_LINE_PX));
}

/** The first `lines` lines (as wrapped on a slide) of a text; the rest is counted, not shown. */
function excerpt(text: string, lines: number): { shown: string; hidden: number } {
  const all = text.replace(/\n$/, "").split("\n");
  let used = 0;
  let i = 0;
  for (; i < all.length; i++) {
    const need = visualLines(all[i]!);
    if (used + need > lines) break;
    used += need;
  }
  return { shown: all.slice(0, i).join("\n"), hidden: all.length - i };
}

/** A cell's outputs as HTML: SVG and HTML stay pictures and tables, text stays text. Text outputs longer
 * than `maxLines` lines (together, as wrapped on a slide) end with a marker: the rest is in the notebook. */
export function outputHtml(outputs: readonly NbOutput[], md: RenderMarkdown, maxLines = Infinity): string {
  let left = maxLines;
  const textBlock = (cls: string, raw: string) => {
    if (left <= 0) return "";
    const { shown, hidden } = excerpt(raw, left);
    left -= visualLines(shown);
    if (hidden === 0) return `<pre class="${cls}">${escapeHtml(raw)}</pre>`;
    left = 0;
    const more = `⋯ noch ${hidden} ${hidden === 1 ? "Zeile" : "Zeilen"} – die ganze Ausgabe steht im Notebook`;
    return `<pre class="${cls}">${escapeHtml(shown)}\n<span class="more">${more}</span></pre>`;
  };
  return outputs
    .map((o) => {
      if (o.output_type === "stream") return textBlock(`out${o.name === "stderr" ? " err" : ""}`, stripVTControlCharacters(joined(o.text)));
      if (o.output_type === "error") return `<pre class="out err">${escapeHtml(`${o.ename ?? "Error"}: ${o.evalue ?? ""}`)}</pre>`;
      const data = o.data ?? {};
      if (data["image/svg+xml"]) return `<div class="out svg">${joined(data["image/svg+xml"])}</div>`;
      if (data["text/html"]) return `<div class="out html">${joined(data["text/html"])}</div>`;
      if (data["text/markdown"]) return `<div class="out md">${md(joined(data["text/markdown"]))}</div>`;
      if (data["image/png"]) return `<img class="out" alt="" src="data:image/png;base64,${joined(data["image/png"]).trim()}">`;
      if (data["text/plain"]) return textBlock("out", joined(data["text/plain"]));
      return "";
    })
    .filter((h) => h !== "")
    .join("\n");
}

/** The first heading of a Markdown text, without '#', backticks and emphasis. */
export function headingOf(markdown: string): string | undefined {
  const line = /^#{1,6}\s+(.+)$/m.exec(markdown)?.[1];
  return line?.replace(/[`*]/g, "").trim();
}

/** The notebook as slides, following its slide metadata. */
export function notebookSlides(nb: Notebook, md: RenderMarkdown): Slide[] {
  // First the cells of each vertical slide, then their HTML: a long output gets the room its slide leaves.
  type Planned = { sub: Subslide; cells: { cell: NbCell; fragment: boolean }[] };
  const slides: Slide[] = [];
  const planned: Planned[] = [];
  const current = () => planned.at(-1);
  const start = (kind: "slide" | "subslide", title: string) => {
    const sub: Subslide = { title, blocks: [], notes: [] };
    if (kind === "slide" || slides.length === 0) slides.push([sub]);
    else slides.at(-1)!.push(sub);
    planned.push({ sub, cells: [] });
    return planned.at(-1)!;
  };
  for (const cell of nb.cells) {
    const type = slideType(cell);
    if (type === "skip") continue;
    const source = joined(cell.source);
    const isCode = cell.cell_type === "code";
    if (type === "notes") {
      (current() ?? start("slide", "")).sub.notes.push(isCode ? `<pre>${escapeHtml(source)}</pre>` : md(source));
      continue;
    }
    const title = (!isCode && headingOf(source)) || current()?.sub.title || "";
    const p = type === "slide" || type === "subslide" ? start(type, title) : (current() ?? start("slide", title));
    p.cells.push({ cell, fragment: type === "fragment" });
  }
  const minimalPx = (c: NbCell) => (c.cell_type === "code" ? codeCellPx(c, 4) : markdownPx(joined(c.source)));
  for (const { sub, cells } of planned) {
    for (const { cell, fragment } of cells) {
      const source = joined(cell.source);
      const others = cells.filter((c) => c.cell !== cell).reduce((px, c) => px + minimalPx(c.cell), 0);
      const html = cell.cell_type === "code"
        ? `<pre class="code"><code>${escapeHtml(source)}</code></pre>\n${outputHtml(cell.outputs ?? [], md, outputLinesFor(cell, others))}`
        : md(source);
      sub.blocks.push({ html, fragment });
    }
  }
  return slides;
}

/** Number of slides (horizontal and vertical) the metadata asks for — what the browser must show. */
export function countSlides(nb: Notebook): number {
  const types = nb.cells.map(slideType).filter((t) => t !== "skip");
  const starts = types.filter((t) => t === "slide" || t === "subslide").length;
  // Content (or notes) before the first slide start opens a slide of its own.
  return starts + (types.length > 0 && types[0] !== "slide" && types[0] !== "subslide" ? 1 : 0);
}

/** Talking points per notebook and slide title, from docs/sprechernotizen.md (## notebook, ### slide title). */
export type TalkingPoints = Map<string, Map<string, string>>;

export function parseTalkingPoints(markdown: string): TalkingPoints {
  const points: TalkingPoints = new Map();
  let notebook: Map<string, string> | undefined;
  let title: string | undefined;
  for (const line of markdown.split("\n")) {
    const h2 = /^## (\S+)\s*$/.exec(line);
    const h3 = /^### (.+)$/.exec(line);
    if (h2) {
      notebook = new Map();
      points.set(h2[1]!, notebook);
      title = undefined;
    } else if (h3 && notebook) {
      title = h3[1]!.replace(/[`*]/g, "").trim();
      notebook.set(title, "");
    } else if (notebook && title !== undefined) {
      notebook.set(title, `${notebook.get(title)}${line}\n`);
    }
  }
  return points;
}

/** Adds each talking point to the first slide whose title starts with its title; returns the unmatched titles. */
export function attachTalkingPoints(slides: Slide[], points: ReadonlyMap<string, string> | undefined, md: RenderMarkdown): string[] {
  const unmatched: string[] = [];
  for (const [title, text] of points ?? []) {
    const sub = slides.flat().find((s) => s.title.startsWith(title));
    if (sub) sub.notes.push(md(text.trim()));
    else unmatched.push(title);
  }
  return unmatched;
}

export interface DeckAssets {
  revealCss: string;
  themeCss: string;
  revealJs: string;
  notesJs: string;
}

/** Inline <script> text must not end the element early. */
const inlineScript = (js: string) => js.replace(/<\/(script)/gi, "<\\/$1");

function subslideHtml(sub: Subslide): string {
  const blocks = sub.blocks.map((b) => (b.fragment ? `<div class="fragment">${b.html}</div>` : b.html)).join("\n");
  const notes = sub.notes.length > 0 ? `\n<aside class="notes">${sub.notes.join("\n")}</aside>` : "";
  return `<section>${blocks}${notes}</section>`;
}

/** The whole deck as one HTML file. `badge`: a line on the title slide (the rehearsal marker). */
export function deckHtml(title: string, slides: Slide[], assets: DeckAssets, badge?: string): string {
  const [first, ...rest] = slides;
  if (first && badge) first[0]!.blocks.unshift({ html: `<p class="badge">🎭 ${escapeHtml(badge)}</p>`, fragment: false });
  const sections = [first, ...rest]
    .filter((s): s is Slide => s !== undefined)
    .map((s) => (s.length === 1 ? subslideHtml(s[0]!) : `<section>\n${s.map(subslideHtml).join("\n")}\n</section>`));
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${assets.revealCss}</style>
<style>${assets.themeCss}</style>
</head>
<body>
<div class="reveal"><div class="slides">
${sections.join("\n")}
</div></div>
<script>${inlineScript(assets.revealJs)}</script>
<script>${inlineScript(assets.notesJs)}</script>
<script>
Reveal.initialize({ width: 1280, height: 720, margin: 0, center: false, hash: true,
  transition: "none", plugins: [RevealNotes] });
</script>
</body>
</html>
`;
}
