// What a participant reads: every notebook (presentations, exercises, solutions) keeps to short code
// cells and lines that fit the screen, and its text – Markdown, strings and comments in code, committed
// outputs – says nothing meant for the kit's authors (tests, CI, the Python original).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, test } from "node:test";
import ts from "typescript";
import { listNotebooks } from "../../scripts/dev/run-notebooks.js";
import { root } from "./notebook-cells.js";

export const MAX_CELL_LINES = 15;
export const MAX_LINE_CHARS = 100;

/** Words for the kit's authors, copied phrases, and "(en)" plurals – none of them belong in front of participants. */
export const FORBIDDEN: ReadonlyArray<[RegExp, string]> = [
  [/automatische[nmr]? (?:Test|Lauf)/iu, "internal note about automatic tests"],
  [/\bCI\b/u, "mention of CI"],
  [/(?<!Chat-)Vorlage/u, "mention of the template the kit was ported from"],
  [/Python|Popen|NLTK/u, "Python idiom or the Python original"],
  [/Zeit zum Experimentieren/u, "heading copied from the original"],
  [/[a-zäöüß]\((?:e|en|n|s)\)(?!\w)/u, "plural written as (e)/(en)/(n)/(s)"],
  [/Plan\/Pläne|Satz\/Sätze/u, "plural written as singular/plural"],
  [/Half-Agent/u, "English „Half-Agent“ (the German term is „Halb-Agent“)"],
  [/kennt kein Modell den Ort/u, "Linz line that contradicts the text after it"],
];

