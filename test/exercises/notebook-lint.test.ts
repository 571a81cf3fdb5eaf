// What a participant reads: every notebook (presentations, exercises, solutions) keeps to short code
// cells and lines that fit the screen, and its text – Markdown, strings and comments in code, committed
// outputs – says nothing meant for the kit's authors (tests, CI, the Python original).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, test } from "node:test";
import { listNotebooks } from "../../scripts/run-notebooks.js";
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
];

interface RawCell {
  cell_type: string;
  source: string | string[];
  outputs?: { text?: string | string[]; data?: Record<string, string | string[]> }[];
}

const joined = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join("") : (s ?? ""));

// What of a code cell a participant reads as text: string literals (they end up in the output) and comments.
const READABLE_IN_CODE = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\/\/[^\n]*/gu;

function readableText(cell: RawCell): string {
  const source = joined(cell.source);
  const text = cell.cell_type === "code" ? (source.match(READABLE_IN_CODE) ?? []).join("\n") : source;
  const outputs = (cell.outputs ?? []).map((o) => joined(o.text) + Object.values(o.data ?? {}).map(joined).join(""));
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
    assert.equal(hits({ cell_type: "code", source: 'console.log(`${n} Schritt(e)`); // in CI' }).length, 2);
    assert.equal(hits({ cell_type: "code", source: "const ok = muster.test(s);" }).length, 0);
    assert.equal(hits({ cell_type: "code", source: "x;", outputs: [{ text: "3 Plan/Pläne" }] }).length, 1);
  });

  test("the notebooks are there, in the order of the day", () => {
    const names = notebooks.map((n) => n.name.replace(/^notebooks\//u, ""));
    assert.equal(names[0], "00-start.ipynb");
    for (const part of [1, 2, 3, 4]) {
      const teil = names.findIndex((n) => n.startsWith(`${part}0-teil-${part}-`));
      const aufgabe = names.findIndex((n) => n.startsWith(`${part}1-aufgabe-${part}-`));
      assert.ok(teil > 0 && aufgabe === teil + 1, `Teil ${part} comes right before Aufgabe ${part}: ${names.join(", ")}`);
      assert.ok(names.some((n) => n.startsWith(`loesungen/loesung-${part}-`)), `solution ${part} in loesungen/`);
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
