// The GPU pack (scripts/dev/gpu-pack.ts) carries exactly what node-llama-cpp's CUDA build needs on a
// machine without internet. Packing takes ~2.5 min, so these tests check its parts; the whole pack
// was built and configured offline by hand (see README, "GPU machines").
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { dependencyClosure, PACK_ROOTS } from "../../scripts/dev/gpu-pack.js";

const nodeModules = join(process.cwd(), "node_modules");

test("the packed closure holds node-llama-cpp's runtime dependencies, tsx's esbuild and no prebuilt binary", () => {
  const closure = dependencyClosure(nodeModules, PACK_ROOTS);
  for (const needed of [
    "node-llama-cpp",
    "cmake-js",
    "node-addon-api",
    "tsx",
    "esbuild",
    "llama3-tokenizer-js",
    "zod",
  ]) {
    assert.ok(closure.includes(needed), `${needed} missing from the pack`);
  }
  assert.deepEqual(
    closure.filter((n) => n.startsWith("@node-llama-cpp/")),
    [],
  );
  for (const name of closure) assert.ok(existsSync(join(nodeModules, name, "package.json")), name);
});

test("a package for another platform (not installed) is skipped, not an error", () => {
  assert.deepEqual(dependencyClosure(nodeModules, ["no-such-package-xyz"]), []);
});

test("on-device.sh parses and stops when it finds no pack", () => {
  const script = join(process.cwd(), "scripts", "dev", "gpu-pack", "on-device.sh");
  execFileSync("bash", ["-n", script]);
  const r = spawnSync("bash", [script], {
    cwd: "/nonexistent-repo-dir",
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: "/tmp" },
  });
  assert.notEqual(r.status, 0, "without a pack the script must stop, not build");
});
