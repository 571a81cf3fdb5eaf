// lib's shape as docs/architecture.md draws it: which folder may import which, the pure plan core, and
// the size of the public surface. Reads the import declarations of every lib file with TypeScript's parser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { ROOT, tsFiles } from "./source-files.js";

const LIB = join(ROOT, "lib");
/** Top-level files (config, util, timeouts, the CommonJS shims) every folder may use. */
const TOP = "(top)";

/** Folder → the folders it may import from (besides itself and TOP). Dependencies point one way. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  notebook: [],
  schema: [],
  llm: ["notebook", "schema"],
  mcp: ["notebook", "schema"],
  rag: ["notebook", "schema", "llm"],
  "rag-eval": ["rag"],
  plan: ["schema", "llm", "mcp"],
  // The agents take retrieved context as text (llm/messages.ts formats it), never from lib/rag.
  "half-agent": ["schema", "llm", "mcp", "plan"],
  agent: ["schema", "llm", "mcp", "plan"],
  patterns: ["notebook", "schema", "llm", "mcp", "rag", "plan", "half-agent", "agent"],
  eval: ["schema", "llm", "mcp", "rag", "plan", "half-agent", "agent", "patterns"],
  display: ["notebook", "schema", "llm", "mcp", "rag", "rag-eval", "plan", "agent", "patterns", "eval"],
  testing: ["llm", "mcp", "plan", "agent", "eval"],
  rehearsal: ["notebook", "llm", "half-agent", "agent", "eval", "testing"],
  exercises: [
    "notebook",
    "schema",
    "llm",
    "mcp",
    "rag",
    "rag-eval",
    "plan",
    "half-agent",
    "agent",
    "testing",
    "rehearsal",
  ],
};
/** Packages the pure plan core must not load (SDKs, model and index libraries). */
const NOT_IN_PLAN = /^(node:|@modelcontextprotocol\/|node-llama-cpp|@huggingface\/|faiss-node|usearch|express)/;

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((s): Import[] => {
    if (
      !(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) ||
      !s.moduleSpecifier ||
      !ts.isStringLiteral(s.moduleSpecifier)
    )
      return [];
    const typeOnly = ts.isImportDeclaration(s) ? (s.importClause?.isTypeOnly ?? false) : s.isTypeOnly;
    return [{ file, specifier: s.moduleSpecifier.text, typeOnly }];
  });
}

function folderOf(path: string): string {
  const rel = relative(LIB, path);
  return rel.includes("/") ? rel.split("/")[0]! : TOP;
}

const imports = tsFiles(LIB).flatMap(importsOf);
const relativeImports = imports.filter((i) => i.specifier.startsWith("."));

test("every lib folder imports only the folders below it", () => {
  const wrong = relativeImports.flatMap((i) => {
    const from = folderOf(i.file);
    const to = folderOf(resolve(dirname(i.file), i.specifier));
    if (from === TOP || from === to || to === TOP) return [];
    const allowed = ALLOWED[from];
    assert.ok(allowed, `lib/${from}/ is not in the layer table of this test (and docs/architecture.md)`);
    return allowed.includes(to) ? [] : [`${relative(LIB, i.file)} → ${i.specifier}`];
  });
  assert.deepEqual(wrong, []);
});

// The notebooks load lib compiled to CommonJS; node-llama-cpp is ESM with top-level await, which require()
// cannot load (ERR_REQUIRE_ASYNC_MODULE). So lib takes its values only through esmImport (lib/esm.cjs).
test("node-llama-cpp: only type imports; values through esmImport", () => {
  const wrong = imports.filter((i) => i.specifier === "node-llama-cpp" && !i.typeOnly);
  assert.deepEqual(
    wrong.map((i) => relative(LIB, i.file)),
    [],
  );
});

test("the top-level files import no folder (lib/index.ts aside)", () => {
  const top = relativeImports.filter((i) => folderOf(i.file) === TOP && relative(LIB, i.file) !== "index.ts");
  const wrong = top.filter((i) => folderOf(resolve(dirname(i.file), i.specifier)) !== TOP);
  assert.deepEqual(
    wrong.map((i) => `${relative(LIB, i.file)} → ${i.specifier}`),
    [],
  );
});

