// `npm run docs` stays clean: TypeDoc converts the public entry points (API_ENTRY_POINTS: lib/index.ts,
// the exercise and testing entry points) without a single warning, so every type a public signature
// uses is exported and every {@link} resolves. Converts only; no HTML is written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildApiDocs } from "../../scripts/dev/api-docs.js";

test("TypeDoc reports no warning or error on the public surface", async () => {
  const result = await buildApiDocs({ quiet: true });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.warnings, [], `TypeDoc warnings (export the type from the index, or list it in INTENTIONALLY_NOT_EXPORTED in scripts/dev/api-docs.ts):\n${result.warnings.join("\n")}`);
});

test("a missing doc comment on a value or an option, and an option without its default, are warnings", async () => {
  const result = await buildApiDocs({ quiet: true, entryPoints: ["test/scripts/fixtures/api-docs-undocumented.ts"] });
  const named = (text: string) => result.warnings.filter((w) => w.includes(text));
  assert.equal(named("undocumentedFunction").length, 1, result.warnings.join("\n"));
  assert.deepEqual(named("DOCUMENTED_VALUE"), []);
  assert.deepEqual(
    result.warnings.filter((w) => w.includes("option FixtureOptions.")).sort(),
    ["[warning] option FixtureOptions.optionalWithoutDefault: the comment does not say the default", "[warning] option FixtureOptions.undocumentedRequired: no doc comment"],
  );
});
