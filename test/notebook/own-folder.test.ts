// What a participant's kernel writes goes to their own folder: in the Klassenraum-Hub every kernel runs on one
// machine, so a notebook that writes to the shared temp folder (/tmp) lets two participants overwrite and read
// each other's files (Teil 4 saved its conversation to /tmp/teil-4-gespraech.json).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

const dir = join(findProjectRoot(), "notebooks");
const notebooks = [
  ...readdirSync(dir)
    .filter((f) => f.endsWith(".ipynb"))
    .map((f) => join(dir, f)),
  ...readdirSync(join(dir, "loesungen"))
    .filter((f) => f.endsWith(".ipynb"))
    .map((f) => join(dir, "loesungen", f)),
];

test("no notebook cell writes to the machine's shared temp folder", () => {
  const shared: string[] = [];
  for (const file of notebooks) {
    const cells = (JSON.parse(readFileSync(file, "utf8")) as { cells: { cell_type: string; source: string[] }[] })
      .cells;
    cells.forEach((cell, i) => {
      const code = cell.source.join("");
      if (cell.cell_type === "code" && /\btmpdir\(\)|["'`]\/tmp\//.test(code))
        shared.push(`${file.split("/").slice(-2).join("/")} cell ${i}`);
    });
  }
  assert.ok(notebooks.length >= 8, "notebooks found");
  assert.deepEqual(shared, []);
});
