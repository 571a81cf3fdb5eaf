// Formulas on the slides: inline $…$ and display $$…$$ become KaTeX's HTML while "$ref", prices and code
// keep their dollars; the slides stage's raw-TeX rule catches an inline formula left unrendered; a deck
// inlines only the KaTeX fonts its formulas use — and in a real Chromium they render pixel for pixel as
// with all fonts, while a deck lacking a face is reported by the stage's font check.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { deckHtml, notebookSlides, type Notebook } from "../../scripts/apps/slides/deck.js";
import { missingFacesJs, RAW_TEX } from "../../scripts/apps/slides/formula-check.js";
import { allKatexFaces, facesUsed, katexCss } from "../../scripts/apps/slides/math-fonts.js";
import { deckAssets, markdownRenderer } from "../../scripts/apps/slides/build.js";

const md = await markdownRenderer();
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TEIL_2 = "$$\\|a-b\\|^2 = \\|a\\|^2 + \\|b\\|^2 - 2\\,a\\cdot b = 2 - 2\\,a\\cdot b$$";
/** No markup: what the room would read. */
const textOf = (html: string) => html.replace(/<[^>]*>/g, "");

test("inline $…$ becomes KaTeX's HTML; $ref, prices, escaped dollars and code keep their dollars", () => {
  const html = md("Auf Einheitsvektoren ($\\|a\\| = 1$) ist $a\\cdot b$ der Kosinus, für jede $x$-Achse.");
  assert.equal(html.match(/<span class="katex">/g)?.length, 3);
  assert.doesNotMatch(textOf(html), /\$/);
  const plain = [
    "Das kostet 5 $ oder 7 $ am Tag, US$5 oder 5$ bis 7$.",
    'Ein Verweis: {"$ref": "geo_bcn.lat"}, {"$ref": "geo_bcn.lon"} und $ref:geo_bcn.lon, dazu $ref und $ref.',
    'Im Code: `$x^2$` und `{"$ref": "a"}`, escaped \\$x\\$.',
    "```ts\nconst preis = `${a}$ und $b$`;\n```",
    "Ein $ allein und $a\n\nb$ über einen Absatz hinweg.",
  ];
  for (const text of plain) assert.doesNotMatch(md(text), /class="katex/, text);
  assert.match(md("`$ref` und $ref"), /<code>\$ref<\/code> und \$ref/);
  const both = md(`Es gilt für $\\|a\\| = 1$:\n\n${TEIL_2}\n\nalso $a = b$.`);
  assert.equal(both.match(/<span class="katex-display">/g)?.length, 1);
  assert.equal(both.match(/<span class="katex">/g)?.length, 3, "one display formula and two inline ones");
  assert.match(both, /^<p>Es gilt für <span class="katex">/);
});

test("the stage's raw-TeX rule catches an unrendered inline formula, not $ref or prices", () => {
  for (const raw of ["für $x^2 + 1$ gilt", "der Vektor $a_i$ ist", "wobei $n = 5$ ist", "$$a$$", "$\\|a\\|$"])
    assert.match(raw, RAW_TEX, raw);
  for (const text of [
    "Das kostet 5 $ oder 7 $",
    'Verweis {"$ref": "a"}, {"$ref": "b"}',
    "$ref und $ref",
    "US$5 und US$7",
  ]) {
    assert.doesNotMatch(text, RAW_TEX, text);
  }
});

test("a deck inlines only the KaTeX fonts its formulas use", () => {
  const teil2 = md(TEIL_2);
  assert.deepEqual([...facesUsed(teil2)].sort(), ["KaTeX_Main|400|normal", "KaTeX_Math|400|italic"]);
  const css = katexCss(teil2);
  assert.deepEqual(
    [...css.matchAll(/@font-face\{[^}]*font-family:(KaTeX_\w+);font-style:(\w+)/g)].map((m) => `${m[1]} ${m[2]}`),
    ["KaTeX_Main normal", "KaTeX_Math italic"],
  );
  assert.ok(css.length < katexCss().length / 4, `${css.length} of ${katexCss().length} characters`);
  assert.doesNotMatch(css, /fonts\/|\.woff\)|\.ttf\)/, "no font file to load");
  // Bold, blackboard letters and a big operator ask for their faces.
  const rich = facesUsed(md("$\\mathbf{v} \\in \\mathbb{R}^n$, $\\sum_{i=1}^n x_i$ und $\\textit{kursiv}$"));
  for (const face of [
    "KaTeX_Main|700|normal",
    "KaTeX_AMS|400|normal",
    "KaTeX_Size1|400|normal",
    "KaTeX_Main|400|italic",
  ])
    assert.ok(rich.has(face), face);
  assert.equal(katexCss("<p>keine Formel</p>").includes("@font-face"), false);
  assert.equal(allKatexFaces().length, 20);
});

const FORMULAS = [
  "## Formeln",
  "Inline: $\\|a\\| = 1$, $a\\cdot b = \\cos\\theta$, $\\mathbf{v} \\in \\mathbb{R}^n$ und $\\textbf{fett}$, $\\text{für alle } x$.",
  TEIL_2,
  "$$\\sum_{i=1}^{n} x_i^2 \\le \\left(\\frac{\\sqrt{a}}{\\mathcal{L}}\\right)^{2} \\quad \\int_0^1 f(t)\\,dt \\quad \\mathfrak{g}$$",
].join("\n\n");

test("in Chromium the formulas look the same with only their fonts as with all, and a missing face is reported", async (t) => {
  if (!existsSync(CHROMIUM)) return t.skip("no Chromium");
  const dir = mkdtempSync(join(tmpdir(), "kit-math-"));
  const shots = join(findProjectRoot(), ".cache", "browser");
  mkdirSync(shots, { recursive: true });
  const nb: Notebook = {
    cells: [{ cell_type: "markdown", source: FORMULAS, metadata: { slideshow: { slide_type: "slide" } } }],
  };
  const slides = notebookSlides(nb, md);
  const decks = {
    used: deckHtml("Formeln", slides, deckAssets()),
    all: deckHtml("Formeln", slides, { ...deckAssets(), mathCss: () => katexCss() }),
    noMath: deckHtml("Formeln", slides, {
      ...deckAssets(),
      mathCss: (html) => katexCss(html).replace(/@font-face\{[^}]*KaTeX_Math[^}]*\}/g, ""),
    }),
  };
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const render = async (name: keyof typeof decks, width = 1280, height = 720) => {
      const file = join(dir, `${name}.html`);
      writeFileSync(file, decks[name]);
      const page = await browser.newPage({ viewport: { width, height } });
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction("window.Reveal && Reveal.isReady() && window.deckFit && deckFit.done");
      await page.evaluate("document.fonts.ready");
      const missing = (await page.evaluate(`(${missingFacesJs()})(Reveal.getCurrentSlide())`)) as string[];
      const shot = await page.locator(".reveal .slides > section").screenshot();
      if (name === "used") await page.screenshot({ path: join(shots, `formeln-${width}x${height}.png`) });
      await page.close();
      return { missing, shot };
    };
    const used = await render("used");
    const all = await render("all");
    assert.deepEqual(used.missing, []);
    assert.ok(used.shot.equals(all.shot), "the formulas render differently with only their fonts");
    assert.deepEqual((await render("used", 1920, 1080)).missing, []);
    const noMath = await render("noMath");
    assert.ok(
      noMath.missing.some((f) => f.startsWith("KaTeX_Math|400|italic")),
      noMath.missing.join(),
    );
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
