// The kit's patch of tslab (patches/tslab+*.patch, applied by patch-package on install): a shorthand
// property `{ x }` whose `x` was declared in an earlier cell must see that value under the real kernel.
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { runNotebook } from "../../scripts/dev/run-notebooks.js";
import { testEnvironment } from "../../scripts/dev/test-env.js";
import { writeCodeNotebook } from "../helpers/notebook-file.js";

const root = findProjectRoot();
const name = `.tslab-shorthand-${process.pid}.ipynb`;
const file = join(root, ".cache", name);
const kept = join(root, ".cache", "notebooks", name);

const cells = [
  'const embedder = { name: "mini" };\nconst k = 3;',
  "const store = { embedder, k, extra: true };\nconsole.log(JSON.stringify(store));",
  "const make = () => ({ k });\nconsole.log(make().k);",
  "const local = 7;\nconsole.log(JSON.stringify({ local, k }));",
];

after(() => {
  rmSync(file, { force: true });
  rmSync(kept, { force: true });
});

test("{ x } of a variable from an earlier cell works under tslab (patched converter)", async () => {
  writeCodeNotebook(file, cells);
  const result = await runNotebook(root, file, await testEnvironment({ tinyModels: false }), true);
  assert.deepEqual(result.failures, [], result.failures.map((f) => `cell ${f.cell}: ${f.error}`).join("\n"));
  assert.ok(existsSync(kept), "the executed notebook was kept");
  const executed = JSON.parse(readFileSync(kept, "utf8")) as { cells: { outputs: { text?: string | string[] }[] }[] };
  const out = executed.cells.map((c) =>
    c.outputs.map((o) => (Array.isArray(o.text) ? o.text.join("") : (o.text ?? ""))).join(""),
  );
  assert.equal(out[1]?.trim(), '{"embedder":{"name":"mini"},"k":3,"extra":true}');
  assert.equal(out[2]?.trim(), "3");
  assert.equal(out[3]?.trim(), '{"local":7,"k":3}');
});

test("the patch is committed and applied on every install", () => {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.postinstall, "patch-package");
  const version = (
    JSON.parse(readFileSync(join(root, "node_modules", "tslab", "package.json"), "utf8")) as { version: string }
  ).version;
  const patch = readFileSync(join(root, "patches", `tslab+${version}.patch`), "utf8");
  assert.match(patch, /getShorthandAssignmentValueSymbol/u);
});
