// The deck fits its own slides in a real Chromium at 1280×720: a long code line wraps instead of running off
// the slide, a long output shows whole records from its head and says how many lines follow (and the
// slide's notes say what the room does not see), a cell's kept lines all show, the controls' corner stays free — measured with the same function the slides
// stage uses (layout.ts).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { deckHtml, notebookSlides, type NbCell, type Notebook } from "../../scripts/apps/slides/deck.js";
import { SLIDE_PROBLEMS_JS, type LayoutProblem } from "../../scripts/apps/slides/layout.js";
import { deckAssets, markdownRenderer } from "../../scripts/apps/slides/build.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const stdout = (text: string): NbCell["outputs"] => [{ output_type: "stream", name: "stdout", text }];
const lines = (n: number, word: string) =>
  Array.from({ length: n }, (_, i) => `${word} ${i + 1}: ${"etwas Text ".repeat(4)}`).join("\n") +
  "\nFazit: alles gut\n";
/** Records: a line without indentation and the indented lines below it (like Teil 3's tool list). */
const toolList =
  Array.from(
    { length: 9 },
    (_, i) => `Werkzeug ${i + 1}\n  Eingabe: lat, lon, start_date\n  Ergebnis: days, note`,
  ).join("\n") + "\n";
const longLine = `const ziel = { ${Array.from({ length: 14 }, (_, i) => `feld${i}: "Wert ${i}"`).join(", ")} };`;

const nb: Notebook = {
  cells: [
    { cell_type: "markdown", source: "## Passt alles?", metadata: { slideshow: { slide_type: "slide" } } },
    {
      cell_type: "code",
      source: longLine,
      metadata: { slideshow: { slide_type: "subslide" } },
      outputs: stdout(lines(40, "Zeile")),
    },
    {
      cell_type: "code",
      source: "zeigeAlles()",
      metadata: { slideshow: { slide_type: "subslide" }, slides: { show: "all" } },
      outputs: stdout(lines(14, "Wichtig")),
    },
    {
      cell_type: "markdown",
      source: "Die Werkzeuge:\n\n" + "Viel Text davor. ".repeat(40),
      metadata: { slideshow: { slide_type: "subslide" } },
    },
    {
      cell_type: "code",
      source: "zeigeWerkzeuge()",
      metadata: { slideshow: { slide_type: "-" } },
      outputs: stdout(toolList),
    },
  ],
};

test("the deck wraps, shortens to the room it measures, keeps named lines and leaves the controls' corner free", async (t) => {
  if (!existsSync(CHROMIUM)) return t.skip("no Chromium");
  const dir = mkdtempSync(join(tmpdir(), "kit-fit-"));
  const file = join(dir, "deck.html");
  writeFileSync(file, deckHtml("Passt alles?", notebookSlides(nb, await markdownRenderer()), deckAssets()));
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction("window.Reveal && Reveal.isReady() && window.deckFit && deckFit.done");
    const visit = async (v: number) => {
      await page.evaluate(`Reveal.slide(0, ${v}, -1)`);
      return (await page.evaluate(`new Promise((r) => requestAnimationFrame(() => {
        const s = Reveal.getCurrentSlide();
        const notes = s.querySelector("aside.notes")?.textContent ?? "";
        r({ problems: (${SLIDE_PROBLEMS_JS})(s), text: s.innerText, header: s.querySelector("header.section-title")?.textContent, notes });
      }))`)) as { problems: LayoutProblem[]; text: string; header?: string; notes: string };
    };
    const long = await visit(1);
    assert.deepEqual(long.problems, []);
    assert.equal(long.header, "Passt alles?");
    assert.match(long.text, /feld13: "Wert 13" \};/, "the long code line is all there, wrapped");
    const shown = (long.text.match(/^Zeile \d+:/gm) ?? []).length;
    assert.ok(shown >= 5 && shown < 40, `${shown} of 40 lines shown`);
    assert.match(long.text, /^Zeile 1:/m, "the head stays");
    assert.match(
      long.text,
      new RegExp(`^Zeile ${shown}:[^\\n]*\\n⋯ noch ${41 - shown} Zeilen – die ganze Ausgabe steht im Notebook`, "m"),
    );
    assert.doesNotMatch(long.text, /Fazit/, "lines are left out from the end");
    assert.match(
      long.notes,
      new RegExp(`Auf der Folie gekürzt: ${41 - shown} Zeilen der Ausgabe nicht gezeigt, ab „Zeile ${shown + 1}:`),
    );
    const kept = await visit(2);
    assert.deepEqual(kept.problems, []);
    assert.equal((kept.text.match(/^Wichtig \d+:/gm) ?? []).length, 14);
    const tools = await visit(3);
    assert.deepEqual(tools.problems, []);
    const names = (tools.text.match(/^Werkzeug \d+$/gm) ?? []).length;
    assert.ok(names >= 1 && names < 9, `${names} of 9 records shown`);
    assert.equal((tools.text.match(/^ {2}Ergebnis:/gm) ?? []).length, names, "every record shown is whole");
    assert.match(tools.text, new RegExp(`⋯ noch ${(9 - names) * 3} Zeilen`));
    const shortened = (await page.evaluate("deckFit.shortened")) as { cell: number; hidden: number }[];
    assert.deepEqual(
      shortened.map((s) => s.cell),
      [1, 4],
      "the deck counts each shortened output with its cell",
    );
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
