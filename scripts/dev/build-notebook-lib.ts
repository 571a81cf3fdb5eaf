// Builds lib/ once to CommonJS JavaScript + declaration files for the notebooks (tslab).
// Why: tslab compiles every imported .ts file on each kernel start (~6.5 s for lib's sources); with
// built .js + .d.ts it only type-checks the cell (~0.5 s; lib's public types are plain interfaces,
// so no package declarations such as zod's are parsed, see packagesReadByCell). lib/*.ts stays the
// one source of truth: notebooks/lib is a symlink to the build folder (.cache/notebook-lib), rebuilt
// when lib changes.
// Idempotent: a hash of lib's sources (and of this build's settings) is stored beside the output;
// an unchanged hash means nothing to do. Usage: tsx scripts/dev/build-notebook-lib.ts [--force] [--check]
//   --check: exit 1 when the build is missing or stale, build nothing.
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { KitError } from "../../lib/errors.js";

/** Bump when the build's settings change, so old builds count as stale. */
const BUILD_VERSION = 1;
const HASH_FILE = ".source-hash";
/** Files tsc does not emit but the build needs beside the .js files. */
const COPIED = [".cjs", ".d.cts"];

export interface NotebookLibPaths {
  root: string;
  libDir: string;
  outDir: string;
}

export function notebookLibPaths(root: string = findProjectRoot()): NotebookLibPaths {
  return { root, libDir: join(root, "lib"), outDir: join(root, ".cache", "notebook-lib") };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return sourceFiles(p);
      return name.endsWith(".ts") || COPIED.some((ext) => name.endsWith(ext)) ? [p] : [];
    });
}

