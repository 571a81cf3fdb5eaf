// node-llama-cpp tests its prebuilt binding in a forked child before it loads it (on Linux, once per process).
// fork() hands that child the parent's node flags: under tsx (every CLI command, every test) it loaded tsx's
// loader for a plain JS file, twice the test's CPU. The kit's patch (patches/node-llama-cpp+*.patch) starts the
// child with no flags. Here: a parent started with a preload flag, as `--import tsx` is; only the parent runs it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";

const dir = mkdtempSync(join(tmpdir(), "binding-child-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("the binding's test child starts without the parent's node flags, and the binding loads", () => {
  const seen = join(dir, "seen.txt");
  const preload = join(dir, "preload.cjs");
  // Every process that runs the preload writes its script's name.
  writeFileSync(preload, `require("fs").appendFileSync(${JSON.stringify(seen)}, (process.argv[1] || "-") + "\\n");`);
  const script = join(dir, "load.mjs");
  const entry = pathToFileURL(createRequire(join(findProjectRoot(), "package.json")).resolve("node-llama-cpp"));
  writeFileSync(
    script,
    `const { getLlama } = await import(${JSON.stringify(entry.href)});\n` +
      'const llama = await getLlama({ gpu: false, build: "never", progressLogs: false });\n' +
      "console.log(llama.buildType);\n",
  );
  const out = execFileSync(process.execPath, ["--require", preload, script], {
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(out.trim(), "prebuilt", "the prebuilt binding passed its test and loaded");
  assert.deepEqual(readFileSync(seen, "utf8").trim().split("\n"), [script], "only the parent ran the preload");
});
