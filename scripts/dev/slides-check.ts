// The slides stage of `npm test`: executes Teil 1–4 (00-start with a filter) in rehearsal mode (WORKSHOP_PROBE=1, tiny
// embedding model, offline travel data) under tslab — the rehearsal test: every set-up cell says
// "Probelauf", the demos take their tool paths — then builds each deck and opens it in headless Chromium:
// slide count as in the metadata (plus the closing slide of a deck with a Vertiefung), speaker notes, an
// SVG diagram in Teil 4, body text ≥ 28 px and code ≥ 18 px at 1280×720, every leaf slide fits (no element
// wider than its box, no content past the right or bottom edge or under the controls), no raw TeX (inline
// formulas too), every formula glyph in its KaTeX font, a title on every vertical slide, the rehearsal
// badge, the speaker view (key S) with the notes of the current slide, and no request to anything but the
// deck file itself. What the slides say (issue 44): at 1280×720 and 1920×1080 at most two outputs per deck
// shortened and none of the guide's "Nie weglassen" cells (never-cut.ts), speaker notes on every slide of
// the decks in NOTES_ON_EVERY_SLIDE, and the rehearsal's truth (rehearsal-truth.ts).
// Usage: tsx scripts/dev/slides-check.ts [filter ...]
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { findProjectRoot, PROBE_NOTICE } from "../../lib/config.js";
import { NOT_SCRIPTED } from "../../lib/rehearsal/index.js";
import type { NbCell, Notebook } from "../apps/slides/deck.js";
import { deckSlideCount } from "../apps/slides/reading-list.js";
import { deckPlanProblems } from "../apps/slides/plan-check.js";
import { SLIDE_PROBLEMS_JS } from "../apps/slides/layout.js";
import { missingFacesJs, RAW_TEX } from "../apps/slides/formula-check.js";
import { buildSlides } from "../apps/slides/build.js";
import { testEnvironment } from "./test-env.js";
import { rehearsalTruthProblems } from "../apps/slides/rehearsal-truth.js";
import { neverCut, neverCutCells } from "../apps/slides/never-cut.js";

/** Decks whose every slide has speaker notes (docs/sprechernotizen.md, "### Titel › Wörter" for a vertical
 * slide): the stage fails when one of their slides has none. The others report how many have notes. */
export const NOTES_ON_EVERY_SLIDE: readonly string[] = [
  "10-teil-1-lokales-llm",
  "20-teil-2-rag",
  "30-teil-3-mcp-werkzeuge",
  "40-teil-4-agent",
];

/** The notes rule for one deck: every slide of a NOTES_ON_EVERY_SLIDE deck has notes. */
export function notesProblems(notebook: string, withoutNotes: readonly string[]): string[] {
  if (!NOTES_ON_EVERY_SLIDE.includes(notebook) || withoutNotes.length === 0) return [];
  return [
    `${withoutNotes.length} slide(s) without speaker notes (add "### Titel › Wörter" to docs/sprechernotizen.md): ${withoutNotes.join("; ")}`,
  ];
}

/** Outputs a deck may shorten at most (each says in its notes what it leaves out); the rest get slides of their own. */
export const MAX_SHORTENED_OUTPUTS = 2;

/** What the deck's own fitting shortened (fit.ts: deckFit.shortened). */
interface Shortened {
  cell: number | null;
  hidden: number;
}
const SHORTENED = "window.deckFit ? window.deckFit.shortened : []";

/** The rules on shortened outputs at one window size: at most MAX_SHORTENED_OUTPUTS, none of a "Nie weglassen" cell. */
export function shortenedProblems(
  size: string,
  shortened: readonly Shortened[],
  never: ReadonlyMap<number, { code: string; what: string }>,
): string[] {
  const problems: string[] = [];
  const lines = shortened.reduce((n, s) => n + s.hidden, 0);
  if (shortened.length > MAX_SHORTENED_OUTPUTS) {
    problems.push(
      `${size}: ${shortened.length} outputs shortened (${lines} lines left out), at most ${MAX_SHORTENED_OUTPUTS} – give the others a slide of their own (metadata.slides.output / pages)`,
    );
  }
  for (const s of shortened) {
    const item = s.cell === null ? undefined : never.get(s.cell);
    if (item)
      problems.push(
        `${size}: "Nie weglassen" cell \`${item.code}\` (${item.what}) loses ${s.hidden} line(s) on its slide`,
      );
  }
  return problems;
}
import { ignore } from "../../lib/util.js";