/** Hash of everything the build depends on: lib's sources, the compiler's version, BUILD_VERSION. */
export function libSourceHash(paths: NotebookLibPaths = notebookLibPaths()): string {
  const hash = createHash("sha256").update(`build ${BUILD_VERSION} ts ${compiler().version}\n`);
  for (const file of sourceFiles(paths.libDir)) {
    hash.update(relative(paths.libDir, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

export type NotebookLibState = "fresh" | "stale" | "missing";

export function notebookLibState(paths: NotebookLibPaths = notebookLibPaths()): NotebookLibState {
  const hashFile = join(paths.outDir, HASH_FILE);
  if (!existsSync(hashFile) || !existsSync(join(paths.outDir, "index.js"))) return "missing";
  return readFileSync(hashFile, "utf8").trim() === libSourceHash(paths) ? "fresh" : "stale";
}

type Ts = typeof import("typescript");
let ts: Ts | undefined;

/** tslab's own TypeScript (5.0): the declaration files it emits are exactly what the kernel can read. */
function compiler(): Ts {
  if (!ts) {
    const fromTslab = createRequire(
      createRequire(join(findProjectRoot(), "package.json")).resolve("tslab/package.json"),
    );
    ts = fromTslab("@tslab/typescript-for-tslab") as Ts;
  }
  return ts;
}

export class NotebookLibBuildError extends KitError {
  override name = "NotebookLibBuildError";
}

/** Compiles lib into a staging folder and swaps it in; throws NotebookLibBuildError with tsc's messages. */
export function buildNotebookLib(paths: NotebookLibPaths = notebookLibPaths()): { seconds: number; files: number } {
  const started = performance.now();
  const t = compiler();
  const hash = libSourceHash(paths);
  const staging = `${paths.outDir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const files = sourceFiles(paths.libDir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  const options: import("typescript").CompilerOptions = {
    target: t.ScriptTarget.ES2022,
    module: t.ModuleKind.CommonJS,
    moduleResolution: t.ModuleResolutionKind.NodeJs,
    lib: ["lib.es2023.d.ts"],
    types: ["node"],
    typeRoots: [join(paths.root, "node_modules", "@types")],
    strict: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    declaration: true,
    rootDir: paths.libDir,
    outDir: staging,
    newLine: t.NewLineKind.LineFeed,
  };
  const program = t.createProgram(files, options);
  const emitted = program.emit();
  const diagnostics = [...t.getPreEmitDiagnostics(program), ...emitted.diagnostics].filter(
    (d) => d.category === t.DiagnosticCategory.Error,
  );
  if (diagnostics.length > 0 || emitted.emitSkipped) {
    rmSync(staging, { recursive: true, force: true });
    const text = t.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => paths.root,
      getNewLine: () => "\n",
    });
    throw new NotebookLibBuildError(`Building lib for the notebooks failed (tsc):\n${text}`);
  }
  for (const file of sourceFiles(paths.libDir).filter((f) => COPIED.some((ext) => f.endsWith(ext)))) {
    const target = join(staging, relative(paths.libDir, file));
    mkdirSync(join(target, ".."), { recursive: true });
    copyFileSync(file, target);
  }
  // The kit's package.json says "type": "module"; the build is CommonJS.
  writeFileSync(join(staging, "package.json"), `${JSON.stringify({ type: "commonjs", private: true }, null, 2)}\n`);
  writeFileSync(
    join(staging, "README.md"),
    "Generated by scripts/dev/build-notebook-lib.ts from lib/ — do not edit; edit lib/*.ts instead.\n",
  );
  writeFileSync(join(staging, HASH_FILE), `${hash}\n`);
  const old = `${paths.outDir}.old-${process.pid}`;
  if (existsSync(paths.outDir)) renameSync(paths.outDir, old);
  renameSync(staging, paths.outDir);
  rmSync(old, { recursive: true, force: true });
  return { seconds: (performance.now() - started) / 1000, files: files.length };
}

/**
 * The packages whose declarations a notebook cell importing the built lib makes the kernel parse,
 * beyond those every cell reads anyway (Node's types). Each one costs the first cell time (zod's or the
 * MCP SDK's types: ~0.2–0.4 s), so lib's public types are plain interfaces and this list stays empty
 * (test/scripts/notebook-lib.test.ts).
 */
export function packagesReadByCell(paths: NotebookLibPaths = notebookLibPaths()): string[] {
  const t = compiler();
  const options = {
    module: t.ModuleKind.CommonJS,
    moduleResolution: t.ModuleResolutionKind.NodeJs,
    types: ["node"],
    typeRoots: [join(paths.root, "node_modules", "@types")],
    noEmit: true,
  };
  // A virtual cell beside the built index, compiled the way the kernel compiles one.
  const cellFile = join(paths.outDir, "__cell__.ts");
  const packagesRead = (cell: string): Set<string> => {
    const host = t.createCompilerHost(options);
    const fromDisk = host.getSourceFile.bind(host);
    host.getSourceFile = (file, target, ...rest) =>
      file === cellFile ? t.createSourceFile(file, cell, target) : fromDisk(file, target, ...rest);
    const program = t.createProgram([cellFile], options, host);
    const names = program
      .getSourceFiles()
      .map((f) => /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(f.fileName)?.[1]);
    return new Set(names.filter((n): n is string => n !== undefined).map((n) => n.replace(/\\/g, "/")));
  };
  const always = packagesRead("const x = 1;");
  return [...packagesRead('import * as lib from "./index";')].filter((name) => !always.has(name)).sort();
}

/** Builds when missing or stale; returns what it did (for one log line). */
export function ensureNotebookLib(paths: NotebookLibPaths = notebookLibPaths(), force = false): string {
  const state = force ? "stale" : notebookLibState(paths);
  if (state === "fresh") return `notebook lib: up to date (${relative(paths.root, paths.outDir)})`;
  const { seconds, files } = buildNotebookLib(paths);
  return `notebook lib: ${state === "missing" ? "built" : "rebuilt"} ${files} files in ${seconds.toFixed(1)} s → ${relative(paths.root, paths.outDir)}`;
}
