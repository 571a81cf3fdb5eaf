// Text lines wrapped to the notebook cell (lib/notebook/wrap.ts); the kernel side is tested with real
// tslab in test/scripts/run-notebooks.test.ts, the browser side by scripts/dev/browser-check.ts.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { displayWidth, OUTPUT_WRAP_ENV, outputWrapOn, wrapLine, wrapText } from "../../lib/notebook/wrap.js";
import { findFailures } from "../../scripts/dev/run-notebooks.js";

test("lines break after spaces and JSON commas, never inside a word; continuation lines indented", () => {
  const trace = `[ 0.4 s]   ✓ lauf nach 42 ms: ${JSON.stringify({ center: { lat: 41.3874, lon: 2.1686 }, activity_input: "joggen", start_date: "2026-11-26" })}`;
  const lines = wrapLine(trace, 50);
  assert.ok(lines.length > 1 && lines.every((l) => displayWidth(l) <= 50), lines.join("\n"));
  assert.equal(
    lines
      .map((l) => l.trim())
      .join(" ")
      .replace(/, "/g, ',"')
      .replace(/ /g, ""),
    trace.replace(/ /g, ""),
  );
  assert.ok(lines.slice(1).every((l) => l.startsWith("  ")));
  const bullet = wrapLine(
    "   • Holzknechte im Bayerischen Wald sprachen schon im 19. Jahrhundert vom Waldlaternderl.",
    40,
  );
  assert.deepEqual(bullet, [
    "   • Holzknechte im Bayerischen Wald",
    "     sprachen schon im 19. Jahrhundert",
    "     vom Waldlaternderl.",
  ]);
});

test("a line that fits stays as it is; a word longer than the line is cut; the first line may start later", () => {
  assert.deepEqual(wrapLine("kurz", 10), ["kurz"]);
  assert.deepEqual(wrapLine("x".repeat(25), 10), ["x".repeat(10), `  ${"x".repeat(8)}`, `  ${"x".repeat(7)}`]);
  assert.equal(wrapText("eins zwei drei\nvier", 12, 6), "eins\n  zwei drei\nvier");
});

test("emoji and East Asian characters take two columns, combining marks none", () => {
  assert.equal(displayWidth("⛔ ok"), 5);
  assert.equal(displayWidth("⚠️ a"), 4);
  assert.equal(displayWidth("e\u0301"), 1);
  assert.equal(displayWidth("日本"), 4);
});

test("the slide decks switch the kernel's wrap off (they wrap at the slide's width); the runner then lets long lines be", () => {
  assert.equal(outputWrapOn({}), true);
  assert.equal(outputWrapOn({ [OUTPUT_WRAP_ENV]: "0" }), false);
  const dir = mkdtempSync(join(tmpdir(), "kit-wrap-"));
  const file = join(dir, "nb.ipynb");
  const long = `${"Wort ".repeat(40)}\n`;
  writeFileSync(
    file,
    JSON.stringify({
      cells: [{ cell_type: "code", source: "x", outputs: [{ output_type: "stream", name: "stdout", text: long }] }],
    }),
  );
  try {
    assert.match(findFailures(file)[0]?.error ?? "", /breiter als 112 Zeichen/);
    assert.deepEqual(findFailures(file, false), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
