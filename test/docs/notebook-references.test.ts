// The documents name notebooks that exist: every "NN-name.ipynb", and every `NN-name` in backticks, is a
// notebook of notebooks/ (or the start of one's name). The morning checklist once named 00-smoke-test.ipynb.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";

const root = findProjectRoot();
const notebooks = readdirSync(join(root, "notebooks")).filter((f) => f.endsWith(".ipynb"));
const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];

/** The notebook names a text refers to: "NN-name.ipynb" anywhere, `NN-name` in backticks. */
function notebookReferences(text: string): string[] {
  const files = [...text.matchAll(/\b(\d{2}-[a-z][a-z0-9-]*)\.ipynb\b/g)].map((m) => m[1]!);
  const quoted = [...text.matchAll(/`(\d{2}-[a-z][a-z0-9-]*)`/g)].map((m) => m[1]!);
  return [...files, ...quoted];
}

test("the reference finder sees file names and quoted names, not numbers in prose", () => {
  assert.deepEqual(
    notebookReferences("`00-smoke-test.ipynb` einmal, dann `40-teil-4`; ein 86-token Plan am 2025-06-10"),
    ["00-smoke-test", "40-teil-4"],
  );
});

test("every notebook the README and docs/ name exists", () => {
  const missing = documents.flatMap((doc) =>
    notebookReferences(readFileSync(join(root, doc), "utf8"))
      .filter((name) => !notebooks.some((n) => n.startsWith(name)))
      .map((name) => `${doc}: ${name}`),
  );
  assert.deepEqual(missing, []);
});
