// `npm run slides [-- <filter> ...] [--ausfuehren]`: 00-start and the Teil 1–4 notebooks as offline
// reveal.js decks in .cache/slides/<notebook>.slides.html. Each notebook is executed first (scripts/
// run-notebooks.ts): by default in rehearsal mode (WORKSHOP_PROBE=1, scripted answers; the title slide
// says "Probelauf"), with --ausfuehren on the instructor's configured model. Speaker notes: the notebooks'
// notes cells plus docs/sprechernotizen.md. A notebook with Vertiefung sections gets a closing slide that
// lists them (scripts/apps/slides/reading-list.ts). At the end a table: per deck slides, code slides, words and the
// estimated presentation time (scripts/apps/slides/estimate.ts) on the class server's 8B and on a CPU's 8B,
// next to its slot in the day plan. `--zeiten` prints only the table (no notebook runs); `--notizen` also
// writes a printable notes handout per deck (handout.ts); `--tempo datei.json`
// takes the first column's speed from `npm run doctor -- --tempo --json` (the instructor's machine).
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { findProjectRoot, PROBE_NOTICE } from "../../../lib/config.js";
import { writeFileAtomic } from "../../../lib/files.js";
import { OUTPUT_WRAP_ENV } from "../../../lib/notebook/wrap.js";
import { modelProblems, probeEnvironment } from "../models/model-help.js";
import { ensureNotebookLib } from "../../dev/build-notebook-lib.js";
import { formatFailure, runNotebook } from "../../dev/run-notebooks.js";
import {
  CLASS_SERVER_8B,
  CPU_8B,
  deckStats,
  setSlideTimings,
  speedFromDoctorJson,
  type ModelSpeed,
} from "./estimate.js";
import { timeTable } from "./time-table.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman } from "../../node/parse-args-german.js";
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

/** The estimate table for the presentation notebooks matching `filters` (their slide metadata, not run). */
export function estimateTable(
  filters: string[],
  speeds: readonly ModelSpeed[] = [CLASS_SERVER_8B, CPU_8B],
  root = findProjectRoot(),
): string {
  const decks = slideNotebooks(root, filters).map((file) => ({
    deck: basename(file, ".ipynb"),
    stats: deckStats(JSON.parse(readFileSync(file, "utf8")) as Notebook),
  }));
  const sources = speeds.map((s) => `${s.label}: ${s.source}`).join("\n   ");
  return `Geschätzte Vortragszeit (Folien, Code-Zeilen, Klicks und die Wartezeit der Modell-Aufrufe; Modell in scripts/apps/slides/estimate.ts):
${timeTable(decks, speeds)}
   ${sources}`;
}

/** `--tempo datei.json`: the speeds to estimate with (an error text when the file does not fit). */
function speedsFrom(file: string | undefined): ModelSpeed[] | string {
  if (file === undefined) return [CLASS_SERVER_8B, CPU_8B];
  if (!existsSync(file))
    return `--tempo: Die Datei „${file}“ gibt es nicht – erzeugen mit: npm run doctor -- --tempo --json > tempo.json`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return `--tempo: „${file}“ ist kein JSON – erwartet die Ausgabe von npm run doctor -- --tempo --json`;
  }
  const chosen = speedFromDoctorJson(json);
  return typeof chosen === "string" ? `--tempo ${file}: ${chosen}` : [chosen, CLASS_SERVER_8B, CPU_8B];
}

const OPTIONS = {
  ausfuehren: { type: "boolean", help: "mit dem eingestellten Modell statt im Probelauf" },
  ausführen: { type: "boolean" },
  zeiten: { type: "boolean", help: "nur die Tabelle der Vortragszeiten (führt nichts aus)" },
  tempo: {
    type: "string",
    value: "DATEI",
    help: "Tempo dieses Rechners aus npm run doctor -- --tempo --json > tempo.json",
  },
  notizen: { type: "boolean", help: "dazu je Teil die Sprechernotizen zum Ausdrucken (…notizen.html)" },
} as const;

export const command = defineCommand({
  name: "slides",
  invocation: "npm run slides --",
  summary: "Folien aus den Notebooks (reveal.js), mit Vortragszeiten; NAMENSTEIL: nur diese Notebooks (z. B. teil-2).",
  options: OPTIONS,
  positionals: "[NAMENSTEIL …]",
  run: ({ argv }) => main(argv),
});

async function main(argv: string[]): Promise<number> {
  // docs/workshop.md writes `[-- teil-4] [-- --ausfuehren]`: a second "--" is no end of the options here.
  const args = argv.filter((a) => a !== "--");
  const { values, positionals: filters } = parseArgsGerman(
    { args, allowPositionals: true, options: command.options },
    command.usage,
  );
  const configured = values.ausfuehren === true || values["ausführen"] === true;
  const speeds = speedsFrom(values.tempo);
  if (typeof speeds === "string") {
    console.error(speeds);
    return 1;
  }
  if (values.zeiten) {
    console.log(estimateTable(filters, speeds));
    return 0;
  }
  if (configured) {
    const problems = modelProblems(await testEnvironment({ tinyModels: false }), "workshop");
    if (problems.length > 0) {
      console.error(problems.join("\n"));
      return 1;
    }
  } else {
    console.log(`🎭 ${PROBE_NOTICE} – mit dem eigenen Modell: npm run slides -- --ausfuehren`);
  }
  const { decks, failed } = await buildSlides(filters, { configured, handout: values.notizen === true });
  if (decks.length === 0) {
    console.error(`Kein Notebook passt zu: ${filters.join(" ")}`);
    return 1;
  }
  for (const d of decks) console.log(`🖼️  ${d.file}${d.handout ? `\n📝 ${d.handout}` : ""}`);
  console.log(`\n${estimateTable(filters, speeds)}`);
  console.log(`\nFolien: ${dirname(decks[0]!.file)} (im Browser öffnen; Taste S: Referentenansicht mit Notizen)`);
  if (failed.length > 0)
    console.log(`⚠️ Fehler beim Ausführen von ${failed.join(", ")} – die Folien zeigen die Ausgaben bis dahin.`);
  return failed.length > 0 ? 1 : 0;
}
