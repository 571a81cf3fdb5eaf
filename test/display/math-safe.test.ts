// Notebook output that MathJax must leave alone (issue 28, item 1): Jupyter front ends typeset HTML and
// Markdown outputs, so "$ref-Plan … per $ref" became italic maths and split the style table. The real
// rendering is checked in Chromium by scripts/dev/browser-check.ts; here the two layers it relies on.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { htmlTable } from "../../lib/display/html.js";
import { voteHtml } from "../../lib/display/vote.js";
import { styleTableMarkdown, type StyleRow } from "../../lib/patterns/style-comparison.js";

/** MathJax's default ignore class (MathJax 2 and 3). */
const IGNORE = "tex2jax_ignore";
/** A "$" or "\(" that Jupyter's math finder would take as a delimiter (not escaped by a backslash). */
const MATH_DELIMITER = /(?<!\\)(?:\\\\)*(?:\$|\\\()/;

const row = (label: string, modelSees: string): StyleRow => ({
  style: "ref-plan",
  label,
  rounds: 2,
  promptTokensEvaluated: 10,
  toolCalls: 2,
  parallelCalls: 2,
  modelSees,
  answer: "",
});

describe("MathJax-safe output", () => {
  test("style table: every $ and \\( escaped, the table inside an element MathJax skips", () => {
    const md = styleTableMarkdown([row("$ref-Plan (runAgent)", "Verweise per $ref, Formel \\(x\\) | Pipe")]);
    const lines = md.split("\n").filter((l) => l.startsWith("|"));
    assert.equal(lines.length, 3);
    for (const line of lines) assert.doesNotMatch(line, MATH_DELIMITER, line);
    assert.equal(lines[2]!.split(/(?<!\\)\|/).length - 2, 6, "six cells: the escaped | stays inside its cell");
    assert.match(md, new RegExp(`^<div class="${IGNORE}">\\n\\n\\|`), "Markdown inside the ignore element");
  });

  test("HTML tables and the vote table carry the ignore class", () => {
    assert.match(
      htmlTable([{ title: "A" }], [["$ref x $ref"]], { className: "kit-x" }),
      new RegExp(`<table class="kit-x ${IGNORE}"`),
    );
    const html = voteHtml({
      decision: { winner: "$k", tie: false, tally: [{ key: "$k", count: 1, runs: [0], final: "$a$" }] },
      runs: [],
      redFlagged: 0,
      runsUsed: 1,
      runsSaved: 0,
    });
    assert.match(html, new RegExp(`^<div class="${IGNORE}">.*</div>$`, "s"), "the verdict below the table, too");
  });
});
