// setup's patch step with the real patch-package on a scratch project: a patch that changed after it was
// applied replaces its older version (patch-package alone refuses and leaves the package on the old one).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { realRunner, stepPatches } from "../../scripts/setup.mjs";

const KIT = findProjectRoot();
const root = mkdtempSync(join(tmpdir(), "setup-patches-"));
after(() => rmSync(root, { recursive: true, force: true }));

const demo = join(root, "node_modules", "demo");
mkdirSync(demo, { recursive: true });
mkdirSync(join(root, "patches"));
writeFileSync(join(root, "package.json"), '{ "name": "scratch", "version": "1.0.0" }\n');
writeFileSync(join(demo, "package.json"), '{ "name": "demo", "version": "1.0.0" }\n');
writeFileSync(join(demo, "index.js"), 'module.exports = "a";\n');
symlinkSync(join(KIT, "node_modules", "patch-package"), join(root, "node_modules", "patch-package"));

/** A patch-package patch that turns demo's "a" into `to`. */
function patchTo(to: string): void {
  writeFileSync(
    join(root, "patches", "demo+1.0.0.patch"),
    [
      "diff --git a/node_modules/demo/index.js b/node_modules/demo/index.js",
      "--- a/node_modules/demo/index.js",
      "+++ b/node_modules/demo/index.js",
      "@@ -1 +1 @@",
      '-module.exports = "a";',
      `+module.exports = "${to}";`,
      "",
    ].join("\n"),
  );
}

const lines: string[] = [];
const ctx = {
  root,
  node: process.execPath,
  run: realRunner(),
  log: (line: string) => lines.push(line),
  env: process.env,
  nodeVersion: process.versions.node,
};
const demoValue = () => readFileSync(join(demo, "index.js"), "utf8").trim();

test("a patch is applied, a second run changes nothing", async () => {
  patchTo("b");
  assert.equal((await stepPatches(ctx)).status, "ok");
  assert.equal(demoValue(), 'module.exports = "b";');
  const again = await stepPatches(ctx);
  assert.equal(again.status, "ok");
  assert.match(again.detail, /unverändert/);
  assert.equal(demoValue(), 'module.exports = "b";');
});

test("a changed patch replaces the applied older version", async () => {
  patchTo("c");
  const result = await stepPatches(ctx);
  assert.equal(result.status, "ok", `${result.detail}\n${lines.join("\n")}`);
  assert.equal(demoValue(), 'module.exports = "c";');
  assert.ok(lines.some((l) => /alte Fassung wird zurückgenommen/.test(l)));
});
