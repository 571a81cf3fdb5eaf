// Notebook → reveal.js deck, one self-contained HTML file. The Jupyter slide metadata decides the shape
// (cell.metadata.slideshow.slide_type: slide = new slide, subslide = new vertical slide, fragment =
// appears on the next click, "-" = continues, skip = left out, notes = speaker notes; metadata.slides: the
// output lines a slide must show, outputs on a slide of their own). Code and text outputs are one block per
// line, so the browser wraps them at the slide's width with a hanging indent; the deck fits each slide
// itself when it opens (fit.ts); vertical slides carry their section's title; the talking points of
// docs/sprechernotizen.md join the notes of the slide whose title they name. reveal.js's CSS and JS are
// inlined (KaTeX's CSS and the fonts its formulas use where a deck has one), so the deck makes no request at all.
import { stripVTControlCharacters } from "node:util";
import { escapeHtml } from "../../../lib/notebook/index.js";
import { FIT_JS } from "./fit.js";

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
  metadata?: { slideshow?: { slide_type?: string }; slides?: SlideOptions };
  outputs?: NbOutput[];
}
/** A cell's own slide options (metadata.slides; see docs/notebook-authoring.md). */
export interface SlideOptions {
  /** Output lines the slide must show (keptLines). */
  show?: string | string[];
  /** "own-slide": the outputs go on a vertical slide of their own after the code. */
  output?: "own-slide";
  /** "/regex/" (or a list): a text output line it matches starts a further vertical slide of the outputs
   * (implies "own-slide"), so a long output is shown whole, page by page, instead of shortened. */
  pages?: string | string[];
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
  /** Indices of the notebook cells it shows (or takes notes from). */
  cells: number[];
  /** A page of a cell's outputs (metadata.slides.output / pages): the code was on the slide before. */
  outputPage?: boolean;
  /** Seconds the presenter has for it (reveal.js's pacing timer; estimate.ts). */
  timing?: number;
}
/** One horizontal slide: its vertical slides, the first one is the slide itself. */
export type Slide = Subslide[];

export type RenderMarkdown = (markdown: string) => string;

/** Text output lines a deck carries at most per cell (besides the lines its cell keeps); the deck shows
 * as many of them as its slide has room for (fit.ts) and counts the rest. */
const OUTPUT_LINES_CARRIED = 150;

function textOutput(o: NbOutput): string | undefined {
  if (o.output_type === "stream") return stripVTControlCharacters(joined(o.text));
  if (o.output_type === "error") return undefined;
  const data = o.data ?? {};
  if (data["image/svg+xml"] || data["text/html"] || data["text/markdown"] || data["image/png"]) return undefined;
  return data["text/plain"] ? joined(data["text/plain"]) : undefined;
}

/** Columns of leading white space (a tab counts 2). */
const leadColumns = (line: string) => [.../^[ \t]*/.exec(line)![0]].reduce((n, c) => n + (c === "\t" ? 2 : 1), 0);

/**
 * One line of code or output as a block of its own: the browser wraps it at the slide's real width, at
 * word boundaries, and continuation lines hang `hang` columns deeper than the line's own indentation.
 */
function lineHtml(line: string, hang: number, cls = "line"): string {
  return `<span class="${cls}" style="--hang:${leadColumns(line) + hang}ch">${escapeHtml(line)}</span>`;
}

/** A code cell's source as wrapped lines (continuations indented by four columns). */
export function codeHtml(source: string): string {
  return `<pre class="code"><code>${source
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => lineHtml(l, 4))
    .join("")}</code></pre>`;
}

/**
 * A cell's outputs as HTML: SVG and HTML stay pictures and tables, text stays text, one block per line.
 * `keep(n)` says whether the slide must show text line n (1-based, over all text outputs of the cell);
 * the other lines are the deck's to shorten when the slide runs out of room (fit.ts). Past
 * OUTPUT_LINES_CARRIED lines (and past the last kept one) the deck only counts the lines (`data-rest`).
 */
