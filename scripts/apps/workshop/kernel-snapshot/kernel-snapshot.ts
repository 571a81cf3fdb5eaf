// The kernel's V8 startup snapshot in .cache/kernel-snapshot/: built once per machine (setup, `npm run
// workshop`, `npm run hub`), rebuilt when node, the kernel's NODE_OPTIONS, tslab's TypeScript or one of the
// snapshotted declaration files changed. tslab-kernel.sh starts a kernel from it only when node.stamp matches
// the node binary and NODE_OPTIONS it runs with; node.stamp is written last, after the new snapshot started a
// kernel's entry once. Without a usable snapshot kernels start the plain way (slower, never broken).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/**
 * Node options of every kernel (scripts/setup.mjs writes the same; the snapshot is built with them, V8 refuses a
 * snapshot built with other flags): a 1 MB young generation instead of V8's up to 16 MB semi-spaces takes 25 MB
 * (12 %) off a kernel after `./lib/index` at no measurable CPU cost (bench/kernel-cpu.bench.ts;
 * `--optimize-for-size` saved a little more but cost 17 % more CPU at start); one V8 worker thread instead of
 * four takes another 10 MB off at no CPU cost (bench/kernel-start.bench.ts).
 */
export const KERNEL_NODE_OPTIONS = "--max-semi-space-size=1 --v8-pool-size=1";

/** The kernel's environment: its Node options, and two malloc arenas instead of up to 8 per core (−10 MB). */
export const KERNEL_ENV: Readonly<Record<string, string>> = {
  NODE_OPTIONS: KERNEL_NODE_OPTIONS,
  MALLOC_ARENA_MAX: "2",
};

const run = promisify(execFile);
const HERE = fileURLToPath(new URL(".", import.meta.url));
export const SNAPSHOT_ENTRY = join(HERE, "snapshot-entry.cjs");
export const KERNEL_LAUNCHER = join(HERE, "tslab-kernel.sh");

export interface SnapshotResult {
  status: "fresh" | "built" | "unavailable";
  /** German, for setup's and the start's log. */
  detail: string;
}

interface Manifest {
  nodeStamp: string;
  /** sha256 per file: the snapshot's entry, tslab's typescript.js and every declaration file in the snapshot. */
  hashes: Record<string, string>;
}

/** A build takes ~4 s; one that hangs must not hold up `npm run workshop` or the hub. */
const BUILD_TIMEOUT_MS = 120_000;

export function snapshotDir(root: string): string {
  return join(root, ".cache", "kernel-snapshot");
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** What tslab-kernel.sh compares: the node on PATH (resolved), its size and mtime, and NODE_OPTIONS. */
async function nodeStamp(nodeOptions: string): Promise<{ node: string; stamp: string }> {
  const { stdout } = await run("sh", [
    "-c",
    'n=$(readlink -f "$(command -v node)") && echo "$n" && stat -c "%s %Y" "$n"',
  ]);
  const [node, sizeAndTime] = stdout.trim().split("\n");
  return { node: node!, stamp: `${node} ${sizeAndTime} ${nodeOptions}` };
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  } catch {
    return undefined; // none yet, or half written: build anew
  }
}

function isFresh(dir: string, manifest: Manifest | undefined, stamp: string): boolean {
  if (!manifest || manifest.nodeStamp !== stamp || !(SNAPSHOT_ENTRY in manifest.hashes)) return false;
  if (!existsSync(join(dir, "kernel.blob"))) return false;
  if (!existsSync(join(dir, "node.stamp")) || readFileSync(join(dir, "node.stamp"), "utf8") !== stamp) return false;
  return Object.entries(manifest.hashes).every(([file, hash]) => existsSync(file) && sha256(file) === hash);
}

/**
 * Makes sure the kernel snapshot for this kit fits the node on PATH and the installed tslab; builds it if not
 * (about 3 CPU-seconds, once). `dir` defaults to .cache/kernel-snapshot (tests pass their own).
 */
export async function ensureKernelSnapshot(
  root: string,
  options: { dir?: string; nodeOptions?: string } = {},
): Promise<SnapshotResult> {
  if (process.platform !== "linux") return { status: "unavailable", detail: "Kernel-Schnellstart nur unter Linux" };
  const dir = options.dir ?? snapshotDir(root);
  const nodeOptions = options.nodeOptions ?? KERNEL_NODE_OPTIONS;
  const tmp = join(dir, `build-${process.pid}`);
  // Never fatal: whatever fails here (no node on PATH, a read-only .cache, a build that breaks), kernels start
  // the plain way and the start says so in one German line.
  try {
    const { node, stamp } = await nodeStamp(nodeOptions);
    if (isFresh(dir, readManifest(dir), stamp)) return { status: "fresh", detail: "Kernel-Schnellstart aktuell" };
    mkdirSync(dir, { recursive: true });
    rmSync(join(dir, "node.stamp"), { force: true }); // no kernel starts from a blob being replaced
    mkdirSync(tmp, { recursive: true });
    const blob = join(tmp, "kernel.blob");
    const files = join(tmp, "files.json");
    const tsPath = createRequire(join(root, "node_modules", "tslab", "dist", "converter.js")).resolve(
      "@tslab/typescript-for-tslab",
    );
    const env = {
      ...process.env,
      NODE_OPTIONS: nodeOptions,
      KIT_SNAPSHOT_ROOT: root,
      KIT_SNAPSHOT_CWD: join(root, "notebooks"),
      KIT_SNAPSHOT_TYPESCRIPT: tsPath,
      KIT_SNAPSHOT_FILES: files,
    };
    const limits = { env, cwd: root, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 };
    await run(node, ["--snapshot-blob", blob, "--build-snapshot", SNAPSHOT_ENTRY], limits);
    const check = await run(node, ["--snapshot-blob", blob, "kit-snapshot-check"], limits);
    const status = JSON.parse(check.stdout) as { snapshot: boolean; cachedFiles: number; reason?: string };
    if (!status.snapshot || status.cachedFiles === 0) throw new Error(status.reason ?? "no cached files");
    const snapshotted = [SNAPSHOT_ENTRY, ...(JSON.parse(readFileSync(files, "utf8")) as string[])];
    const hashes = Object.fromEntries(snapshotted.map((f) => [f, sha256(f)]));
    renameSync(blob, join(dir, "kernel.blob"));
    writeFileSync(join(dir, "manifest.json"), JSON.stringify({ nodeStamp: stamp, hashes } satisfies Manifest));
    writeFileSync(join(dir, "node.stamp"), stamp);
    return { status: "built", detail: `Kernel-Schnellstart gebaut (${status.cachedFiles} Typdateien vorab geladen)` };
  } catch (e) {
    // One line for the log: the error itself (its "…Error: …" line), not the stack or node's version line.
    const text = e instanceof Error ? (e as Error & { stderr?: string }).stderr || e.message : String(e);
    const lines = text.split("\n").filter((l) => l.trim() && !/^\s+at |^Node\.js v/.test(l));
    const why = lines.find((l) => /Error\b/.test(l)) ?? lines.pop() ?? "unbekannter Fehler";
    return {
      status: "unavailable",
      detail: `Kernel-Schnellstart nicht gebaut, Kernel starten normal: ${why.slice(0, 300)}`,
    };
  } finally {
    // Where the folder could not even be made (its parent a file), there is nothing to remove either.
    if (existsSync(tmp)) rmSync(tmp, { recursive: true, force: true });
  }
}
