// The entry of the kernel's V8 startup snapshot (`node --snapshot-blob … --build-snapshot snapshot-entry.cjs`,
// run by kernel-snapshot.ts). It loads tslab's TypeScript and parses and binds the declaration files every
// kernel needs (lib.es2022*.d.ts, @types/node) once, so a kernel started from the snapshot finds them in its
// heap instead of reading, parsing and binding ~3 MB of declarations (about half of its start CPU).
//
// Node 20 lets a snapshot entry require built-in modules only; the deserialized main function (`startKernel`)
// then hands tslab this TypeScript through Node's module cache and starts it as `tslab kernel` would.
// A cached SourceFile is served only for the same file name, the same text, the same parse options and the
// same binding options; anything else is parsed as usual. A TypeScript on disk that is not the one in the
// snapshot is loaded from disk (nothing from the snapshot is used), so a stale snapshot is only slower.
"use strict";
const fs = require("fs");
const path = require("path");
const v8 = require("v8");

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`snapshot-entry.cjs: ${name} is not set`);
  return value;
};
const kitRoot = env("KIT_SNAPSHOT_ROOT");
const notebookDir = env("KIT_SNAPSHOT_CWD");
const tslabMain = path.join(kitRoot, "node_modules", "tslab", "dist", "main.js");
const tsPath = env("KIT_SNAPSHOT_TYPESCRIPT");

/** Only options that change how a declaration file is parsed or bound (binder.ts reads these). */
const bindKey = (options) =>
  JSON.stringify([
    options.target,
    options.strict,
    options.alwaysStrict,
    options.preserveConstEnums,
    options.isolatedModules,
  ]);

/** fileName → { sourceFile, text, languageVersion, impliedNodeFormat, bindKey } */
const cache = new Map();
const stats = { served: 0, parsed: 0 };

function cachedSourceFile(fileName, text, languageVersionOrOptions, getCompilerOptions) {
  const entry = cache.get(fileName);
  const lvo = languageVersionOrOptions;
  const languageVersion = typeof lvo === "object" ? lvo.languageVersion : lvo;
  const impliedNodeFormat = typeof lvo === "object" ? lvo.impliedNodeFormat : undefined;
  if (
    entry &&
    entry.text === text &&
    entry.languageVersion === languageVersion &&
    entry.impliedNodeFormat === impliedNodeFormat &&
    entry.bindKey === bindKey(getCompilerOptions())
  ) {
    stats.served++;
    return entry.sourceFile;
  }
  stats.parsed++;
  return undefined;
}

/** typescript.js as a CommonJS module, its getSourceFile asking the cache first. */
function loadTypeScript() {
  const needle =
    "return text !== void 0 ? createSourceFile(fileName, text, languageVersionOrOptions, setParentNodes) : void 0;";
  const source = fs.readFileSync(tsPath, "utf8");
  const at = source.indexOf(needle);
  if (at < 0 || source.indexOf(needle, at + 1) >= 0) throw new Error("snapshot-entry.cjs: unknown typescript.js");
  const hooked =
    source.slice(0, at) +
    "return text !== void 0 ? (__kitCachedSourceFile(fileName, text, languageVersionOrOptions, getCompilerOptions) || createSourceFile(fileName, text, languageVersionOrOptions, setParentNodes)) : void 0;" +
    source.slice(at + needle.length);
  const wrapper = (0, eval)(
    `(function (exports, require, module, __filename, __dirname, __kitCachedSourceFile) {${hooked}\n})\n//# sourceURL=${tsPath}`,
  );
  const module = { exports: {} };
  wrapper(module.exports, require, module, tsPath, path.dirname(tsPath), cachedSourceFile);
  return module.exports;
}

const ts = loadTypeScript();

/** The compiler options of tslab's converter (tslab/dist/converter.js, as the kit patches it) for Node ≥ 18. */
function tslabOptions() {
  return {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    declaration: true,
    newLine: ts.NewLineKind.LineFeed,
    noImplicitUseStrict: true,
    experimentalDecorators: true,
    resolveJsonModule: true,
    jsx: ts.JsxEmit.React,
    typeRoots: ts.getDefaultTypeRoots(notebookDir, { directoryExists: (dir) => ts.sys.directoryExists(dir) }) || [],
    allowJs: true,
    checkJs: true,
    disableTopLevelAwait: true,
    skipLibCheck: true,
    types: ["node"],
    rootDir: notebookDir,
    outDir: "outDir",
  };
}

