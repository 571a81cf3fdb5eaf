// The slide decks without a browser: the Jupyter slide metadata decides slides, vertical slides,
// fragments, skipped cells and notes; SVG and HTML outputs stay pictures and tables; the talking points of
// docs/sprechernotizen.md each name a slide of their notebook; the deck file loads nothing from outside.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import {
  attachTalkingPoints,
  countSlides,
  SLIDE_WORDS,
  deckHtml,
  keptLines,
  notebookSlides,
  outputHtml,
  parseTalkingPoints,
  type NbCell,
  type Notebook,
} from "../../scripts/apps/slides/deck.js";
import { deckAssets, markdownRenderer, slideNotebooks, TALKING_POINTS } from "../../scripts/apps/slides/build.js";

const root = findProjectRoot();
const md = await markdownRenderer();
const cell = (cell_type: string, source: string, slide_type?: string, outputs: NbCell["outputs"] = []): NbCell => ({
  cell_type,
  source,
  outputs,
  ...(slide_type ? { metadata: { slideshow: { slide_type } } } : {}),
});

const fixture: Notebook = {
  cells: [
    cell("markdown", "# Titel", "slide"),
    cell("markdown", "## 1. Erster Abschnitt\n\n| a | b |\n|:--|:--|\n| 1 | 2 |", "slide"),
    cell("code", "const x = 1;", "skip"),
    cell("code", "console.log(x)", "subslide", [{ output_type: "stream", name: "stdout", text: "1 < 2\n" }]),
    cell("markdown", "Fazit", "fragment"),
    cell("markdown", "Lange Erklärung für die Notizen", "notes"),
    cell("code", "await showPlan(p)", "-", [
      { output_type: "display_data", data: { "image/svg+xml": "<svg><g id='geo'></g></svg>", "text/plain": "x" } },
    ]),
    cell("markdown", "## 2. Zweiter Abschnitt", "slide"),
    cell("code", "showTable()", "-", [
      { output_type: "display_data", data: { "text/html": "<table><tr><td>t</td></tr></table>" } },
    ]),
  ],
};

test("slide metadata decides slides, vertical slides, fragments, skipped cells and notes", () => {
  const slides = notebookSlides(fixture, md);
  assert.deepEqual(
    slides.map((s) => s.length),
    [1, 2, 1],
  );
  assert.equal(countSlides(fixture), 4);
  const [intro, code] = slides[1]!;
  assert.match(intro!.blocks[0]!.html, /<table>[\s\S]*<td align="left">1<\/td>/);
  assert.equal(code!.title, "1. Erster Abschnitt");
  assert.match(
    code!.blocks[0]!.html,
    /console\.log\(x\)[\s\S]*<pre class="out" data-cell="3"><span class="line" style="--hang:2ch">1 &#60; 2<\/span><\/pre>/,
  );
  assert.doesNotMatch(
    slides
      .flat()
      .map((s) => s.blocks.map((b) => b.html).join())
      .join(),
    /const x = 1/,
  );
  assert.deepEqual(
    code!.blocks.map((b) => b.fragment),
    [false, true, false],
  );
  assert.match(code!.notes.join(), /Lange Erklärung/);
  assert.match(code!.blocks[2]!.html, /<div class="out svg"><svg><g id='geo'>/);
  assert.match(slides[2]![0]!.blocks[1]!.html, /<div class="out html"><table>/);
});

test("code and output lines are blocks of their own with a hanging indent; the deck carries a long output up to its limit and counts the rest", () => {
  const long = Array.from({ length: 200 }, (_, i) => `Zeile ${i + 1}`).join("\n") + "\n";
  const nb: Notebook = {
    cells: [
      cell("markdown", "## Lang", "slide"),
      cell("code", "if (x) {\n  console.log(lang);\n}", "-", [{ output_type: "stream", name: "stdout", text: long }]),
      cell("code", "console.log(kurz)", "subslide", [{ output_type: "stream", name: "stdout", text: "a\n  b\n" }]),
    ],
  };
  const [first, second] = notebookSlides(nb, md)[0]!;
  const out = first!.blocks[1]!.html;
  assert.match(out, /<span class="line" style="--hang:6ch"> {2}console\.log\(lang\);<\/span>/);
  assert.match(out, /<pre class="out" data-cell="1" data-rest="50">/);
  assert.match(out, /Zeile 150<\/span><\/pre>/);
  assert.doesNotMatch(out, /Zeile 151/);
  assert.equal(
    second!.blocks[0]!.html,
    '<pre class="code"><code><span class="line" style="--hang:4ch">console.log(kurz)</span></code></pre>\n' +
      '<pre class="out" data-cell="2"><span class="line" style="--hang:2ch">a</span><span class="line" style="--hang:4ch">  b</span></pre>',
  );
  assert.equal(countSlides(nb), 2);
});

test("a cell names the output lines its slide must show (all, a line, a range, a pattern) and may give them a slide of their own", () => {
  const text = "eins\nzwei\ndrei $ref\nvier\n";
  const kept = (show: string | string[]) => {
    const c: NbCell = {
      ...cell("code", "x", "-", [{ output_type: "stream", name: "stdout", text }]),
      metadata: { slides: { show } },
    };
    return [1, 2, 3, 4].filter(keptLines(c));
  };
  assert.deepEqual(kept("all"), [1, 2, 3, 4]);
  assert.deepEqual(kept(["1", "/\\$ref/"]), [1, 3]);
  assert.deepEqual(kept("2-3"), [2, 3]);
  assert.throws(() => kept("erste"), /weder "all"/);
  const apart: Notebook = {
    cells: [
      cell("markdown", "## Plan", "slide"),
      {
        ...cell("code", "plan()", "-", [{ output_type: "stream", name: "stdout", text }]),
        metadata: { slides: { output: "own-slide" } },
      },
      cell("markdown", "Achte auf $ref.", "fragment"),
    ],
  };
  const [code, output] = notebookSlides(apart, md)[0]!;
  assert.doesNotMatch(code!.blocks.map((b) => b.html).join(), /eins/);
  assert.deepEqual([output!.title, output!.blocks.length, countSlides(apart)], ["Plan", 2, 2]);
  const c: NbCell = {
    ...cell("code", "x", "-", [{ output_type: "stream", name: "stdout", text }]),
    metadata: { slides: { show: "3" } },
  };
  assert.match(
    outputHtml(c.outputs!, md, keptLines(c)),
    /<span class="line keep" style="--hang:2ch">drei \$ref<\/span>/,
  );
});