test("the plan core is pure: no SDK, model library or node: module; values only from plan, schema and import-free helpers", () => {
  const planImports = imports.filter((i) => folderOf(i.file) === "plan");
  assert.ok(planImports.length > 0);
  const packages = planImports.filter((i) => NOT_IN_PLAN.test(i.specifier));
  assert.deepEqual(
    packages.map((i) => `${relative(LIB, i.file)} → ${i.specifier}`),
    [],
  );
  const values = planImports.filter((i) => {
    if (i.typeOnly || !i.specifier.startsWith(".")) return false;
    const target = resolve(dirname(i.file), i.specifier).replace(/\.js$/u, ".ts");
    // A top-level helper file is fine as long as it loads nothing itself (util.ts: plain functions).
    if (folderOf(target) === TOP) return importsOf(target).length > 0;
    return !["plan", "schema"].includes(folderOf(target));
  });
  assert.deepEqual(
    values.map((i) => `${relative(LIB, i.file)} → ${i.specifier}`),
    [],
  );
});

const INDEXES = [
  join(LIB, "index.ts"),
  ...readdirSync(LIB)
    .filter((d) => statSync(join(LIB, d)).isDirectory())
    .map((d) => join(LIB, d, "index.ts")),
].filter((f) => statSync(f, { throwIfNoEntry: false }));

