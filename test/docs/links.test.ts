// The README and docs/ link to files that exist: after the README's manual moved into docs/, a relative
// link written for the README's folder (`docs/x.md` inside docs/) would point nowhere. The README stays a
// page a newcomer reads in one go (at most 250 lines) and names the two commands CI runs (.ci/run).
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";

const root = findProjectRoot();
const documents = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f)),
];

/** Relative link targets of a Markdown text, without #anchors (web links and pure anchors left out). */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split("#")[0]!)
    .filter((target) => target !== "" && !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

test("the link finder keeps relative targets and drops web links and anchors", () => {
  assert.deepEqual(relativeLinks("[a](docs/a.md) [b](https://x.org) [c](#oben) [d](../e.ts#L3) [m](mailto:x@y)"), [
    "docs/a.md",
    "../e.ts",
  ]);
});

test("every relative link in the README and docs/ points to a file of the project", () => {
  const broken = documents.flatMap((doc) =>
    relativeLinks(readFileSync(join(root, doc), "utf8"))
      .filter((target) => !existsSync(join(root, dirname(doc), target)))
      .map((target) => `${doc}: ${target}`),
  );
  assert.deepEqual(broken, []);
});

test("the README is short and names the two commands CI runs", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const lines = readme.split("\n").length;
  assert.ok(lines <= 250, `README.md has ${lines} lines; move details into docs/`);
  const ci = readFileSync(join(root, ".ci/run"), "utf8");
  for (const command of ["npm run setup", "npm test"]) {
    assert.match(ci, new RegExp(`^${command}$`, "m"), `.ci/run runs ${command}`);
    assert.ok(readme.includes(`\n${command} `), `the README shows ${command}`);
  }
  assert.ok(readme.includes("## Für Teilnehmende (Deutsch)"), "the participants' section stays in the README");
});
