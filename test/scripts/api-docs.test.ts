// `npm run docs` stays clean: TypeDoc converts the public entry points (API_ENTRY_POINTS: lib/index.ts,
// the exercise and testing entry points) without a single warning, so every type a public signature
// uses is exported and every {@link} resolves. Converts only; no HTML is written.
// The reference is sorted by Teil: every exported name has its folder's category (FOLDER_CATEGORIES), and
// the overview page (docs/api-overview.md) names only names the entry points export.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { API_OVERVIEW, buildApiDocs, FOLDER_CATEGORIES, type ApiDocsResult } from "../../scripts/dev/api-docs.js";

let result: ApiDocsResult;

before(async () => {
  result = await buildApiDocs({ quiet: true });
});

test("TypeDoc reports no warning or error on the public surface", () => {
  assert.deepEqual(result.errors, []);
  assert.deepEqual(
    result.warnings,
    [],
    `TypeDoc warnings (export the type from the index, or list it in INTENTIONALLY_NOT_EXPORTED in scripts/dev/api-docs.ts):\n${result.warnings.join("\n")}`,
  );
});

test("lib/index's names are sorted by Teil, in the day's order, with nothing left in TypeDoc's 'Other'", () => {
  const categories = result.categories["index"] ?? [];
  const titles = categories.map((c) => c.title);
  assert.deepEqual(titles.slice(0, 4), [
    "Teil 1 — language models",
    "Teil 2 — retrieval (RAG)",
    "Teil 3 — MCP tools and the half-agent",
    "Teil 4 — plans and the agent",
  ]);
  assert.ok(!titles.includes("Other"), titles.join(", "));
  const placed = (name: string) => categories.find((c) => c.names.includes(name))?.title;
  assert.equal(placed("loadLlm"), FOLDER_CATEGORIES["rehearsal"]);
  assert.equal(placed("createEmbedder"), FOLDER_CATEGORIES["rag"]);
  assert.equal(placed("startTravelServer"), FOLDER_CATEGORIES["mcp"]);
  assert.equal(placed("runAgent"), FOLDER_CATEGORIES["agent"]);
  assert.equal(placed("germanNumber"), FOLDER_CATEGORIES["."]);
  for (const [module, list] of Object.entries(result.categories))
    assert.ok(
      list.every((c) => c.title !== "Other"),
      `${module}: ${list.map((c) => c.title).join(", ")}`,
    );
});

test("the overview page names only names an entry point exports", () => {
  const text = readFileSync(join(findProjectRoot(), API_OVERVIEW), "utf8");
  const section = text.slice(text.indexOf("## The day, by category"));
  const named = [...section.matchAll(/`([A-Za-z][A-Za-z0-9]*)`/g)]
    .map((m) => m[1]!)
    .filter((n) => /[a-z][A-Z]|^[A-Z][a-z]/.test(n));
  const exported = new Set(Object.values(result.categories).flatMap((list) => list.flatMap((c) => c.names)));
  assert.ok(named.length > 20, `found ${named.length} names`);
  assert.deepEqual(
    named.filter((n) => !exported.has(n)),
    [],
  );
});

test("a missing doc comment on a value or an option, and an option without its default, are warnings", async () => {
  const fixture = await buildApiDocs({ quiet: true, entryPoints: ["test/scripts/fixtures/api-docs-undocumented.ts"] });
  const named = (text: string) => fixture.warnings.filter((w) => w.includes(text));
  assert.equal(named("undocumentedFunction").length, 1, fixture.warnings.join("\n"));
  assert.deepEqual(named("DOCUMENTED_VALUE"), []);
  assert.deepEqual(fixture.warnings.filter((w) => w.includes("option FixtureOptions.")).sort(), [
    "[warning] option FixtureOptions.optionalWithoutDefault: the comment does not say the default",
    "[warning] option FixtureOptions.undocumentedRequired: no doc comment",
  ]);
});
