// `npm run gpu:pack` — packs what a GPU machine without internet needs to build node-llama-cpp's
// CUDA backend from source and measure a speed twin there (issue: real shapes). The pack lands in
// `.gpu-pack/` (git-ignored), small enough to travel with the working tree (≤ 64 MiB in all):
//   node.xz               this machine's Node binary (the device image may have none)
//   node-headers.tar.xz   Node's N-API headers, where cmake-js looks for them (it would download them)
//   node_modules.tar.xz   the runtime closure of node-llama-cpp, tsx and the libraries lib needs,
//                         without the prebuilt binaries and without the 34 MB source bundle
//   llama-cpp-src.tar.xz  the llama.cpp source node-llama-cpp was released with, trimmed to what the
//                         addon build compiles (from node_modules/node-llama-cpp/llama/gitRelease.bundle)
//   on-device.sh          unpacks, builds for CUDA (sm_90 by default) and runs a command
//   manifest.json         sizes and SHA-256 of every part, Node version, llama.cpp commit
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { defineCommand } from "../node/command.js";

/** Packages whose runtime closure travels: the LLM edge, the TS runner and what the planner prompt needs. */
export const PACK_ROOTS = [
  "node-llama-cpp",
  "tsx",
  "llama3-tokenizer-js",
  "zod",
  "ajv",
  "ajv-formats",
  "ajv-i18n",
  "jsep",
  "decimal.js",
  "eventsource-parser",
  "express",
  "@modelcontextprotocol/sdk",
  "cli-progress",
] as const;

/** Never packed: prebuilt binaries (built there instead) and the source bundle (packed trimmed). */
const EXCLUDED_PACKAGE_PREFIX = "@node-llama-cpp/";
const EXCLUDED_PATHS = ["node-llama-cpp/llama/gitRelease.bundle", "node-llama-cpp/llama/localBuilds"];

/** llama.cpp folders the addon build compiles (tests, examples and tools stay off there). */
export const LLAMA_SOURCE_PARTS = [
  "CMakeLists.txt",
  "LICENSE",
  "cmake",
  "common",
  "ggml",
  "include",
  "licenses",
  "src",
  "vendor",
];

/** The device's whole working tree may be 64 MiB; the repo itself needs a few. */
export const PACK_LIMIT_BYTES = 56 * 1024 * 1024;

/** Package names in the dependency closure of `roots`, resolved in a flat node_modules. */
export function dependencyClosure(nodeModules: string, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name) || name.startsWith(EXCLUDED_PACKAGE_PREFIX)) return;
    const manifest = join(nodeModules, name, "package.json");
    if (!existsSync(manifest)) return; // an optional dependency for another platform
    seen.add(name);
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: object; optionalDependencies?: object };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep);
  };
  roots.forEach(visit);
  return [...seen].sort();
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

function xzTar(out: string, cwd: string, paths: readonly string[], excludes: readonly string[] = []): void {
  execFileSync("tar", ["-C", cwd, "-I", "xz -6 -T2", "-cf", out, ...excludes.map((e) => `--exclude=${e}`), ...paths], {
    stdio: "inherit",
  });
}

function packNodeHeaders(out: string): void {
  const headers = resolve(dirname(process.execPath), "..", "include", "node");
  if (!existsSync(join(headers, "node_api.h"))) throw new Error(`Node headers not found in ${headers}`);
  const stage = mkdtempSync(join(tmpdir(), "gpu-pack-headers-"));
  try {
    mkdirSync(join(stage, "include", "node"), { recursive: true });
    for (const f of readdirSync(headers).filter((n) => n.endsWith(".h")))
      copyFileSync(join(headers, f), join(stage, "include", "node", f));
    xzTar(out, stage, ["include"]);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function packLlamaSource(out: string, bundle: string): string {
  const clone = mkdtempSync(join(tmpdir(), "gpu-pack-llama-"));
  try {
    execFileSync("git", ["clone", "-q", bundle, clone], { stdio: "inherit" });
    const commit = execFileSync("git", ["-C", clone, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    xzTar(
      out,
      clone,
      LLAMA_SOURCE_PARTS.filter((p) => existsSync(join(clone, p))),
    );
    return commit;
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

export interface PackManifest {
  node: string;
  llamaCppCommit: string;
  packages: number;
  files: Record<string, { bytes: number; sha256: string }>;
  totalBytes: number;
}

/** Writes the pack into `outDir` (replaced) and returns its manifest. */
export function writeGpuPack(root: string, outDir: string): PackManifest {
  const nodeModules = join(root, "node_modules");
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  execFileSync("sh", ["-c", `xz -6 -T2 -c "${process.execPath}" > "${join(outDir, "node.xz")}"`], { stdio: "inherit" });
  packNodeHeaders(join(outDir, "node-headers.tar.xz"));
  const packages = dependencyClosure(nodeModules, PACK_ROOTS);
  xzTar(
    join(outDir, "node_modules.tar.xz"),
    root,
    [...packages.map((p) => `node_modules/${p}`), "node_modules/.bin"],
    EXCLUDED_PATHS.map((p) => `node_modules/${p}`),
  );
  const llamaCppCommit = packLlamaSource(
    join(outDir, "llama-cpp-src.tar.xz"),
    join(nodeModules, "node-llama-cpp", "llama", "gitRelease.bundle"),
  );
  copyFileSync(join(root, "scripts", "dev", "gpu-pack", "on-device.sh"), join(outDir, "on-device.sh"));
  const files: PackManifest["files"] = {};
  for (const f of readdirSync(outDir).sort())
    files[f] = { bytes: statSync(join(outDir, f)).size, sha256: sha256(join(outDir, f)) };
  const totalBytes = Object.values(files).reduce((sum, f) => sum + f.bytes, 0);
  const manifest: PackManifest = {
    node: process.version,
    llamaCppCommit,
    packages: packages.length,
    files,
    totalBytes,
  };
  writeFileSync(join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

export const command = defineCommand({
  name: "gpu:pack",
  invocation: "npm run gpu:pack",
  summary: "Packt nach .gpu-pack/, was ein GPU-Rechner ohne Internet für den CUDA-Build braucht; keine Optionen.",
  options: {},
  run: () => {
    const root = findProjectRoot();
    const outDir = join(root, ".gpu-pack");
    const started = performance.now();
    const manifest = writeGpuPack(root, outDir);
    const mib = (n: number): string => (n / 1024 / 1024).toFixed(1) + " MiB";
    for (const [name, f] of Object.entries(manifest.files))
      console.log(`${name.padEnd(22)} ${mib(f.bytes).padStart(10)}`);
    console.log(
      `${manifest.packages} packages, llama.cpp ${manifest.llamaCppCommit.slice(0, 10)}, ${mib(manifest.totalBytes)} in all, ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    if (manifest.totalBytes > PACK_LIMIT_BYTES) {
      console.error(`The pack is larger than ${mib(PACK_LIMIT_BYTES)}; it will not travel with the working tree.`);
      return 1;
    }
    return 0;
  },
});
