// What the room sees, as rules on the decks (issue 44): a long output on pages of its own instead of
// shortened, the guide's "Nie weglassen" table naming real shown cells, at most two shortened outputs per
// deck and none of a "Nie weglassen" cell, the speaker view's pacing timer fed from the estimate, every Teil
// deck ending with its summary and "Weiter: Aufgabe N" (a file that exists), and `npm run slides` running.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import {
  countSlides,
  deckHtml,
  leadInOnlySlides,
  notebookSlides,
  outputPages,
  type NbCell,
  type Notebook,
} from "../../scripts/apps/slides/deck.js";
import { CLASS_SERVER_8B, deckStats, setSlideTimings, talkSeconds } from "../../scripts/apps/slides/estimate.js";
import { deckAssets, markdownRenderer, slideNotebooks } from "../../scripts/apps/slides/build.js";
import { neverCut, neverCutCells, parseNeverCut } from "../../scripts/apps/slides/never-cut.js";
import { addReadingList, SUMMARY_TITLE } from "../../scripts/apps/slides/reading-list.js";
import { sectionNumberProblems, shownSectionNumbers } from "../../scripts/apps/slides/section-numbers.js";
import {
  MAX_SHORTENED_OUTPUTS,
  notesProblems,
  NOTES_ON_EVERY_SLIDE,
  shortenedProblems,
} from "../../scripts/dev/slides-check.js";

const root = findProjectRoot();
const md = await markdownRenderer();
const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Notebook;
const approval =
  [
    "Runde 1: Plan mit 1 Schritt",
    "+## Tag 2",
    "✋ plan_3 abgelehnt: Bitte nur einen Tag planen.",
    "Runde 2: Plan mit 1 Schritt",
    "✔ plan_1 freigegeben",
    "Runde 3: + Antwort",
  ].join("\n") + "\n";

test("metadata.slides.pages puts a long output on vertical slides of its own, page by page, every line kept", () => {
  const code: NbCell = {
    cell_type: "code",
    source: "const laufFreigabe = await runAgent(…)",
    metadata: { slideshow: { slide_type: "subslide" }, slides: { pages: "/^Runde [23]:/" } },
    outputs: [{ output_type: "stream", name: "stdout", text: approval }],
  };
  const nb: Notebook = {
    cells: [
      { cell_type: "markdown", source: "## 13. Freigaben", metadata: { slideshow: { slide_type: "slide" } } },
      code,
    ],
  };
  assert.deepEqual(
    outputPages(code).map((p) => p.firstLine),
    [0, 3, 5],
  );
  const [intro, codeSlide, ...pages] = notebookSlides(nb, md)[0]!;
  assert.equal(intro!.title, "13. Freigaben");
  assert.doesNotMatch(codeSlide!.blocks.map((b) => b.html).join(), /Runde/);
  assert.deepEqual(
    pages.map((p) => [p.title, p.outputPage]),
    [
      ["13. Freigaben", true],
      ["13. Freigaben", true],
      ["13. Freigaben", true],
    ],
  );
  assert.match(pages[0]!.blocks[0]!.html, /<pre class="out" data-cell="1">.*✋ plan_3 abgelehnt/);
  assert.match(pages[1]!.blocks[0]!.html, /Runde 2.*✔ plan_1 freigegeben/);
  assert.doesNotMatch(pages[1]!.blocks[0]!.html, /✋|Runde 3/);
  assert.equal(countSlides(nb), 5);
  assert.throws(() => outputPages({ ...code, metadata: { slides: { pages: "Runde 2" } } }), /kein "\/Muster\/"/);
});

test("the guide's 'Nie weglassen' table names shown cells of the decks, Teil 4's approval among them", () => {
  const list = neverCut(root);
  assert.ok(
    list.some((i) => i.notebook === "40-teil-4-agent" && i.code === "const laufFreigabe"),
    JSON.stringify(list),
  );
  assert.ok(list.length >= 8);
  for (const file of slideNotebooks(root)) {
    const name = basename(file, ".ipynb");
    const { cells, problems } = neverCutCells(name, read(file), list);
    assert.deepEqual(problems, [], name);
    assert.equal(cells.size, list.filter((i) => i.notebook === name).length, name);
  }
  const parsed = parseNeverCut(
    "<!-- BEGIN nie-weglassen -->\n| Notebook | Zelle | Was |\n| --- | --- | --- |\n| `x` | `a \\| b` | alles |\n<!-- END nie-weglassen -->",
  );
  assert.deepEqual(parsed, [{ notebook: "x", code: "a | b", what: "alles" }]);
  assert.deepEqual(neverCutCells("x", { cells: [] }, parsed).problems.length, 1);
});