test("every vertical slide below the first carries its section's title; a display formula becomes KaTeX's HTML with its CSS", () => {
  const nb: Notebook = {
    cells: [
      cell("markdown", "## 6. Der Vektorindex", "slide"),
      cell("markdown", "Es gilt:\n\n$$\\|a-b\\|^2 = 2 - 2\\,a\\cdot b$$\n\nund `$$` im Code bleibt.", "subslide"),
    ],
  };
  const html = deckHtml("Titel", notebookSlides(nb, md), deckAssets());
  assert.match(
    html,
    /<section><div class="controls-corner"><\/div><header class="section-title">6\. Der Vektorindex<\/header>\n<p>Es gilt:/,
  );
  assert.match(html, /<span class="katex-display">/);
  assert.doesNotMatch(html.replace(/<style>[\s\S]*?<\/style>/g, ""), /\$\$\\\|/);
  assert.match(html, /<code>\$\$<\/code>/);
  assert.match(html, /@font-face\{[^}]*src:url\(data:font\/woff2;base64,/);
  assert.doesNotMatch(
    deckHtml("Titel", notebookSlides(fixture, md), deckAssets()),
    /@font-face\{font-display:block;font-family:KaTeX/,
  );
});

test("a talking point joins the slide its title names; one that names no slide is reported", () => {
  const slides = notebookSlides(fixture, md);
  const points = parseTalkingPoints(
    "## fixture\n\n### 2. Zweiter\n\n- **Sagen:** wichtig\n\n### 9. Gibt es nicht\n\n- x\n",
  );
  assert.deepEqual(attachTalkingPoints(slides, points.get("fixture"), md), ["9. Gibt es nicht"]);
  assert.match(slides[2]![0]!.notes.join(), /<strong>Sagen:<\/strong> wichtig/);
});

test("every talking point in docs/sprechernotizen.md names a slide of its notebook, and every deck has notes", () => {
  const points = parseTalkingPoints(readFileSync(join(root, TALKING_POINTS), "utf8"));
  const notebooks = slideNotebooks(root);
  assert.deepEqual(
    notebooks.map((f) => f.split("/").at(-1)),
    [
      "00-start.ipynb",
      "10-teil-1-lokales-llm.ipynb",
      "20-teil-2-rag.ipynb",
      "30-teil-3-mcp-werkzeuge.ipynb",
      "40-teil-4-agent.ipynb",
    ],
  );
  for (const file of notebooks) {
    const name = file.split("/").at(-1)!.replace(".ipynb", "");
    const slides = notebookSlides(JSON.parse(readFileSync(file, "utf8")) as Notebook, md);
    assert.ok(points.has(name), `${name}: no talking points`);
    // A point for an output page ("### Titel › Wörter der Ausgabe") finds its slide only in the executed
    // notebook (the slides stage checks that); here its title must name a slide.
    const unmatched = attachTalkingPoints(slides, points.get(name), md).filter(
      (key) =>
        !(key.includes(SLIDE_WORDS) && slides.flat().some((s) => s.title.startsWith(key.split(SLIDE_WORDS)[0]!))),
    );
    assert.deepEqual(unmatched, [], name);
    assert.ok(slides.flat().length >= 2, `${name}: ${slides.flat().length} slide(s) – is the slide metadata set?`);
  }
});

test("every presentation notebook has slide metadata on every cell, and its title cell starts a slide", () => {
  for (const file of slideNotebooks(root)) {
    const nb = JSON.parse(readFileSync(file, "utf8")) as Notebook;
    const missing = nb.cells.filter((c) => c.metadata?.slideshow?.slide_type === undefined).length;
    assert.equal(missing, 0, `${file}: ${missing} cells without slide_type`);
    assert.equal(nb.cells[0]?.metadata?.slideshow?.slide_type, "slide", file);
  }
});

test("the deck inlines reveal.js and names no URL to load; the rehearsal badge is on the title slide", () => {
  const html = deckHtml("Titel", notebookSlides(fixture, md), deckAssets(), "Probelauf: vorgespielte Antworten");
  // The markup outside the inlined code (reveal.js's own JS only builds elements from the deck's content).
  const markup = html.replace(/<script>[\s\S]*?<\/script>/g, "").replace(/<style>[\s\S]*?<\/style>/g, "");
  assert.ok(
    !/<(?:script|link|img|iframe)[^>]+(?:src|href)=["']?(?!data:)/i.test(markup),
    "the deck names a file to load",
  );
  const css = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join("");
  assert.ok(!/@import|url\(["']?(?!data:)/i.test(css), "the CSS loads a file");
  assert.ok(html.includes("Reveal.initialize"));
  assert.ok(
    /<section><div class="controls-corner"><\/div><p class="badge">🎭 Probelauf: vorgespielte Antworten<\/p>\n<h1>Titel<\/h1>/.test(
      html,
    ),
    "badge",
  );
  assert.equal(html.match(/<\/script>/g)?.length, 4, "an inlined script must not close its element early");
});