/** Parses and binds the declaration files a kernel in `notebookDir` reads before its first cell. */
function fillCache() {
  // ts.sys memoizes the current directory on first use: the build must not fix it to its own (a kernel runs in
  // its notebook's folder), so the program here gets the directory from its host and ts.sys refuses meanwhile.
  const sysCwd = ts.sys.getCurrentDirectory;
  ts.sys.getCurrentDirectory = () => {
    throw new Error("snapshot-entry.cjs: ts.sys.getCurrentDirectory() must not be memoized into the snapshot");
  };
  try {
    parseAndBind();
  } finally {
    ts.sys.getCurrentDirectory = sysCwd;
  }
}

function parseAndBind() {
  const options = tslabOptions();
  const host = ts.createCompilerHost(options);
  host.getCurrentDirectory = () => notebookDir;
  const virtual = new Map([
    [path.join(notebookDir, "__tslab__.ts"), "export {};\n"],
    [path.join(notebookDir, "__prev__.d.ts"), "export {};\n"],
  ]);
  const requested = [];
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (fileName, lvo, ...rest) => {
    if (virtual.has(fileName)) return ts.createSourceFile(fileName, virtual.get(fileName), lvo);
    requested.push({ fileName, lvo });
    return getSourceFile.call(host, fileName, lvo, ...rest);
  };
  const fileExists = host.fileExists;
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists.call(host, fileName);
  ts.createProgram([...virtual.keys()], options, host);
  const libDir = path.dirname(tsPath);
  for (const { fileName, lvo } of requested) {
    const shared = fileName.startsWith(libDir + path.sep) || fileName.includes("/node_modules/@types/");
    if (!shared || !fileName.endsWith(".d.ts")) continue;
    const text = ts.sys.readFile(fileName);
    if (text === undefined) continue;
    const sourceFile = ts.createSourceFile(fileName, text, lvo);
    ts.bindSourceFile(sourceFile, options);
    cache.set(fileName, {
      sourceFile,
      text,
      languageVersion: typeof lvo === "object" ? lvo.languageVersion : lvo,
      impliedNodeFormat: typeof lvo === "object" ? lvo.impliedNodeFormat : undefined,
      bindKey: bindKey(options),
    });
  }
  if (cache.size === 0) throw new Error("snapshot-entry.cjs: no declaration files found");
}

fillCache();
const built = { tsPath, tsSize: fs.statSync(tsPath).size, files: cache.size };
// kernel-snapshot.ts keeps the hashes of these files, to rebuild when one changes.
fs.writeFileSync(env("KIT_SNAPSHOT_FILES"), JSON.stringify([tsPath, ...cache.keys()]));

/** After deserialization: `node --snapshot-blob kernel.blob kernel --config-path FILE` starts tslab's kernel. */
function startKernel() {
  // A child started with fork() (node-llama-cpp tests its binding so) inherits process.execArgv: with the snapshot
  // in it, the child would start this kernel instead of its own script.
  const at = process.execArgv.indexOf("--snapshot-blob");
  if (at >= 0) process.execArgv.splice(at, 2);
  const Module = require("module");
  const tslabRequire = Module.createRequire(tslabMain);
  let reason = "";
  try {
    const resolved = tslabRequire.resolve("@tslab/typescript-for-tslab");
    if (resolved !== built.tsPath) reason = `tslab now uses ${resolved}`;
    else if (fs.statSync(resolved).size !== built.tsSize) reason = "typescript.js changed";
  } catch (e) {
    reason = `typescript not found: ${e.message}`;
  }
  if (!reason) {
    const module = new Module(built.tsPath, null);
    module.filename = built.tsPath;
    module.paths = Module._nodeModulePaths(path.dirname(built.tsPath));
    module.exports = ts;
    module.loaded = true;
    Module._cache[built.tsPath] = module;
  }
  globalThis[Symbol.for("kit.kernelStart")] = {
    snapshot: !reason,
    reason: reason || undefined,
    cachedFiles: reason ? 0 : built.files,
    stats,
  };
  if (process.argv[1] === "kit-snapshot-check") {
    // kernel-snapshot.ts starts a fresh snapshot this way once before it lets kernels use it.
    process.stdout.write(JSON.stringify(globalThis[Symbol.for("kit.kernelStart")]));
    return;
  }
  // tslab's command line parser reads argv[2..] (`kernel --config-path FILE`).
  process.argv = [
    process.execPath,
    path.join(kitRoot, "node_modules", "tslab", "bin", "tslab"),
    ...process.argv.slice(1),
  ];
  tslabRequire(tslabMain).main();
}

v8.startupSnapshot.setDeserializeMainFunction(startKernel);