export interface DeckCheck {
  notebook: string;
  ok: boolean;
  problems: string[];
  /** Slides with speaker notes, of all. */
  notes?: { with: number; of: number };
  /** Per window size ("1280×720"): outputs shortened and lines left out. */
  shortened?: Record<string, { outputs: number; lines: number }>;
}

/** What the rehearsal must show: in the cell whose source contains `cell`, an output matching `shows`. */
const REHEARSAL: Record<string, { cell: string; shows: RegExp }[]> = {
  "00-start": [{ cell: "llm.chat(gruss", shows: /Antwort: "🎭 Hallo!/ }],
  "10-teil-1-lokales-llm": [
    { cell: "const fallen", shows: /💬 🎭 Morgen wird es in Barcelona sonnig/ },
    { cell: "mitRegeln(f)", shows: /Das kann ich ohne aktuelle Daten nicht wissen/ },
    { cell: "const r2 =", shows: /Du heißt Max Mustermann/ },
  ],
  "20-teil-2-rag": [{ cell: "const antwortMit", shows: /Bucheckern/ }],
  "30-teil-3-mcp-werkzeuge": [
    { cell: "const geplant =", shows: /🔧 Tool-Aufruf: geocode \{"destination":"Barcelona"\}/ },
    { cell: "const brauchbar =", shows: /✅ Der Vorschlag des Modells ist brauchbar/ },
    { cell: "const wetterBrauchbar =", shows: /✅ Der Vorschlag des Modells ist brauchbar/ },
    { cell: "const wetterEintrag =", shows: /get_weather$|Quelle: offline/m },
    { cell: "runHalfAgentOnce({", shows: /"tool":"multiplikation".*\n[\s\S]*✅ Das exakte Ergebnis/ },
  ],
  "40-teil-4-agent": [
    { cell: "const lauf = await runAgent", shows: /→ wetter: get_weather\(\{"lat":\d/ },
    { cell: "const laufZwei", shows: /→ wetter_mad: get_weather\(\{"lat":\d/ },
    { cell: "const laufMax =", shows: /→ lauf_bcn: rank_spots\(\{"lat":\d/ },
    { cell: "const ragLauf", shows: /geocode-Aufrufe mit: Linz/ },
    {
      cell: "Native Aufrufe, gegen das Schema",
      shows: /Native Aufrufe, gegen das Schema geprüft: geocode ✅ · get_weather ✅/,
    },
    { cell: "const laufFreigabe", shows: /Freigabe für save_trip_plan/ },
    { cell: "const laufSchreiber", shows: /Antwort-Schreiber: 🎭 Heute .* °C/ },
    { cell: "new AgentSession", shows: /Und übermorgen\?\nAntwort \(beantwortet\): .* °C/ },
    { cell: "const echteAbstimmung", shows: /Lauf 2 .* Stimme für/ },
  ],
};
/** Cells that run the model with tools: none may fall back to "only the script" or a hand-written call. */
const AGENT_CELL = /runAgent\(|runVote\(|\.ask\(|runNativeToolChat\(|runHalfAgentOnce\(|planeMitGrammatik\(/;

const text = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join("") : (s ?? ""));
function outputText(cell: NbCell): string {
  return (cell.outputs ?? [])
    .map((o) => text(o.text) + text(o.data?.["text/plain"]) + text(o.data?.["text/markdown"]))
    .join("\n");
}

/** Problems of an executed notebook in rehearsal mode (empty: the rehearsal took the tool paths). */
export function rehearsalProblems(name: string, nb: Notebook): string[] {
  const problems: string[] = [];
  const code = nb.cells.filter((c) => c.cell_type === "code");
  const firstOutput = code.find((c) => (c.outputs ?? []).length > 0);
  if (!firstOutput || !outputText(firstOutput).includes(PROBE_NOTICE))
    problems.push(`the set-up cell does not say "${PROBE_NOTICE}"`);
  for (const c of code.filter((c) => AGENT_CELL.test(text(c.source)))) {
    const out = outputText(c);
    if (out.includes(NOT_SCRIPTED) || /✍️ ERSATZ/.test(out))
      problems.push(`agent cell fell back: ${text(c.source).split("\n")[0]} → ${out.slice(0, 200)}`);
  }
  for (const { cell, shows } of REHEARSAL[name] ?? []) {
    const found = code.find((c) => text(c.source).includes(cell));
    if (!found) problems.push(`no cell contains ${JSON.stringify(cell)}`);
    else if (!shows.test(outputText(found)))
      problems.push(`cell ${JSON.stringify(cell)} does not show ${shows}: ${outputText(found).slice(0, 300)}`);
  }
  problems.push(...rehearsalTruthProblems(nb));
  return problems;
}

/** reveal.js is ready and the deck has fitted its slides (fit.ts; a deck without it counts as fitted). */
const DECK_READY = "window.Reveal && window.Reveal.isReady() && (!window.deckFit || window.deckFit.done)";

const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => Boolean(p) && existsSync(p as string),
);

/** What the browser measures in a deck (evaluated in the page). */
interface Measured {
  total: number;
  notes: number;
  svgs: number;
  title: string;
  smallestBody: number;
  smallestCode: number;
}
const MEASURE = `(() => {
  const px = (el) => parseFloat(getComputedStyle(el).fontSize) * Reveal.getScale();
  const body = [...document.querySelectorAll(".reveal .slides section p, .reveal .slides section li, .reveal .slides section td")]
    .filter((e) => !e.closest("aside, .out"));
  const code = [...document.querySelectorAll(".reveal pre.code code, .reveal pre.out")];
  return {
    total: Reveal.getTotalSlides(),
    notes: document.querySelectorAll(".reveal aside.notes").length,
    svgs: document.querySelectorAll(".reveal .slides .out svg").length,
    title: document.querySelector(".reveal .slides > section")?.textContent ?? "",
    smallestBody: Math.min(...body.map(px)),
    smallestCode: Math.min(...code.map(px)),
  };
})()`;

/** What is wrong with one leaf slide as the room sees it. */
export interface SlideProblem {
  /** "3.2": horizontal slide 3, its second vertical slide. */
  slide: string;
  /** Its first words. */
  words: string;
  /** Layout problems (layout.ts), "TeX: …" for raw formula source, "font missing: …" for a formula glyph without
   * its KaTeX face (formula-check.ts), "no title" for a vertical slide without one. */
  problems: string[];
}
/** Visits every leaf slide the way a presenter does (reveal shows only slides near the current one, the
 * others have display: none) and measures it one frame later (as the room sees it) in reveal's own coordinates before its scaling: layout
 * (SLIDE_PROBLEMS_JS), raw TeX in the visible text, the font faces of its formulas (formula-check.ts), and
 * a title at the top of every vertical slide below the first. Fragments take their space while hidden. */
const SLIDE_PROBLEMS = `(async () => {
  const layout = ${SLIDE_PROBLEMS_JS};
  const rawTex = ${RAW_TEX.toString()};
  const missingFaces = ${missingFacesJs()};
  const out = [];
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  for (const [hi, h] of Reveal.getHorizontalSlides().entries()) {
    const stack = [...h.querySelectorAll(":scope > section")];
    for (const vi of (stack.length > 0 ? stack : [h]).keys()) {
      Reveal.slide(hi, vi, -1);
      await frame();
      const s = Reveal.getCurrentSlide();
      const problems = layout(s).map((p) => p.kind + ": " + p.words);
      const walker = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
      let visible = "";
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.parentElement.closest("pre, code, aside, .katex") && n.parentElement.getClientRects().length > 0) visible += n.textContent;
      }
      visible = visible.replace(/\\s+/g, " ");
      const tex = rawTex.exec(visible);
      if (tex) problems.push("TeX: " + visible.slice(Math.max(0, tex.index - 10), tex.index + 50));
      for (const face of missingFaces(s)) problems.push("font missing: " + face);
      const first = [...s.children].find((e) => !e.matches("aside.notes, .controls-corner"));
      if (vi > 0 && !(first && first.matches("h1, h2, h3, header") && first.textContent.trim())) problems.push("no title");
      if (problems.length > 0) {
        const heading = s.querySelector("h1, h2, h3, h4, p:not(.badge), li, pre");
        const words = (heading?.textContent ?? s.textContent ?? "").replace(/\\s+/g, " ").trim().split(" ").slice(0, 8).join(" ");
        out.push({ slide: (hi + 1) + (stack.length > 0 ? "." + (vi + 1) : ""), words, problems });
      }
    }
  }
  Reveal.slide(0, 0);
  return out;
})()`;

/** Goes to the first slide with notes and returns the start of its notes (null: no slide has notes). */
const FIRST_NOTES = `(() => {
  const slide = [...document.querySelectorAll(".reveal .slides section")]
    .find((s) => !s.querySelector("section") && s.querySelector(":scope > aside.notes"));
  if (!slide) return null;
  const at = Reveal.getIndices(slide);
  Reveal.slide(at.h, at.v);
  return slide.querySelector(":scope > aside.notes").textContent.replace(/\\s+/g, " ").trim().slice(0, 40);
})()`;

/** The speaker view as the presenter opens it (key S): a popup that shows the current slide's notes. */
async function speakerViewProblem(page: Page, onRequest: (url: string) => void): Promise<string | undefined> {
  const words = (await page.evaluate(FIRST_NOTES)) as string | null;
  if (!words) return "no slide with speaker notes for the speaker view";
  const opened = page.waitForEvent("popup", { timeout: 10_000 }).catch(ignore("no popup: the check below says so"));
  await page.keyboard.press("s");
  const popup = await opened;
  if (!popup) return "the speaker view (key S) did not open";
  popup.on("request", (r) => onRequest(r.url()));
  try {
    const shows = `(document.querySelector(".speaker-controls-notes .value")?.textContent ?? "").replace(/\\s+/g, " ").includes(${JSON.stringify(words)})`;
    await popup.waitForFunction(shows, undefined, { timeout: 15_000 });
    return undefined;
  } catch {
    return `the speaker view (key S) does not show the notes „${words}“`;
  } finally {
    await popup.close();
  }
}

export async function checkDecks(
  files: { notebook: string; executed: string; deck: string }[],
): Promise<DeckCheck[] | "no Chromium"> {
  if (!CHROMIUM) return "no Chromium";
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const shots = join(findProjectRoot(), ".cache", "browser");
  mkdirSync(shots, { recursive: true });
  const checks: DeckCheck[] = [];
  try {
    for (const f of files) {
      const problems: string[] = [];
      const url = pathToFileURL(f.deck).href;
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const requests: string[] = [];
      page.on("request", (r) => {
        if (r.url().split("#")[0] !== url && !r.url().startsWith("data:")) requests.push(r.url());
      });
      await page.goto(url);
      await page.waitForFunction(DECK_READY, undefined, { timeout: 30_000 });
      const m = (await page.evaluate(MEASURE)) as Measured;
      const executedNb = JSON.parse(readFileSync(f.executed, "utf8")) as Notebook;
      const expected = deckSlideCount(executedNb);
      const never = neverCutCells(f.notebook, executedNb, neverCut(findProjectRoot()));
      problems.push(...never.problems);
      const shortened: DeckCheck["shortened"] = {};
      const countShortened = (size: string, list: Shortened[]) => {
        shortened[size] = { outputs: list.length, lines: list.reduce((n, s) => n + s.hidden, 0) };
        problems.push(...shortenedProblems(size, list, never.cells));
      };
      countShortened("1280×720", (await page.evaluate(SHORTENED)) as Shortened[]);
      if (m.total !== expected) problems.push(`${m.total} slides in the browser, ${expected} in the metadata`);
      if (m.notes === 0) problems.push("no speaker notes");
      if (f.notebook.startsWith("40-") && m.svgs === 0) problems.push("no SVG diagram");
      if (!m.title.includes("Probelauf")) problems.push("the title slide does not say Probelauf");
      if (!(m.smallestBody >= 28)) problems.push(`body text ${m.smallestBody.toFixed(1)} px (< 28)`);
      if (!(m.smallestCode >= 18)) problems.push(`code ${m.smallestCode.toFixed(1)} px (< 18)`);
      const bad = (await page.evaluate(SLIDE_PROBLEMS)) as SlideProblem[];
      if (bad.length > 0) {
        const list = bad.map((o) => `${o.slide} „${o.words}“: ${o.problems.join(" | ")}`).join("\n       ");
        problems.push(`${bad.length} of ${m.total} slides do not fit or read at 1280×720:\n       ${list}`);
      }
      const speaker = await speakerViewProblem(page, (r) => {
        if (r.split(/[?#]/)[0] !== url && r !== "about:blank" && !r.startsWith("data:")) requests.push(r);
      });
      if (speaker) problems.push(speaker);
      if (requests.length > 0) problems.push(`requests besides the deck: ${requests.slice(0, 5).join(", ")}`);
      await page.screenshot({ path: join(shots, `slides-${f.notebook}.png`) });
      await page.close();
      // The room's projector may be full HD: the deck fits itself there anew.
      const large = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
      await large.goto(url);
      await large.waitForFunction(DECK_READY, undefined, { timeout: 30_000 });
      countShortened("1920×1080", (await large.evaluate(SHORTENED)) as Shortened[]);
      await large.close();
      checks.push({ notebook: f.notebook, ok: problems.length === 0, problems, shortened });
    }
  } finally {
    await browser.close();
  }
  return checks;
}

/** The whole stage: rehearsal run, decks, browser. */
export async function runSlidesCheck(
  filters: string[] = [],
): Promise<{ checks: DeckCheck[]; skipped?: string; seconds: number }> {
  const started = performance.now();
  const outDir = join(findProjectRoot(), ".cache", "slides-check");
  const env = { ...(await testEnvironment({ tinyModels: true })), WORKSHOP_PROBE: "1" };
  // npm test checks the Teil decks; 00-start (three cells, no agent) only with an explicit filter.
  const { decks, failed } = await buildSlides(filters.length > 0 ? filters : ["-teil-"], {
    configured: false,
    env,
    outDir,
  });
  const checks: DeckCheck[] = decks.map((d) => {
    const executed = join(outDir, "executed", `${d.notebook}.ipynb`);
    const nb = JSON.parse(readFileSync(executed, "utf8")) as Notebook;
    const problems = [
      ...(failed.includes(`${d.notebook}.ipynb`) ? ["a cell failed in rehearsal mode"] : []),
      ...d.unmatched.map((t) => `talking point "${t}" matches no slide`),
      ...notesProblems(d.notebook, d.withoutNotes),
      ...rehearsalProblems(d.notebook, nb),
      ...deckPlanProblems(d.notebook, nb, findProjectRoot()),
    ];
    return {
      notebook: d.notebook,
      ok: problems.length === 0,
      problems,
      notes: { with: d.slideCount - d.withoutNotes.length, of: d.slideCount },
    };
  });
  const browser = await checkDecks(
    decks.map((d) => ({
      notebook: d.notebook,
      executed: join(outDir, "executed", `${d.notebook}.ipynb`),
      deck: d.file,
    })),
  );
  if (browser === "no Chromium")
    return { checks, skipped: "no Chromium", seconds: (performance.now() - started) / 1000 };
  for (const b of browser) {
    const c = checks.find((x) => x.notebook === b.notebook)!;
    c.problems.push(...b.problems);
    c.shortened = b.shortened;
    c.ok = c.problems.length === 0;
  }
  return { checks, seconds: (performance.now() - started) / 1000 };
}

export function formatSlidesCheck(r: { checks: DeckCheck[]; skipped?: string }): string {
  const cut = (c: DeckCheck) =>
    Object.entries(c.shortened ?? {})
      .map(([size, s]) => `${size}: ${s.outputs} gekürzt, ${s.lines} Zeilen`)
      .join(" · ");
  const notes = (c: DeckCheck) => (c.notes ? `, Notizen ${c.notes.with}/${c.notes.of} Folien` : "");
  const lines = r.checks.map(
    (c) =>
      `${c.ok ? "ok  " : "FAIL"} ${basename(c.notebook)}${c.shortened ? ` (Ausgaben ${cut(c)}${notes(c)})` : ""}${c.problems.map((p) => `\n     - ${p}`).join("")}`,
  );
  if (r.skipped) lines.push(`browser part skipped: ${r.skipped}`);
  return lines.join("\n");
}
