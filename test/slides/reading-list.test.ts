// The deck tells the room what it skips: a closing slide "Zum Nachlesen im Notebook" lists the Vertiefung
// sections by title (subsections of a shown section on one line), the slide after a skip names it in its
// notes, the estimate and the slides stage count the closing slide, and no slide names a Vertiefung's
// topic without saying it is one (Teil 4's agenda and heading 13 did).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { countSlides, notebookSlides, type NbCell, type Notebook, type Slide } from "../../scripts/apps/slides/deck.js";
import { deckStats } from "../../scripts/apps/slides/estimate.js";
import { addReadingList, deckSlideCount, READING_LIST_TITLE } from "../../scripts/apps/slides/reading-list.js";
import { vertiefungPromises } from "../../scripts/apps/slides/vertiefung.js";
import { markdownRenderer } from "../../scripts/apps/slides/build.js";

const md = await markdownRenderer();
const root = findProjectRoot();
const cell = (cell_type: string, source: string, slide_type: string): NbCell => ({
  cell_type,
  source,
  metadata: { slideshow: { slide_type } },
});
const text = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/\s+/g, " ")
    .trim();
/** The speaker notes of the first subslide whose title starts with `title`, as plain text. */
const notesOf = (slides: Slide[], title: string) =>
  text(
    slides
      .flat()
      .find((s) => s.title.startsWith(title))!
      .notes.join(" "),
  );

const fixture: Notebook = {
  cells: [
    cell("markdown", "# Teil X", "slide"),
    cell("markdown", "## 1. Gezeigt", "slide"),
    cell("markdown", "## 2. Gedächtnis (Vertiefung)", "skip"),
    cell("code", "const x = 1;", "skip"),
    cell("markdown", "## 3. Wieder gezeigt", "slide"),
    cell("markdown", "### Rückfragen: `ask_user` (Vertiefung)", "skip"),
    cell("markdown", "### Belegte Antworten (Vertiefung)", "skip"),
    cell("markdown", "## 4. Selbst ausprobieren", "slide"),
    cell("markdown", "## 5. Abstimmen: mehrere Läufe (Vertiefung)", "skip"),
  ],
};

test("a closing slide lists the Vertiefung sections; the slide after each skip names it in its notes", () => {
  const slides = notebookSlides(fixture, md);
  addReadingList(slides, fixture, md, "99-teil-x.ipynb", new Map([["Abstimmen", "- **Abstimmen:** nur bei Zeit\n"]]));
  const closing = slides.at(-1)![0]!;
  assert.equal(closing.title, READING_LIST_TITLE);
  const shown = closing.blocks.map((b) => b.html).join("");
  assert.match(
    shown,
    /<h2>Zum Nachlesen im Notebook<\/h2>\n<p>Nicht auf den Folien, aber im Notebook <code>99-teil-x\.ipynb<\/code>/,
  );
  assert.deepEqual(
    [...shown.matchAll(/<li>(.*?)<\/li>/g)].map((m) => text(m[1]!)),
    ["2. Gedächtnis", "In Abschnitt 3: Rückfragen, Belegte Antworten", "5. Abstimmen: mehrere Läufe"],
  );
  assert.ok(shown.includes("Belegte\u00a0Antworten"), "a name in a shared line does not break");
  assert.match(
    notesOf(slides, "3. Wieder gezeigt"),
    /^Davor übersprungen – steht im Notebook \(Vertiefung\): 2\. Gedächtnis$/,
  );
  assert.match(notesOf(slides, "4. Selbst ausprobieren"), /übersprungen .*: Rückfragen: ask_user; Belegte Antworten$/);
  assert.match(
    text(closing.notes.join(" ")),
    /übersprungen .*: 5\. Abstimmen: mehrere Läufe .* Abstimmen Abstimmen: nur bei Zeit/,
  );
  assert.equal(slides.flat().length, deckSlideCount(fixture));
  assert.equal(deckSlideCount(fixture), countSlides(fixture) + 1);
  assert.equal(deckStats(fixture).slides, deckSlideCount(fixture), "the estimate counts the closing slide");
});

test("a notebook without Vertiefung gets no closing slide", () => {
  const plain: Notebook = { cells: fixture.cells.filter((c) => !String(c.source).includes("Vertiefung")) };
  const slides = notebookSlides(plain, md);
  addReadingList(slides, plain, md, "99-teil-x.ipynb");
  assert.equal(slides.flat().length, countSlides(plain));
  assert.equal(deckSlideCount(plain), countSlides(plain));
});

test("no slide names a Vertiefung's topic without saying so; Teil 4's deck ends with its reading list and then its summary", () => {
  const promising: Notebook = {
    cells: [cell("markdown", "## 3. Freigaben, Rückfragen und belegte Antworten", "slide"), ...fixture.cells],
  };
  assert.deepEqual(vertiefungPromises(promising), [
    "cell 0 is on the slides and names the Vertiefung „Rückfragen“, „Belegte Antworten“ without saying it is one",
  ]);
  const marked: Notebook = {
    cells: [cell("markdown", "Rückfragen folgen im Notebook als *Vertiefung*.", "slide"), ...fixture.cells],
  };
  assert.deepEqual(vertiefungPromises(marked), []);
  const teil4 = JSON.parse(readFileSync(join(root, "notebooks", "40-teil-4-agent.ipynb"), "utf8")) as Notebook;
  assert.deepEqual(vertiefungPromises(teil4), []);
  const slides = notebookSlides(teil4, md);
  addReadingList(slides, teil4, md, "40-teil-4-agent.ipynb");
  assert.match(slides.at(-1)![0]!.title, /^12\. Zusammenfassung/);
  const list = [...slides.at(-2)![0]!.blocks[0]!.html.matchAll(/<li>(.*?)<\/li>/g)].map((m) => text(m[1]!));
  assert.deepEqual(
    list.map((l) => l.split(/[.:]/)[0]),
    ["In Abschnitt 10", "13", "14", "15", "16", "17"],
  );
  assert.match(list[0]!, /Rückfragen, Antwort-Schreiber, Belegte Antworten, Ein Gespräch/);
  assert.match(
    notesOf(slides, "11. Selbst ausprobieren"),
    /^Davor übersprungen .*Rückfragen: ask_user; .*Ein Gespräch/,
  );
  assert.match(
    text(slides.at(-2)![0]!.notes.join(" ")),
    /^Davor übersprungen .*13\. Mit Gedächtnis.*; 14\. .*; 15\. .*; 16\. .*; 17\. Modell-Check/,
  );
});
