// The kernel's fast start (issue 46): kernel.json starts tslab through tslab-kernel.sh, which uses the V8 startup
// snapshot in .cache/kernel-snapshot (tslab's TypeScript loaded, lib.es2022 and @types/node parsed and bound) when
// it was built for this node and these NODE_OPTIONS. Real kernels over the wire protocol:
// - the fast path is really taken, and the kernel behaves as before: type errors, completions, top-level await,
//   `./lib/index`, its notebook's folder as TypeScript's current directory;
// - a missing snapshot, one for another node or other NODE_OPTIONS (V8 would refuse it and the kernel die), and
//   one whose TypeScript is not tslab's any more all start the plain way, and the kernel works;
// - ensureKernelSnapshot rebuilds when a snapshotted file changed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import {
  ensureKernelSnapshot,
  KERNEL_NODE_OPTIONS,
  SNAPSHOT_ENTRY,
  snapshotDir,
} from "../../scripts/apps/workshop/kernel-snapshot/kernel-snapshot.js";
import { executeContent, startTslabKernel, until, type TslabKernel } from "../helpers/tslab-kernel.js";

const root = findProjectRoot();
const scratch = mkdtempSync(join(tmpdir(), "kit-snapshot-test-"));

interface StartInfo {
  snapshot: boolean;
  reason?: string;
  cachedFiles: number;
  stats: { served: number };
}

const PRINTED = ["stream", "execute_result", "display_data", "error"];

/** Runs one cell; its status and everything it printed (stdout, stderr, results, errors). */
async function cell(kernel: TslabKernel, code: string): Promise<{ status: string; text: string }> {
  // tslab aborts every cell that arrives within 200 ms after a cell with an error: send it again then.
  for (;;) {
    const result = await runOnce(kernel, code);
    if (result.status !== "abort") return result;
  }
}

async function runOnce(kernel: TslabKernel, code: string): Promise<{ status: string; text: string }> {
  const client = kernel.client();
  const id = await client.request("execute_request", executeContent(code));
  assert.ok(await until(() => client.replies.some((r) => r.parent_header.msg_id === id), 180_000), "no reply");
  // Everything a cell printed is on iopub before its idle status (the shell reply can overtake it).
  const idle = () =>
    kernel.iopub.some(
      (m) => m.parent_header.msg_id === id && m.header.msg_type === "status" && m.content.execution_state === "idle",
    );
  assert.ok(await until(idle, 60_000), "no idle status");
  const status = String(client.replies.find((r) => r.parent_header.msg_id === id)!.content.status);
  const text = kernel.iopub
    .filter((m) => m.parent_header.msg_id === id && PRINTED.includes(m.header.msg_type))
    .map((m) => String(m.content.text ?? m.content.evalue ?? JSON.stringify(m.content.data)))
    .join("");
  return { status, text };
}

async function startInfo(kernel: TslabKernel): Promise<StartInfo | null> {
  const out = await cell(kernel, 'JSON.stringify((globalThis as any)[Symbol.for("kit.kernelStart")] ?? null)');
  assert.equal(out.status, "ok", out.text);
  return JSON.parse(out.text) as StartInfo | null;
}

/** A snapshot folder in the scratch space: the real blob, a node.stamp as given. */
function snapshotCopy(name: string, stamp: (real: string) => string): string {
  const dir = join(scratch, name);
  cpSync(snapshotDir(root), dir, { recursive: true, filter: (src) => !src.endsWith("kernel.blob") });
  symlinkSync(join(snapshotDir(root), "kernel.blob"), join(dir, "kernel.blob"));
  writeFileSync(join(dir, "node.stamp"), stamp(readFileSync(join(snapshotDir(root), "node.stamp"), "utf8")));
  return dir;
}

before(async () => {
  const built = await ensureKernelSnapshot(root);
  assert.notEqual(built.status, "unavailable", built.detail);
});

after(() => rmSync(scratch, { recursive: true, force: true }));