test("at most two shortened outputs per deck, and a 'Nie weglassen' cell loses no line", () => {
  const never = new Map([[7, { code: "const laufFreigabe", what: "✋ … abgelehnt" }]]);
  assert.deepEqual(
    shortenedProblems(
      "1280×720",
      [
        { cell: 3, hidden: 4 },
        { cell: 5, hidden: 1 },
      ],
      never,
    ),
    [],
  );
  const three = shortenedProblems(
    "1280×720",
    [
      { cell: 3, hidden: 4 },
      { cell: 5, hidden: 1 },
      { cell: 9, hidden: 2 },
    ],
    never,
  );
  assert.equal(MAX_SHORTENED_OUTPUTS, 2);
  assert.match(three.join(), /1280×720: 3 outputs shortened \(7 lines left out\), at most 2/);
  assert.match(
    shortenedProblems("1920×1080", [{ cell: 7, hidden: 11 }], never).join(),
    /"Nie weglassen" cell `const laufFreigabe` .* loses 11 line/,
  );
});

test("the speaker view's pacing timer: every slide carries data-timing from the estimate, totalTime is their sum", () => {
  const file = join(root, "notebooks", "40-teil-4-agent.ipynb");
  const nb = read(file);
  const slides = notebookSlides(nb, md);
  addReadingList(slides, nb, md, basename(file));
  const total = setSlideTimings(nb, slides, CLASS_SERVER_8B);
  const html = deckHtml("Teil 4", slides, deckAssets());
  const timings = [...html.matchAll(/<section data-timing="(\d+)">/g)].map((m) => Number(m[1]));
  assert.equal(timings.length, slides.flat().length);
  assert.equal(
    timings.reduce((a, b) => a + b, 0),
    total,
  );
  assert.match(html, new RegExp(`totalTime: ${total} }`));
  // The same model as the deck's estimate (which also counts the live model waits): within a few seconds of rounding.
  assert.ok(Math.abs(total - talkSeconds(deckStats(nb))) < talkSeconds(deckStats(nb)) * 0.5 + 60, `${total} s`);
  assert.ok(
    timings.every((t) => t >= 20),
    "each slide at least its 20 s",
  );
});

test("every Teil deck ends with its summary and 'Weiter: Aufgabe N' naming the exercise notebook", () => {
  for (const file of slideNotebooks(root).filter((f) => /\d0-teil-/.test(f))) {
    const nb = read(file);
    const slides = notebookSlides(nb, md);
    addReadingList(slides, nb, md, basename(file));
    const last = slides.at(-1)![0]!;
    const n = /(\d)0-teil-/.exec(basename(file))![1];
    assert.match(last.title, SUMMARY_TITLE, `${basename(file)} ends with „${last.title}“`);
    const html = last.blocks.map((b) => b.html).join();
    const aufgabe = new RegExp(
      `Weiter: Aufgabe ${n}</strong> – <code>(${n}1-aufgabe-${n}-[a-z-]+\\.ipynb)</code>`,
    ).exec(html);
    assert.ok(aufgabe, html);
    assert.ok(existsSync(join(root, "notebooks", aufgabe[1]!)), aufgabe[1]);
  }
});

test("npm run slides runs: --zeiten prints the estimate table with each Teil's slot", () => {
  const out = execFileSync("npx", ["tsx", join(root, "scripts", "kit.ts"), "slides", "--zeiten"], {
    cwd: root,
    encoding: "utf8",
  });
  assert.match(out, /40-teil-4-agent\s+\d+\s+\d+\s+[\d.]+\s+\d+ min\s+\d+ min\s+50 min/);
});