export function outputHtml(
  outputs: readonly NbOutput[],
  md: RenderMarkdown,
  keep: (line: number) => boolean = () => false,
  at: { cell?: number; firstLine?: number } = {},
): string {
  let n = at.firstLine ?? 0;
  const cellAttr = at.cell === undefined ? "" : ` data-cell="${at.cell}"`;
  const textBlock = (cls: string, raw: string) => {
    if (raw === "") return "";
    const lines = raw
      .replace(/\n$/, "")
      .split("\n")
      .map((line) => ({ line, kept: keep(++n) }));
    const lastKept = lines.findLastIndex((l) => l.kept);
    const carried = Math.max(OUTPUT_LINES_CARRIED, lastKept + 1);
    const rest = lines.length - Math.min(lines.length, carried);
    const html = lines
      .slice(0, carried)
      .map((l) => lineHtml(l.line, 2, l.kept ? "line keep" : "line"))
      .join("");
    return `<pre class="${cls}"${cellAttr}${rest > 0 ? ` data-rest="${rest}"` : ""}>${html}</pre>`;
  };
  return outputs
    .map((o) => {
      const text = textOutput(o);
      if (text !== undefined) return textBlock(`out${o.name === "stderr" ? " err" : ""}`, text);
      if (o.output_type === "error")
        return `<pre class="out err"${cellAttr}>${lineHtml(`${o.ename ?? "Error"}: ${o.evalue ?? ""}`, 2)}</pre>`;
      const data = o.data ?? {};
      if (data["image/svg+xml"]) return `<div class="out svg">${joined(data["image/svg+xml"])}</div>`;
      if (data["text/html"]) return `<div class="out html">${joined(data["text/html"])}</div>`;
      if (data["text/markdown"]) return `<div class="out md">${md(joined(data["text/markdown"]))}</div>`;
      if (data["image/png"])
        return `<img class="out" alt="" src="data:image/png;base64,${joined(data["image/png"]).trim()}">`;
      return "";
    })
    .filter((h) => h !== "")
    .join("\n");
}

/**
 * The text output lines a cell's slide must show, from `metadata.slides.show`: "all", a line "7", a range
 * "1-26" (1-based, over the cell's text outputs in order) or "/regex/" (the lines it matches); a list mixes
 * them. Without it the deck shortens the output to the room its slide leaves.
 */
export function keptLines(cell: NbCell): (line: number) => boolean {
  const show = cell.metadata?.slides?.show;
  const items = (Array.isArray(show) ? show : show === undefined ? [] : [show]).map((s) => s.trim());
  const lines = outputLines(cell);
  const kept = new Set<number>();
  for (const item of items) {
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(item);
    const pattern = /^\/(.+)\/$/.exec(item);
    if (item === "all") lines.forEach((_, i) => kept.add(i + 1));
    else if (range) for (let n = Number(range[1]); n <= Number(range[2] ?? range[1]); n++) kept.add(n);
    else if (pattern) lines.forEach((l, i) => new RegExp(pattern[1]!).test(l) && kept.add(i + 1));
    else
      throw new Error(
        `metadata.slides.show: „${item}“ ist weder "all", eine Zeile "7", ein Bereich "1-26" noch "/Muster/".`,
      );
  }
  return (line) => kept.has(line);
}

/** The cell's text output lines, as outputHtml numbers them. */
function outputLines(cell: NbCell): string[] {
  return (cell.outputs ?? []).flatMap((o) => {
    const text = textOutput(o);
    return text ? text.replace(/\n$/, "").split("\n") : [];
  });
}

/** The patterns of `metadata.slides.pages` ("/regex/" each). */
function pagePatterns(cell: NbCell): RegExp[] {
  const pages = cell.metadata?.slides?.pages;
  return (Array.isArray(pages) ? pages : pages === undefined ? [] : [pages]).map((p) => {
    const m = /^\/(.+)\/$/.exec(p.trim());
    if (!m) throw new Error(`metadata.slides.pages: „${p}“ ist kein "/Muster/".`);
    return new RegExp(m[1]!);
  });
}

/** One page of a cell's outputs: the outputs (text ones cut at page starts) and the number of text lines before it. */
export interface OutputPage {
  outputs: NbOutput[];
  firstLine: number;
}

/** A cell's outputs split into pages: each text line a `pages` pattern matches starts a new one (not the first line of a page). */
export function outputPages(cell: NbCell): OutputPage[] {
  const patterns = pagePatterns(cell);
  const pages: OutputPage[] = [{ outputs: [], firstLine: 0 }];
  let line = 0;
  for (const o of cell.outputs ?? []) {
    const text = textOutput(o);
    if (text === undefined || text === "" || patterns.length === 0) {
      pages.at(-1)!.outputs.push(o);
      continue;
    }
    let chunk: string[] = [];
    const flush = () => {
      if (chunk.length > 0)
        pages.at(-1)!.outputs.push({ output_type: "stream", name: o.name ?? "stdout", text: `${chunk.join("\n")}\n` });
      chunk = [];
    };
    for (const l of text.replace(/\n$/, "").split("\n")) {
      const page = pages.at(-1)!;
      if (patterns.some((p) => p.test(l)) && (chunk.length > 0 || page.outputs.length > 0)) {
        flush();
        pages.push({ outputs: [], firstLine: line });
      }
      chunk.push(l);
      line++;
    }
    flush();
  }
  return pages;
}

