// The llama.cpp tools cache (scripts/dev/llama-build.ts): keyed by the bundle's commit, a half-finished build
// is never taken as done, a second process waits for the first instead of building twice, and a machine
// without a compiler gets one clear reason. No compiling here (the real build is npm test's llama stage).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { bundleCommit, ensureLlamaTools, findLlamaTools, LLAMA_TOOLS } from "../../scripts/dev/llama-build.js";

const bundle = join(findProjectRoot(), "node_modules/node-llama-cpp/llama/gitRelease.bundle");
let cache: string;
const saved = { ...process.env };
before(() => {
  cache = mkdtempSync(join(tmpdir(), "llama-cache-"));
  process.env.LLAMA_TOOLS_CACHE = cache;
});
after(() => {
  process.env = saved;
  rmSync(cache, { recursive: true, force: true });
});

function fakeBuild(dir: string): void {
  mkdirSync(join(dir, "bin"), { recursive: true });
  for (const tool of LLAMA_TOOLS) writeFileSync(join(dir, "bin", tool), "");
}

test("the cache key is the commit git itself reads from node-llama-cpp's bundle", () => {
  const heads = execFileSync("git", ["bundle", "list-heads", bundle], { encoding: "utf8" });
  assert.equal(bundleCommit(), heads.split(" ")[0]);
  assert.match(bundleCommit() ?? "", /^[0-9a-f]{40}$/);
});

test("a half-finished build (temp folder, or a bin without all three tools) is not taken as done", () => {
  const commit = bundleCommit()!;
  fakeBuild(join(cache, `${commit}.build-12345`));
  mkdirSync(join(cache, commit, "bin"), { recursive: true });
  writeFileSync(join(cache, commit, "bin", "llama-server"), "");
  const found = findLlamaTools();
  assert.ok("missing" in found);
  assert.match(found.missing, /npm run llama:build/);
  rmSync(join(cache, commit), { recursive: true });
});

test("a second process waits for the running build (lock) and then uses it without building", async () => {
  const commit = bundleCommit()!;
  const lock = join(cache, `${commit}.lock`);
  mkdirSync(lock);
  writeFileSync(join(lock, "pid"), String(process.pid)); // held by a live process: this one
  const lines: string[] = [];
  const waiting = ensureLlamaTools((l) => lines.push(l));
  await new Promise((r) => setTimeout(r, 300));
  fakeBuild(join(cache, commit)); // the other build finishes: renamed into place, lock released
  rmSync(lock, { recursive: true });
  const tools = await waiting;
  assert.deepEqual(tools, { bin: join(cache, commit, "bin"), commit });
  assert.deepEqual(lines, ["another process is building llama.cpp, waiting for it …"]);
  rmSync(join(cache, commit), { recursive: true });
});

test("without cmake and g++ on PATH the build is skipped with one reason, nothing is left behind", async () => {
  const onlyGit = mkdtempSync(join(tmpdir(), "path-"));
  for (const cmd of ["git", "sh"])
    symlinkSync(execFileSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).trim(), join(onlyGit, cmd));
  process.env.PATH = onlyGit;
  try {
    const tools = await ensureLlamaTools(() => {});
    assert.deepEqual(tools, { missing: "cmake, g++ not installed, llama.cpp tools not built" });
  } finally {
    process.env.PATH = saved.PATH;
    rmSync(onlyGit, { recursive: true, force: true });
  }
  assert.ok("missing" in findLlamaTools());
});