test("no slide says only a lead-in sentence; a JSON example in Markdown wraps line by line with a hanging indent", () => {
  const leadIn: Notebook = {
    cells: [
      { cell_type: "markdown", source: "## 8. Die Schleife", metadata: { slideshow: { slide_type: "slide" } } },
      {
        cell_type: "markdown",
        source: "Über `onEvent` sehen wir live, was passiert:",
        metadata: { slideshow: { slide_type: "subslide" } },
      },
      { cell_type: "code", source: "await runAgent({ llm })", metadata: { slideshow: { slide_type: "subslide" } } },
    ],
  };
  assert.deepEqual(leadInOnlySlides(notebookSlides(leadIn, md)), [
    "8. Die Schleife: „Über onEvent sehen wir live, was passiert:“",
  ]);
  for (const file of slideNotebooks(root))
    assert.deepEqual(leadInOnlySlides(notebookSlides(read(file), md)), [], basename(file));
  const teil4 = notebookSlides(read(join(root, "notebooks", "40-teil-4-agent.ipynb")), md).flat();
  const plan = teil4
    .find((s) => s.title.startsWith("3. Der erste Plan"))!
    .blocks.map((b) => b.html)
    .join("");
  assert.match(
    plan,
    /<pre class="code"><code\s+class="json"><span class="line" style="--hang:4ch">\{&quot;steps&quot;: \[<\/span><span class="line" style="--hang:7ch"> {3}\{&quot;description/,
  );
});

test("a deck that must have notes on every slide fails for one without; Teil 4 is such a deck", () => {
  assert.ok(NOTES_ON_EVERY_SLIDE.includes("40-teil-4-agent"));
  assert.match(
    notesProblems("40-teil-4-agent", ["9.2 8. Die ganze Schleife"]).join(),
    /1 slide\(s\) without speaker notes .*9\.2 8\. Die ganze Schleife/,
  );
  assert.deepEqual(notesProblems("40-teil-4-agent", []), []);
});

test("the notes handout: one row per slide with its number, title, the slide small and its notes; nothing to load", async () => {
  const { handoutHtml } = await import("../../scripts/apps/slides/handout.js");
  const { attachTalkingPoints, parseTalkingPoints } = await import("../../scripts/apps/slides/deck.js");
  const file = join(root, "notebooks", "40-teil-4-agent.ipynb");
  const nb = read(file);
  const slides = notebookSlides(nb, md);
  attachTalkingPoints(
    slides,
    parseTalkingPoints(readFileSync(join(root, "docs", "sprechernotizen.md"), "utf8")).get("40-teil-4-agent"),
    md,
  );
  setSlideTimings(nb, slides, CLASS_SERVER_8B);
  const html = handoutHtml("Teil 4", slides);
  assert.equal(html.match(/<section class="slide">/g)?.length, slides.flat().length);
  assert.match(
    html,
    /<h2><span class="n">7\.3<\/span>6\. Prüfen, bevor etwas läuft: checkPlan<span class="t">≈ \d+:\d\d min<\/span><\/h2>\n<div class="mini"><pre class="code">/,
  );
  assert.match(html, /<div class="notes">[^]*?Validieren vor dem Ausführen/);
  assert.match(html, /@page \{ size: A4/);
  assert.ok(!/(?:src|href)=["']?(?!data:)[a-z]+:/i.test(html) && !/url\(/.test(html), "the handout loads nothing");
});

test("the section numbers a deck shows count 1, 2, 3 … in every Teil (Teil 4 jumped 9 → 13)", () => {
  const heading = (text: string, type: string): NbCell => ({
    cell_type: "markdown",
    source: text,
    metadata: { slideshow: { slide_type: type } },
  });
  const gap: Notebook = {
    cells: [
      heading("## 1. Vorbereitung", "slide"),
      heading("## 2. Plan", "slide"),
      heading("## 3. Mit Gedächtnis (Vertiefung)", "skip"),
      heading("## 4. Freigaben", "slide"),
      heading("## 6. Zusammenfassung", "slide"),
      heading("## 5. Selbst ausprobieren", "slide"),
      heading("## 7. Aufräumen", "skip"),
    ],
  };
  assert.deepEqual(shownSectionNumbers(gap), [1, 2, 4, 6, 5]);
  assert.deepEqual(
    sectionNumberProblems(gap).map((p) => p.split(",")[0]),
    [
      "section numbers on the slides go 2 → 4",
      "section numbers on the slides go 4 → 6",
      "section numbers on the slides go 6 → 5",
    ],
  );
  for (const file of slideNotebooks(root).filter((f) => /\d0-teil-\d/.test(f))) {
    const nb = read(file);
    assert.deepEqual(sectionNumberProblems(nb), [], basename(file));
    assert.ok(shownSectionNumbers(nb).length >= 9, `${basename(file)} shows its sections`);
  }
});
