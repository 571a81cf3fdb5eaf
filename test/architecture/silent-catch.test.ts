// No silent catches (docs/architecture.md, "Errors"): a rejected promise is either handled or dropped
// through lib/util.ts's named `ignore(reason)`, which says why and prints the error with KIT_DEBUG=1.
// `.catch(() => {})` and `.catch(() => undefined)` say neither. Reads every call with TypeScript's parser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import ts from "typescript";
import { codeFiles, ROOT } from "./source-files.js";

/** A handler that drops the error without a word: empty body, or one that only yields undefined/null. */
function isSilentHandler(node: ts.Node): boolean {
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return false;
  const body = node.body;
  if (ts.isBlock(body)) return body.statements.length === 0;
  let value: ts.Expression = body;
  while (ts.isParenthesizedExpression(value)) value = value.expression;
  if (ts.isVoidExpression(value)) return true;
  if (value.kind === ts.SyntaxKind.NullKeyword) return true;
  return ts.isIdentifier(value) && value.text === "undefined";
}

/** "file:line" of every `.catch(<silent handler>)` and `.then(_, <silent handler>)` in `source`. */
function silentCatches(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const handler = method === "catch" ? node.arguments[0] : method === "then" ? node.arguments[1] : undefined;
      if (handler && isSilentHandler(handler))
        found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

test("the scan finds the silent shapes and lets named or handling ones pass", () => {
  const source = [
    "a.catch(() => {});",
    "b.catch(() => undefined);",
    "c.catch((_e) => (undefined));",
    "d.catch(function () {});",
    "e.then(ok, () => null);",
    "f.catch(() => void 0);",
    'g.catch(ignore("closing a client that is already gone"));',
    "h.catch((error: unknown) => `nicht lesbar: ${String(error)}`);",
    "i.catch(() => { log(); });",
    "try { j(); } catch { k(); }",
  ].join("\n");
  assert.deepEqual(silentCatches("x.ts", source), ["x.ts:1", "x.ts:2", "x.ts:3", "x.ts:4", "x.ts:5", "x.ts:6"]);
});

test("lib, scripts, bench and the MCP servers have no silent .catch: each one is ignore(reason) or handles the error", () => {
  const files = codeFiles();
  assert.ok(files.length > 100, `only ${files.length} files found`);
  const found = files.flatMap((f) => silentCatches(relative(ROOT, f), readFileSync(f, "utf8")));
  assert.deepEqual(found, [], "use ignore(reason) from lib/util.ts, or handle the error");
});