/** Exported names of each index (values and types), through its re-exports: one program for all. */
function indexExports(): Map<string, { name: string; value: boolean }[]> {
  const program = ts.createProgram(INDEXES, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const isValue = (e: ts.Symbol) =>
    ((e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e).flags & ts.SymbolFlags.Value) !== 0;
  return new Map(
    INDEXES.map((file) => {
      const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
      return [
        relative(LIB, file),
        checker.getExportsOfModule(moduleSymbol).map((e) => ({ name: e.name, value: isValue(e) })),
      ];
    }),
  );
}
const EXPORTS = indexExports();

/** Exported value names (functions, classes, constants) of each index. */
function exportedValues(): Map<string, string[]> {
  return new Map([...EXPORTS].map(([file, names]) => [file, names.filter((n) => n.value).map((n) => n.name)]));
}

test("lib/index.ts lists at most 130 values; each folder index at most 30", () => {
  const values = exportedValues();
  assert.ok(values.size >= 11, [...values.keys()].join(", "));
  for (const [file, names] of values) {
    const limit = file === "index.ts" ? 130 : 30;
    assert.ok(names.length <= limit, `lib/${file} exports ${names.length} values (at most ${limit})`);
  }
});

// The caps above count what the indexes list; an export in lib/index.ts that points past a folder index at
// an inner file would go around them. So lib/index.ts exports only from top-level files and folder indexes.
test("lib/index.ts exports only through folder indexes (or top-level files)", () => {
  const top = imports.filter((i) => relative(LIB, i.file) === "index.ts");
  assert.ok(top.length > 10);
  const detours = top.filter((i) => {
    const target = relative(LIB, resolve(LIB, i.specifier));
    return target.includes("/") && !/^[\w-]+\/index\.js$/u.test(target);
  });
  assert.deepEqual(
    detours.map((i) => i.specifier),
    [],
  );
});

/** The names an import or export declaration takes by name (none for `* as ns` and `export *`). */
function importedNames(s: ts.ImportDeclaration | ts.ExportDeclaration): string[] {
  const bindings = ts.isImportDeclaration(s) ? s.importClause?.namedBindings : s.exportClause;
  if (!bindings || ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) return [];
  return bindings.elements.map((e) => (e.propertyName ?? e.name).text);
}

// Scripts use lib as a developer reusing it does: a name a folder index exports comes through that index,
// not from the inner file behind it (escapeHtml from lib/notebook/index.js, not lib/notebook/escape-html.js).
// Names no index exports are the folder's internals, which this rule does not judge.
test("scripts take the names a folder index exports through that index", () => {
  const scripts = join(ROOT, "scripts");
  const detours = tsFiles(scripts).flatMap((file) => {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    return source.statements.flatMap((s) => {
      if (
        !(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) ||
        !s.moduleSpecifier ||
        !ts.isStringLiteral(s.moduleSpecifier)
      )
        return [];
      const target = relative(LIB, resolve(dirname(file), s.moduleSpecifier.text));
      const [folder, inner, ...deeper] = target.split("/");
      if (
        !s.moduleSpecifier.text.startsWith(".") ||
        target.startsWith("..") ||
        !inner ||
        deeper.length ||
        inner === "index.js"
      )
        return [];
      const indexed = new Set(EXPORTS.get(`${folder}/index.ts`)?.map((e) => e.name));
      const through = importedNames(s).filter((name) => indexed.has(name));
      return through.length
        ? [`${relative(scripts, file)}: ${through.join(", ")} from lib/${target} → lib/${folder}/index.js`]
        : [];
    });
  });
  assert.deepEqual(detours, []);
});

// Borders around lib (docs/architecture.md, "Borders"): the MCP servers are packages of their own that a
// participant may start from anywhere (Claude Desktop), so they use only lib's top-level helpers, the shared
// node helpers (scripts/node/) and mcp-server-shared/, never the apps or developer tools, never each other.
const SERVERS = ["mcp-server-travel", "mcp-server-math", "mcp-server-shared"];

/** Where a relative import of `file` lands, relative to the project root (".ts" for ".js"). */
function target(i: Import): string {
  return relative(ROOT, resolve(dirname(i.file), i.specifier)).replace(/\.js$/u, ".ts");
}

test("the MCP servers import only lib's top-level helpers, scripts/node/, mcp-server-shared/ and themselves", () => {
  const wrong = SERVERS.flatMap((server) =>
    tsFiles(join(ROOT, server))
      .flatMap(importsOf)
      .filter((i) => i.specifier.startsWith("."))
      .filter((i) => {
        const to = target(i);
        const allowed =
          to.startsWith(`${server}/`) ||
          to.startsWith("mcp-server-shared/") ||
          to.startsWith("scripts/node/") ||
          /^lib\/[\w-]+\.ts$/u.test(to);
        return !allowed;
      })
      .map((i) => `${relative(ROOT, i.file)} → ${target(i)}`),
  );
  assert.deepEqual(wrong, []);
});

// The commands (scripts/commands.ts) are data that scripts/kit.ts runs; one command never loads another's
// definition (a shared piece moves to a file of its own), so `npm run board` loads only the board.
test("no file imports a command's definition but the registry", () => {
  const registry = readFileSync(join(ROOT, "scripts", "commands.ts"), "utf8");
  const definitions = new Set(
    [...registry.matchAll(/import\("([^"]+)"\)/gu)].map((m) =>
      relative(ROOT, resolve(ROOT, "scripts", m[1]!)).replace(/\.js$/u, ".ts"),
    ),
  );
  assert.ok(definitions.size >= 20, [...definitions].join(", "));
  const files = ["scripts", "bench", ...SERVERS].flatMap((d) => tsFiles(join(ROOT, d)));
  const wrong = files
    .flatMap(importsOf)
    .filter(
      (i) =>
        i.specifier.startsWith(".") &&
        !i.typeOnly &&
        definitions.has(target(i)) &&
        relative(ROOT, i.file) !== "scripts/commands.ts",
    )
    .map((i) => `${relative(ROOT, i.file)} → ${target(i)}`);
  assert.deepEqual(wrong, [], "a shared piece moves out of the command file into a module of its own");
});

/**
 * Inner lib files that scripts may import past the folder indexes: internals that no index exports on
 * purpose (prompt-state caches, the raw llama loader, the board record's wire format, the eval pages, the MCP
 * servers' bundle manifest).
 * Anything else comes through lib/<folder>/index.js or a top-level file.
 */
const INNER_FOR_SCRIPTS = new Set([
  "lib/agent/run-options.ts",
  "lib/agent/run-state.ts",
  "lib/display/eval-compare.ts",
  "lib/display/eval.ts",
  "lib/exercises/board-record.ts",
  "lib/llm/llama.ts",
  "lib/llm/prompt-state.ts",
  "lib/llm/warm-states.ts",
  "lib/mcp/server-bundle.ts",
  "lib/notebook/wrap.ts",
  "lib/rag/embedder.ts",
  "lib/schema/text.ts",
]);

test("scripts reach lib through folder indexes, top-level files or the short list of inner files", () => {
  const wrong = tsFiles(join(ROOT, "scripts"))
    .flatMap(importsOf)
    .filter((i) => i.specifier.startsWith("."))
    .map((i) => ({ from: relative(ROOT, i.file), to: target(i) }))
    .filter(
      ({ to }) => /^lib\/[\w-]+\/.+/u.test(to) && !/^lib\/[\w-]+\/index\.ts$/u.test(to) && !INNER_FOR_SCRIPTS.has(to),
    )
    .map(({ from, to }) => `${from} → ${to}`);
  assert.deepEqual(wrong, []);
});
