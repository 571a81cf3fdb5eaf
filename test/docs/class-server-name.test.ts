// One name for the class's shared llama-server: "Klassen-Server" (as Klassen-Board and Klassenraum). The
// program used "Kurs-Server" and "Klassen-Server" side by side (issue 44); everything participants and
// instructors read — docs, README, notebooks (with their outputs), lib's messages, the scripts' output —
// says "Klassen-Server", so the other name cannot come back.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

const root = findProjectRoot();
/** "Kurs-Server", "Kursserver", "<kurs-server>", "Kurs-Servers". */
const OTHER_NAME = /kurs-?server/i;

/** Files under `dir` (recursively) whose name ends in one of `endings`, skipping node_modules and dot folders. */
function filesUnder(dir: string, endings: readonly string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : filesUnder(path, endings);
    return endings.some((e) => entry.name.endsWith(e)) ? [path] : [];
  });
}

test("the class's shared llama-server has one name where people read: Klassen-Server", () => {
  const read = [
    join(root, "README.md"),
    ...filesUnder(join(root, "docs"), [".md"]),
    ...filesUnder(join(root, "notebooks"), [".ipynb"]),
    ...filesUnder(join(root, "lib"), [".ts"]),
    ...filesUnder(join(root, "scripts"), [".ts", ".mjs"]),
  ];
  assert.ok(read.length > 100, `found ${read.length} files`);
  const found = read.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (OTHER_NAME.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(found, [], 'say "Klassen-Server" (as Klassen-Board, Klassenraum), not "Kurs-Server"');
  const guide = readFileSync(join(root, "docs", "instructor-guide.md"), "utf8");
  assert.ok((guide.match(/Klassen-Server/g) ?? []).length >= 20, "the guide names the Klassen-Server");
});