/** The numbers of the `## N. …` headings of a notebook, in order. */
export function sectionNumbers(markdown: readonly string[]): number[] {
  return markdown.flatMap((text) => [...text.matchAll(/^## (\d+)\. /gmu)].map((m) => Number(m[1])));
}

/** `## ` headings without a number (`## Zurück zu Teil 1` between 12 and 13): the numbering rule cannot see them. */
export function unnumberedSections(markdown: readonly string[]): string[] {
  return markdown.flatMap((text) => text.match(/^## (?!\d+\. ).*/gmu) ?? []);
}

/** Text cells that go on with a numbered list the text cell before began (`5.` after `4.`): shown as two lists with a gap. */
export function splitNumberedLists(markdown: readonly string[]): string[] {
  return markdown.flatMap((text, i) => {
    const first = /^(\d+)\. /u.exec(text.trimStart())?.[1];
    const before = [...(markdown[i - 1] ?? "").matchAll(/^(\d+)\. /gmu)].at(-1)?.[1];
    return first !== undefined && before !== undefined && Number(first) === Number(before) + 1
      ? [text.split("\n")[0] ?? ""]
      : [];
  });
}

/** Columns of a Markdown table separator row without ':' – Jupyter Notebook 6 renders them right-aligned. */
export function unalignedTableRows(markdown: string): string[] {
  return markdown
    .split("\n")
    .filter((line) => /^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*(?::?-{3,}:?\s*)?$/u.test(line))
    .filter((line) =>
      line
        .split("|")
        .map((c) => c.trim())
        .some((c) => c !== "" && !c.includes(":")),
    );
}

/** The last statement of a code cell when tslab would print its value by accident (`list.push(…)` → its new length). */
export function strayValue(code: string): string | undefined {
  const file = ts.createSourceFile("cell.ts", code, ts.ScriptTarget.Latest, true);
  const last = file.statements.at(-1);
  if (!last || !ts.isExpressionStatement(last) || !ts.isCallExpression(last.expression)) return undefined;
  const callee = last.expression.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : "";
  return ["push", "unshift", "splice"].includes(name) ? last.getText(file) : undefined;
}

/** Named in a text as a call without being used in that notebook's code (a pointer for later). */
const MENTIONED_ONLY = new Set(["loadConfig"]);

/** Functions the Markdown of a notebook shows as a call (`name(…)`). */
function calledInText(markdown: string): string[] {
  return [...markdown.matchAll(/`(?:await )?([A-Za-z_]\w*)\(/gu)].map((m) => m[1] ?? "");
}

interface RawCell {
  cell_type: string;
  source: string | string[];
  outputs?: { text?: string | string[]; data?: Record<string, string | string[]> }[];
}

/** Files under `dir` (relative to the project root) whose names end in `ext`. */
function listFiles(dir: string, ext: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(ext))
    .map((f) => join(dir, f));
}

const joined = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join("") : (s ?? ""));

// What of a code cell a participant reads as text: string literals (they end up in the output) and comments.
const READABLE_IN_CODE = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\/\/[^\n]*/gu;

function readableText(cell: RawCell): string {
  const source = joined(cell.source);
  const text = cell.cell_type === "code" ? (source.match(READABLE_IN_CODE) ?? []).join("\n") : source;
  const outputs = (cell.outputs ?? []).map(
    (o) =>
      joined(o.text) +
      Object.values(o.data ?? {})
        .map(joined)
        .join(""),
  );
  return [text, ...outputs].join("\n");
}

const notebooks = listNotebooks(root).map((file) => ({
  name: relative(root, file),
  cells: (JSON.parse(readFileSync(file, "utf8")) as { cells: RawCell[] }).cells,
}));

describe("notebook lint", () => {
  test("the rules catch what they forbid, in Markdown, code strings and outputs – not in code itself", () => {
    const hits = (cell: RawCell) => FORBIDDEN.filter(([p]) => p.test(readableText(cell))).map(([, what]) => what);
    assert.equal(hits({ cell_type: "markdown", source: "Im automatischen Test läuft ein Zufallsmodell." }).length, 1);
    assert.equal(hits({ cell_type: "markdown", source: "wie in der Python-Vorlage" }).length, 2);
    assert.equal(hits({ cell_type: "markdown", source: "Die Chat-Vorlage des Modells" }).length, 0);
    assert.equal(hits({ cell_type: "code", source: "console.log(`${n} Schritt(e)`); // in CI" }).length, 2);
    assert.equal(hits({ cell_type: "code", source: "const ok = muster.test(s);" }).length, 0);
    assert.equal(hits({ cell_type: "code", source: "x;", outputs: [{ text: "3 Plan/Pläne" }] }).length, 1);
  });

  test("the heading, table, stray-value and function-name rules catch what they are about", () => {
    assert.deepEqual(sectionNumbers(["## 1. A\n", "## 2. B\n### x\n## 13. Aufräumen\n## Zwischenspiel"]), [1, 2, 13]);
    assert.deepEqual(unnumberedSections(["## 1. A\n", "## 2. B\n### x\n## 13. Aufräumen\n## Zwischenspiel"]), [
      "## Zwischenspiel",
    ]);
    assert.deepEqual(splitNumberedLists(["Schritte:\n\n1. a\n2. b", "3. c\n\nText", "1. neu"]), ["3. c"]);
    assert.deepEqual(unalignedTableRows("| a | b |\n| --- | --- |\n| 1 | 2 |"), ["| --- | --- |"]);
    assert.deepEqual(unalignedTableRows("|:---|---:|\n| :---: | :--- |"), []);
    assert.equal(strayValue("const a = [];\na.push(1);"), "a.push(1);");
    assert.equal(strayValue("const a = [];\na.push(1);\nconsole.log(a.length);"), undefined);
    assert.deepEqual(calledInText('`loadLocalLlm({ gpu: "cpu" })` und `await kit.close()`'), ["loadLocalLlm"]);
  });

  test("the docs and lib's messages use the notebooks' terms (Halb-Agent)", () => {
    const files = ["README.md", ...listFiles("docs", ".md"), ...listFiles("lib", ".ts")];
    const hits = files.filter((f) => /Half-Agent/u.test(readFileSync(join(root, f), "utf8")));
    assert.deepEqual(hits, []);
  });

  test("every notebook but 00-start ends with its clean-up cell, and that ends the kernel (endKernel)", () => {
    const missing = notebooks
      .filter((n) => !n.name.endsWith("00-start.ipynb"))
      .filter((n) => {
        const last = n.cells.at(-1);
        const source = [last?.source ?? ""].flat().join("");
        return last?.cell_type !== "code" || !/await endKernel\(\);\s*$/u.test(source);
      })
      .map((n) => n.name);
    assert.deepEqual(missing, [], "a finished notebook's kernel (~185 MB) would run on all day");
  });

  test("the notebooks are there, in the order of the day", () => {
    const names = notebooks.map((n) => n.name.replace(/^notebooks\//u, ""));
    assert.equal(names[0], "00-start.ipynb");
    for (const part of [1, 2, 3, 4]) {
      const teil = names.findIndex((n) => n.startsWith(`${part}0-teil-${part}-`));
      const aufgabe = names.findIndex((n) => n.startsWith(`${part}1-aufgabe-${part}-`));
      assert.ok(
        teil > 0 && aufgabe === teil + 1,
        `Teil ${part} comes right before Aufgabe ${part}: ${names.join(", ")}`,
      );
      assert.ok(
        names.some((n) => n.startsWith(`loesungen/loesung-${part}-`)),
        `solution ${part} in loesungen/`,
      );
    }
  });

  for (const nb of notebooks) {
    test(`${nb.name}: code cells ≤ ${MAX_CELL_LINES} lines, lines ≤ ${MAX_LINE_CHARS} characters`, () => {
      const problems: string[] = [];
      nb.cells.forEach((cell, i) => {
        if (cell.cell_type !== "code") return;
        const lines = joined(cell.source).split("\n");
        if (lines.length > MAX_CELL_LINES) problems.push(`cell ${i + 1}: ${lines.length} lines`);
        lines.forEach((line, j) => {
          if (line.length > MAX_LINE_CHARS) problems.push(`cell ${i + 1}, line ${j + 1}: ${line.length} characters`);
        });
      });
      assert.deepEqual(problems, []);
    });

    const markdown = nb.cells.filter((c) => c.cell_type === "markdown").map((c) => joined(c.source));
    const code = nb.cells.filter((c) => c.cell_type === "code").map((c) => joined(c.source));

    if (/\/\d0-teil-/u.test(nb.name)) {
      test(`${nb.name}: sections numbered 1, 2, 3 … without gaps or repeats; Aufräumen last, after all other text`, () => {
        assert.deepEqual(unnumberedSections(markdown), [], "every ## section has a number");
        const numbers = sectionNumbers(markdown);
        assert.deepEqual(
          numbers,
          numbers.map((_, i) => i + 1),
        );
        const headings = markdown.flatMap((t) => t.match(/^## .*/gmu) ?? []);
        assert.match(headings.at(-1) ?? "", /^## \d+\. Aufräumen$/u, "the last section is the clean-up");
        const lastMarkdown = nb.cells.findLastIndex((c) => c.cell_type === "markdown");
        assert.match(
          joined(nb.cells[lastMarkdown]?.source),
          /^## \d+\. Aufräumen/mu,
          "in the last text cell, before the clean-up code",
        );
      });
    }

    test(`${nb.name}: a numbered list stays in one text cell`, () => {
      const lists = nb.cells.map((c) => (c.cell_type === "markdown" ? joined(c.source) : ""));
      assert.deepEqual(splitNumberedLists(lists), []);
    });

    test(`${nb.name}: Markdown tables say how each column is aligned (|:---| or |---:|)`, () => {
      assert.deepEqual(markdown.flatMap(unalignedTableRows), []);
    });

    test(`${nb.name}: no code cell ends in a call whose value tslab prints by accident`, () => {
      assert.deepEqual(
        code.flatMap((c) => strayValue(c) ?? []),
        [],
      );
    });

    test(`${nb.name}: every function the text shows as a call is one the code uses`, () => {
      const used = code.join("\n");
      const missing = markdown
        .flatMap(calledInText)
        .filter((fn) => !MENTIONED_ONLY.has(fn) && !new RegExp(`\\b${fn}\\b`, "u").test(used));
      assert.deepEqual([...new Set(missing)], []);
    });

    test(`${nb.name}: no author notes, copied phrases or "(en)" plurals in text and output`, () => {
      const problems: string[] = [];
      nb.cells.forEach((cell, i) => {
        for (const [pattern, what] of FORBIDDEN) {
          const hit = pattern.exec(readableText(cell));
          if (hit) problems.push(`cell ${i + 1}: ${what} („${hit[0]}“)`);
        }
      });
      assert.deepEqual(problems, []);
    });
  }
});