/**
 * Code blocks in rendered Markdown (a JSON example) as one block per line, like the code cells: a long
 * line wraps at the slide's width and its continuation hangs four columns deeper than its indentation.
 */
export function markdownCodeLines(html: string): string {
  return html.replace(/<pre><code([^>]*)>([\s\S]*?)<\/code><\/pre>/g, (_, attrs: string, body: string) => {
    const lines = body.replace(/\n$/, "").split("\n");
    const spans = lines.map((l) => `<span class="line" style="--hang:${leadColumns(l) + 4}ch">${l}</span>`).join("");
    return `<pre class="code"><code${attrs}>${spans}</code></pre>`;
  });
}

/** Leaf slides that say only a lead-in sentence ("Über onEvent sehen wir live, was passiert:") — the
 * thing it leads to belongs on the same slide. */
export function leadInOnlySlides(slides: Slide[]): string[] {
  return slides
    .flat()
    .filter((sub) => {
      const html = sub.blocks
        .map((b) => b.html)
        .join("")
        .trim();
      const text = slideText(sub).trim();
      return (
        /^<p>[\s\S]*<\/p>$/.test(html) &&
        !html.slice(3).includes("<p>") &&
        text.endsWith(":") &&
        text.split(" ").length <= 25
      );
    })
    .map((sub) => `${sub.title}: „${slideText(sub).trim()}“`);
}