test("from the snapshot: the fast path is taken and a participant sees the same kernel", async () => {
  const kernel = await startTslabKernel({ cwd: "notebooks" });
  try {
    const first = await cell(kernel, "const x: number = 1;\nx");
    assert.deepEqual(first, { status: "ok", text: "1\n" });
    const info = await startInfo(kernel);
    assert.equal(info?.snapshot, true, kernel.log());
    assert.ok(info.cachedFiles > 50, `only ${info.cachedFiles} declaration files in the snapshot`);
    assert.ok(info.stats.served >= info.cachedFiles - 5, `parsed anew instead of from the snapshot: ${info.stats}`);

    const typeError = await cell(kernel, 'const plz: number = "10115 Berlin";');
    assert.equal(typeError.status, "error");
    assert.match(typeError.text, /Type 'string' is not assignable to type 'number'/);
    const nodeTypes = await cell(kernel, 'import { basename } from "node:path";\nbasename(42)');
    assert.match(
      nodeTypes.text,
      /not assignable to parameter of type/,
      `@types/node from the snapshot checks calls: ${JSON.stringify(nodeTypes)}`,
    );

    const awaited = await cell(kernel, 'await new Promise((r) => setTimeout(r, 10));\n"Jürgen Groß-Übermann".length');
    assert.deepEqual(awaited, { status: "ok", text: "20\n" });
    // A thrown error shows its stack and line, as in a plain kernel (before: a bare "[Error: kaputt]").
    const thrown = await cell(kernel, 'function reise() {\n  throw new Error("kaputt");\n}\nreise();');
    assert.equal(thrown.status, "error");
    assert.match(thrown.text, /Error: kaputt\n\s+at reise \(/, JSON.stringify(thrown));
    const lib = await cell(kernel, 'import * as kit from "./lib/index";\ntypeof kit.germanNumber');
    assert.deepEqual(lib, { status: "ok", text: "function\n" });
    const cwd = await cell(kernel, 'import * as ts from "@tslab/typescript-for-tslab";\nts.sys.getCurrentDirectory()');
    assert.deepEqual(cwd, { status: "ok", text: `${join(root, "notebooks")}\n` });

    // fork() passes process.execArgv on: a child must run its own script, not another kernel from the snapshot
    // (node-llama-cpp tests its binding so; with the snapshot in execArgv the local model never loaded).
    const child = join(scratch, "child.cjs");
    writeFileSync(child, 'process.send("Grüße vom Kind", () => process.exit(0));');
    const forked = await cell(
      kernel,
      `import { fork } from "node:child_process";\nawait new Promise((r) => fork(${JSON.stringify(child)}).on("message", r))`,
    );
    assert.deepEqual(forked, { status: "ok", text: "Grüße vom Kind\n" });

    const client = kernel.client();
    const id = await client.request("complete_request", { code: "Math.flo", cursor_pos: 8 });
    assert.ok(await until(() => client.replies.some((r) => r.parent_header.msg_id === id), 60_000));
    const matches = client.replies.find((r) => r.parent_header.msg_id === id)!.content.matches as string[];
    assert.ok(matches.includes("floor"), `completions: ${matches.join(", ")}`);
  } finally {
    kernel.stop();
  }
});

async function assertPlainStart(env: NodeJS.ProcessEnv, why: string): Promise<void> {
  const kernel = await startTslabKernel({ cwd: "notebooks", env });
  try {
    const first = await cell(kernel, "const x: number = 1;\nx");
    assert.deepEqual(first, { status: "ok", text: "1\n" }, `${why}: ${kernel.log()}`);
    assert.equal(await startInfo(kernel), null, `${why}: started from the snapshot`);
    const typeError = await cell(kernel, 'const plz: number = "10115 Berlin";');
    assert.match(typeError.text, /Type 'string' is not assignable to type 'number'/);
  } finally {
    kernel.stop();
  }
}

test("no snapshot, or one for another node or other NODE_OPTIONS: the plain tslab starts", async () => {
  await assertPlainStart({ KIT_KERNEL_SNAPSHOT_DIR: join(scratch, "missing") }, "missing");
  await assertPlainStart({ KIT_KERNEL_SNAPSHOT_DIR: snapshotCopy("other-node", (s) => `/opt/node22${s}`) }, "node");
  // V8 refuses a snapshot built with other flags ("Failed to load the startup snapshot"): the kernel would die.
  await assertPlainStart({ NODE_OPTIONS: `${KERNEL_NODE_OPTIONS} --max-old-space-size=900` }, "NODE_OPTIONS");
  await assertPlainStart({ KIT_KERNEL_SNAPSHOT: "0" }, "switched off");
});

test("a snapshot whose TypeScript is not the one tslab loads: tslab's own TypeScript, the kernel works", async () => {
  const dir = join(scratch, "other-typescript");
  const copy = join(scratch, "typescript.js");
  const real = join(root, "node_modules", "@tslab", "typescript-for-tslab", "lib", "typescript.js");
  cpSync(real, copy);
  const node = readFileSync(join(snapshotDir(root), "node.stamp"), "utf8").split(" ")[0]!;
  const env = {
    ...process.env,
    NODE_OPTIONS: KERNEL_NODE_OPTIONS,
    KIT_SNAPSHOT_ROOT: root,
    KIT_SNAPSHOT_CWD: join(root, "notebooks"),
    KIT_SNAPSHOT_TYPESCRIPT: copy,
    KIT_SNAPSHOT_FILES: join(scratch, "files.json"),
  };
  cpSync(snapshotDir(root), dir, { recursive: true, filter: (src) => !src.endsWith("kernel.blob") });
  const build = spawnSync(node, ["--snapshot-blob", join(dir, "kernel.blob"), "--build-snapshot", SNAPSHOT_ENTRY], {
    env,
    encoding: "utf8",
  });
  assert.equal(build.status, 0, build.stderr);
  const kernel = await startTslabKernel({ cwd: "notebooks", env: { KIT_KERNEL_SNAPSHOT_DIR: dir } });
  try {
    const first = await cell(kernel, "const x: number = 1;\nx");
    assert.deepEqual(first, { status: "ok", text: "1\n" }, kernel.log());
    const info = await startInfo(kernel);
    assert.equal(info?.snapshot, false);
    assert.match(info.reason ?? "", /tslab now uses .*typescript-for-tslab/);
    const typeError = await cell(kernel, 'const plz: number = "10115 Berlin";');
    assert.match(typeError.text, /Type 'string' is not assignable to type 'number'/);
  } finally {
    kernel.stop();
  }
});

test("ensureKernelSnapshot: fresh stays, a changed declaration file or node rebuilds", async () => {
  const dir = join(scratch, "ensure");
  assert.equal((await ensureKernelSnapshot(root, { dir })).status, "built");
  assert.equal((await ensureKernelSnapshot(root, { dir })).status, "fresh");
  const manifestFile = join(dir, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { hashes: Record<string, string> };
  const lib = Object.keys(manifest.hashes).find((f) => f.endsWith("lib.es5.d.ts"))!;
  manifest.hashes[lib] = "0".repeat(64); // as if lib.es5.d.ts had changed since the build
  writeFileSync(manifestFile, JSON.stringify(manifest));
  assert.equal((await ensureKernelSnapshot(root, { dir })).status, "built");
  writeFileSync(join(dir, "node.stamp"), "/opt/node22/bin/node 1 2 --max-semi-space-size=1");
  assert.equal((await ensureKernelSnapshot(root, { dir })).status, "built");
  assert.equal((await ensureKernelSnapshot(root, { dir })).status, "fresh");
});

test("a snapshot that cannot be built is never fatal: one German line, kernels start the plain way", async () => {
  // A folder that cannot be made: its parent is a file (as unwritable as a root-owned .cache, without root's powers).
  const notAFolder = join(scratch, "keine-mappe");
  writeFileSync(notAFolder, "");
  const result = await ensureKernelSnapshot(root, { dir: join(notAFolder, "kernel-snapshot") });
  assert.equal(result.status, "unavailable");
  assert.match(result.detail, /^Kernel-Schnellstart nicht gebaut, Kernel starten normal: .+/);
  assert.doesNotMatch(result.detail, /\n/);
});
