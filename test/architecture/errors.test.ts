// One error root (docs/architecture.md, "Errors"): every error class the kit exports — lib, scripts, the MCP
// servers, bench — extends KitError (lib/errors.ts), directly or through its folder's base. Reads the class
// declarations with TypeScript's parser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import ts from "typescript";
import { KitError } from "../../lib/errors.js";
import { LlmError, ModelNotFoundError } from "../../lib/llm/index.js";
import { isTransientError, McpClientClosedError, McpConnectionError } from "../../lib/mcp/errors.js";
import { codeFiles, ROOT } from "./source-files.js";

interface ErrorClass {
  name: string;
  parent: string;
  exported: boolean;
  file: string;
}

/** Every class with an `extends` clause: its name, its parent's name and whether it is exported. */
const CLASSES: ErrorClass[] = codeFiles().flatMap((file) => {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((s): ErrorClass[] => {
    if (!ts.isClassDeclaration(s) || !s.name) return [];
    const parent = s.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    if (!parent) return [];
    const exported = s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
    return [{ name: s.name.text, parent: parent.getText(source), exported, file: relative(ROOT, file) }];
  });
});
const BY_NAME = new Map(CLASSES.map((c) => [c.name, c]));

/** The chain of parents of `c` up to a class not declared in the kit (Error, TypeError, …) or KitError. */
function ancestry(c: ErrorClass): string[] {
  const chain: string[] = [];
  for (
    let parent: string | undefined = c.parent;
    parent;
    parent = parent === "KitError" ? undefined : BY_NAME.get(parent)?.parent
  ) {
    chain.push(parent);
    if (chain.length > 20) break;
  }
  return chain;
}

test("every exported error class extends KitError", () => {
  const errors = CLASSES.filter((c) => c.exported && c.name !== "KitError" && /Error$/u.test(ancestry(c).at(-1) ?? ""));
  assert.ok(errors.length >= 60, `found ${errors.length} error classes`);
  const wrong = errors
    .filter((c) => ancestry(c).at(-1) !== "KitError")
    .map((c) => `${c.file}: ${c.name} extends ${ancestry(c).join(" → ")}`);
  assert.deepEqual(wrong, []);
});

test("retryable has one polarity: LlmError and McpConnectionError say it the same way", () => {
  assert.equal(new LlmError("x").retryable, true);
  assert.equal(new ModelNotFoundError("/m.gguf", "/models").retryable, false);
  const lost = new McpConnectionError("weg", { target: "t" }, { cause: new Error("ECONNRESET") });
  assert.equal(lost.retryable, true);
  assert.equal(isTransientError(lost), true);
  assert.equal((lost.cause as Error).message, "ECONNRESET", "the cause is kept");
  assert.equal(new McpClientClosedError("t").retryable, false);
  assert.ok(new McpClientClosedError("t") instanceof KitError);
});
