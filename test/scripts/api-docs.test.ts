// `npm run docs` stays clean: TypeDoc converts the public entry points (API_ENTRY_POINTS: lib/index.ts,
// the exercise and testing entry points) without a single warning, so every type a public signature
// uses is exported and every {@link} resolves. Converts only; no HTML is written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { buildApiDocs } from "../../scripts/api-docs.js";

test("TypeDoc reports no warning or error on the public surface", async () => {
  const result = await buildApiDocs({ quiet: true });
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.warnings, [], `TypeDoc warnings (export the type from the index, or list it in INTENTIONALLY_NOT_EXPORTED in scripts/api-docs.ts):\n${result.warnings.join("\n")}`);
});