/** The first heading of a Markdown text, without '#', backticks and emphasis. */
export function headingOf(markdown: string): string | undefined {
  const line = /^#{1,6}\s+(.+)$/m.exec(markdown)?.[1];
  return line?.replace(/[`*]/g, "").trim();
}

/** The notebook as slides, following its slide metadata. */
export function notebookSlides(nb: Notebook, md: RenderMarkdown): Slide[] {
  const slides: Slide[] = [];
  const current = () => slides.at(-1)?.at(-1);
  const start = (kind: "slide" | "subslide", title: string) => {
    const sub: Subslide = { title, blocks: [], notes: [], cells: [] };
    if (kind === "slide" || slides.length === 0) slides.push([sub]);
    else slides.at(-1)!.push(sub);
    return sub;
  };
  for (const [index, cell] of nb.cells.entries()) {
    const type = slideType(cell);
    if (type === "skip") continue;
    const source = joined(cell.source);
    const isCode = cell.cell_type === "code";
    if (type === "notes") {
      const sub = current() ?? start("slide", "");
      sub.notes.push(isCode ? `<pre>${escapeHtml(source)}</pre>` : md(source));
      sub.cells.push(index);
      continue;
    }
    const title = (!isCode && headingOf(source)) || current()?.title || "";
    const sub = type === "slide" || type === "subslide" ? start(type, title) : (current() ?? start("slide", title));
    sub.cells.push(index);
    const keep = keptLines(cell);
    if (outputsApart(cell)) {
      sub.blocks.push({ html: codeHtml(source), fragment: type === "fragment" });
      for (const page of outputPages(cell)) {
        const html = outputHtml(page.outputs, md, keep, { cell: index, firstLine: page.firstLine });
        const apart = start("subslide", sub.title);
        apart.blocks.push({ html, fragment: false });
        apart.cells.push(index);
        apart.outputPage = true;
      }
      continue;
    }
    const outputs = isCode ? outputHtml(cell.outputs ?? [], md, keep, { cell: index }) : "";
    sub.blocks.push({
      html: isCode ? `${codeHtml(source)}\n${outputs}` : markdownCodeLines(md(source)),
      fragment: type === "fragment",
    });
  }
  return slides;
}

/** A code cell whose outputs get a vertical slide of their own. */
const outputsApart = (cell: NbCell) =>
  cell.cell_type === "code" &&
  slideType(cell) !== "notes" &&
  (cell.metadata?.slides?.output === "own-slide" || cell.metadata?.slides?.pages !== undefined);

/** Number of slides (horizontal and vertical) the metadata asks for — what the browser must show. */
export function countSlides(nb: Notebook): number {
  const types = nb.cells.map(slideType).filter((t) => t !== "skip");
  const starts =
    types.filter((t) => t === "slide" || t === "subslide").length +
    nb.cells.filter((c) => slideType(c) !== "skip" && outputsApart(c)).reduce((n, c) => n + outputPages(c).length, 0);
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

/** Separates a talking point's slide title from words on the slide: "### 8. Die ganze Schleife › runAgent(". */
export const SLIDE_WORDS = " › ";

/** The text a slide shows (its blocks without tags), for finding it by its words. */
export function slideText(sub: Subslide): string {
  return sub.blocks
    .map((b) => b.html)
    .join(" ")
    .replace(/<[^>]+>/g, "")
    .replace(/&#60;/g, "<")
    .replace(/&#62;/g, ">")
    .replace(/&amp;|&#38;/g, "&")
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ");
}

/**
 * Adds each talking point to the first slide whose title starts with its title — and, with " › words",
 * that also shows these words (a vertical slide of the section) — and returns the unmatched titles.
 */
export function attachTalkingPoints(
  slides: Slide[],
  points: ReadonlyMap<string, string> | undefined,
  md: RenderMarkdown,
): string[] {
  const unmatched: string[] = [];
  for (const [key, text] of points ?? []) {
    const [title, words] = key.split(SLIDE_WORDS) as [string, string | undefined];
    const sub = slides
      .flat()
      .find((s) => s.title.startsWith(title) && (words === undefined || slideText(s).includes(words)));
    if (sub) sub.notes.push(md(text.trim()));
    else unmatched.push(key);
  }
  return unmatched;
}

export interface DeckAssets {
  revealCss: string;
  themeCss: string;
  revealJs: string;
  notesJs: string;
  /** CSS for KaTeX's formulas in `html` (their fonts only), read only for a deck that has one. */
  mathCss?: (html: string) => string;
}

/** Inline <script> text must not end the element early. */
const inlineScript = (js: string) => js.replace(/<\/(script)/gi, "<\\/$1");

/** A vertical slide below the first carries its section's title as a small header line. */
function subslideHtml(sub: Subslide, sectionTitle?: string): string {
  const header = sectionTitle ? `<header class="section-title">${escapeHtml(sectionTitle)}</header>\n` : "";
  const blocks =
    header + sub.blocks.map((b) => (b.fragment ? `<div class="fragment">${b.html}</div>` : b.html)).join("\n");
  const notes = sub.notes.length > 0 ? `\n<aside class="notes">${sub.notes.join("\n")}</aside>` : "";
  const timing = sub.timing === undefined ? "" : ` data-timing="${sub.timing}"`;
  return `<section${timing}><div class="controls-corner"></div>${blocks}${notes}</section>`;
}

/** The whole deck as one HTML file. `badge`: a line on the title slide (the rehearsal marker). */
export function deckHtml(title: string, slides: Slide[], assets: DeckAssets, badge?: string): string {
  const [first, ...rest] = slides;
  // The speaker view's pacing timer: ahead or behind the slides' own timings (all set, or none).
  const timings = slides.flat().map((s) => s.timing);
  const totalTime = timings.every((t) => t !== undefined) ? timings.reduce((a: number, t) => a + t!, 0) : 0;
  if (first && badge)
    first[0]!.blocks.unshift({ html: `<p class="badge">🎭 ${escapeHtml(badge)}</p>`, fragment: false });
  const sections = [first, ...rest]
    .filter((s): s is Slide => s !== undefined)
    .map((s) =>
      s.length === 1
        ? subslideHtml(s[0]!)
        : `<section>\n${s.map((sub, i) => subslideHtml(sub, i > 0 ? s[0]!.title : undefined)).join("\n")}\n</section>`,
    );
  const body = sections.join("\n");
  const math = assets.mathCss && body.includes('class="katex') ? `\n<style>${assets.mathCss(body)}</style>` : "";
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${assets.revealCss}</style>
<style>${assets.themeCss}</style>${math}
</head>
<body>
<div class="reveal"><div class="slides">
${body}
</div></div>
<script>${inlineScript(assets.revealJs)}</script>
<script>${inlineScript(assets.notesJs)}</script>
<script>${inlineScript(FIT_JS)}</script>
<script>
Reveal.initialize({ width: 1280, height: 720, margin: 0, center: false, hash: true,
  transition: "none", plugins: [RevealNotes]${totalTime ? `, totalTime: ${totalTime}` : ""} });
</script>
</body>
</html>
`;
}
