// Building the decks, shared by `npm run slides` (main.ts) and the slides check (scripts/dev/slides-check.ts):
// the presentation notebooks, reveal.js's assets and Markdown renderer, one deck from a notebook, and all
// decks after executing their notebooks (rehearsal or the configured model).
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findProjectRoot, PROBE_NOTICE } from "../../../lib/config.js";
import { writeFileAtomic } from "../../../lib/files.js";
import { OUTPUT_WRAP_ENV } from "../../../lib/notebook/wrap.js";
import { probeEnvironment } from "../models/model-help.js";
import { ensureNotebookLib } from "../../dev/build-notebook-lib.js";
import { formatFailure, runNotebook } from "../../dev/run-notebooks.js";
import { CLASS_SERVER_8B, setSlideTimings, type ModelSpeed } from "./estimate.js";
import { testEnvironment } from "../../dev/test-env.js";
import {
  attachTalkingPoints,
  deckHtml,
  notebookSlides,
  parseTalkingPoints,
  type DeckAssets,
  type Notebook,
  type RenderMarkdown,
} from "./deck.js";
import { withMath } from "./math.js";
import { katexCss } from "./math-fonts.js";
import { addReadingList } from "./reading-list.js";
import { handoutHtml } from "./handout.js";
import { vertiefungPointsKey } from "./vertiefung.js";

/** The presentation notebooks: 00-start and N0-teil-N-…. */
export const SLIDE_NOTEBOOK = /^(00-start|\d0-teil-\d-.*)\.ipynb$/;
export const TALKING_POINTS = join("docs", "sprechernotizen.md");

export function slideNotebooks(root: string, filters: string[] = []): string[] {
  return readdirSync(join(root, "notebooks"))
    .filter((f) => SLIDE_NOTEBOOK.test(f))
    .filter((f) => filters.length === 0 || filters.some((q) => f.includes(q)))
    .sort()
    .map((f) => join(root, "notebooks", f));
}

/** reveal.js's CSS and JS from its npm package, the kit's theme, and KaTeX's CSS (with the fonts used) for decks with formulas. */
export function deckAssets(): DeckAssets {
  const dist = dirname(createRequire(import.meta.url).resolve("reveal.js"));
  const read = (...p: string[]) => readFileSync(join(...p), "utf8");
  return {
    revealCss: read(dist, "reveal.css"),
    revealJs: read(dist, "reveal.js"),
    notesJs: read(dist, "plugin", "notes.js"),
    themeCss: read(dirname(fileURLToPath(import.meta.url)), "theme.css"),
    mathCss: katexCss,
  };
}

/** Markdown → HTML with the marked instance that reveal.js's Markdown plugin bundles (no other package). */
export async function markdownRenderer(): Promise<RenderMarkdown> {
  const { default: Markdown } = await import("reveal.js/plugin/markdown");
  const plugin = Markdown();
  const nothing = { querySelectorAll: () => [] };
  // The plugin creates its marked instance in init(); without slides to convert, no DOM is touched.
  await plugin.init?.({ getConfig: () => ({}), getRevealElement: () => nothing } as never);
  const marked = plugin.marked;
  if (!marked) throw new Error("reveal.js/plugin/markdown: kein Markdown-Parser");
  return (text) => withMath(text, (t) => marked.parse(t) as string);
}

export interface DeckResult {
  notebook: string;
  file: string;
  /** The printable notes handout (with --notizen). */
  handout?: string;
  /** Leaf slides without speaker notes ("3.2 Titel"). */
  withoutNotes: string[];
  /** Leaf slides in all. */
  slideCount: number;
  /** Talking-point titles in docs/sprechernotizen.md that name no slide of this notebook. */
  unmatched: string[];
}

/** One deck from an (executed) notebook. */
export async function buildDeck(
  notebookFile: string,
  outDir: string,
  options: { probe: boolean; root?: string; speed?: ModelSpeed; handout?: boolean },
): Promise<DeckResult> {
  const root = options.root ?? findProjectRoot();
  const md = await markdownRenderer();
  const nb = JSON.parse(readFileSync(notebookFile, "utf8")) as Notebook;
  const name = basename(notebookFile, ".ipynb");
  const slides = notebookSlides(nb, md);
  const allPoints = parseTalkingPoints(readFileSync(join(root, TALKING_POINTS), "utf8"));
  const unmatched = attachTalkingPoints(slides, allPoints.get(name), md);
  addReadingList(slides, nb, md, basename(notebookFile), allPoints.get(vertiefungPointsKey(name)));
  setSlideTimings(nb, slides, options.speed ?? CLASS_SERVER_8B);
  const title = slides[0]?.[0]?.title || name;
  const html = deckHtml(title, slides, deckAssets(), options.probe ? PROBE_NOTICE : undefined);
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${name}.slides.html`);
  await writeFileAtomic(file, html);
  const withoutNotes = slides.flatMap((stack, h) =>
    stack.flatMap((sub, v) => (sub.notes.length > 0 ? [] : [`${h + 1}.${v + 1} ${sub.title}`])),
  );
  const base = { notebook: name, file, unmatched, withoutNotes, slideCount: slides.flat().length };
  if (!options.handout) return base;
  const handout = join(outDir, `${name}.notizen.html`);
  await writeFileAtomic(handout, handoutHtml(title, slides));
  return { ...base, handout };
}

/** Executes each presentation notebook (rehearsal or configured model) and builds its deck. */
export async function buildSlides(
  filters: string[],
  options: { configured: boolean; env?: NodeJS.ProcessEnv; outDir?: string; handout?: boolean },
): Promise<{ decks: DeckResult[]; failed: string[] }> {
  const root = findProjectRoot();
  const outDir = options.outDir ?? join(root, ".cache", "slides");
  const configured = async () => ({
    ...(await testEnvironment({ tinyModels: false })),
    WORKSHOP_PROBE: "0",
    WORKSHOP_PRACTICE: "0",
  });
  // The kernel leaves long output lines whole: the deck wraps them once, at the slide's own width.
  const env = {
    ...(options.env ?? (options.configured ? await configured() : await probeEnvironment())),
    [OUTPUT_WRAP_ENV]: "0",
  };
  const executedDir = join(outDir, "executed");
  console.log(ensureNotebookLib());
  const decks: DeckResult[] = [];
  const failed: string[] = [];
  for (const nb of slideNotebooks(root, filters)) {
    const run = await runNotebook(root, nb, env, executedDir);
    console.log(`${run.ok ? "ok  " : "FEHLER"} ${run.notebook} ausgeführt (${run.seconds.toFixed(1)} s)`);
    if (!run.ok) {
      console.log(formatFailure(run));
      failed.push(run.notebook);
    }
    const executed = join(executedDir, basename(nb));
    const deck = await buildDeck(existsSync(executed) ? executed : nb, outDir, {
      probe: !options.configured,
      root,
      handout: options.handout,
    });
    for (const t of deck.unmatched)
      console.log(`   ⚠️ Sprechernotiz „${t}“ passt zu keiner Folie von ${deck.notebook}.`);
    decks.push(deck);
  }
  return { decks, failed };
}
