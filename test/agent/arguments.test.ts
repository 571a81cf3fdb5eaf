// German messages for tool arguments that do not fit the input schema (ajv keywords → German).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ArgumentValidator } from "../../lib/agent/arguments.js";
import type { ToolInfo } from "../../lib/mcp/types.js";

const validator = new ArgumentValidator();

function tool(inputSchema: Record<string, unknown>): ToolInfo {
  return { name: "t", description: "", inputSchema };
}

function messages(schema: Record<string, unknown>, args: unknown): string[] {
  const check = validator.check(tool({ type: "object", ...schema }), args);
  assert.equal(check.ok, false, `expected issues for ${JSON.stringify(args)}`);
  return check.issues.map((i) => i.message);
}

const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";

describe("ArgumentValidator messages", () => {
  const cases: [string, Record<string, unknown>, unknown, RegExp][] = [
    ["type", { properties: { lat: { type: "number" } } }, { lat: "41" }, /^"lat" muss vom Typ number \(Zahl\) sein\.$/],
    ["type with several types", { properties: { n: { type: ["integer", "null"] } } }, { n: "x" }, /^"n" muss vom Typ integer \(ganze Zahl\) oder null sein\.$/],
    ["type of the whole arguments", {}, [], /^Das Argument-Objekt muss vom Typ object \(Objekt\) sein\.$/],
    ["required", { properties: { a: {} }, required: ["a"] }, {}, /^Pflichtargument "a" fehlt\.$/],
    ["multipleOf", { properties: { n: { type: "number", multipleOf: 5 } } }, { n: 7 }, /^"n" muss ein Vielfaches von 5 sein\.$/],
    ["uniqueItems", { properties: { l: { type: "array", uniqueItems: true } } }, { l: [1, 2, 1] }, /^"l" darf keine doppelten Einträge haben \(Eintrag 0 und 2 sind gleich\)\.$/],
    ["minProperties", { properties: { o: { type: "object", minProperties: 2 } } }, { o: { a: 1 } }, /^"o" braucht mindestens 2 Felder\.$/],
    ["maxProperties", { properties: { o: { type: "object", maxProperties: 1 } } }, { o: { a: 1, b: 2 } }, /^"o" darf höchstens 1 Feld haben\.$/],
    ["maxProperties, plural", { properties: { o: { type: "object", maxProperties: 2 } } }, { o: { a: 1, b: 2, c: 3 } }, /^"o" darf höchstens 2 Felder haben\.$/],
    ["minProperties, singular", { properties: { o: { type: "object", minProperties: 1 } } }, { o: {} }, /^"o" braucht mindestens 1 Feld\.$/],
    ["minItems, singular", { properties: { l: { type: "array", minItems: 1 } } }, { l: [] }, /^"l" braucht mindestens 1 Eintrag\.$/],
    ["maxItems, plural", { properties: { l: { type: "array", maxItems: 2 } } }, { l: [1, 2, 3] }, /^"l" darf höchstens 2 Einträge haben\.$/],
    ["dependencies with several names", { properties: { a: {} }, dependencies: { a: ["b", "c", "d"] } }, { a: 1 }, /^Wenn "a" angegeben ist, braucht es auch "b", "c" und "d"\.$/],
    ["dependentRequired (draft-07 dependencies)", { properties: { a: {}, b: {} }, dependencies: { a: ["b"] } }, { a: 1 }, /^Wenn "a" angegeben ist, braucht es auch "b"\.$/],
    ["propertyNames", { propertyNames: { maxLength: 3 } }, { langername: 1 }, /der Feldname "langername" ist nicht erlaubt/],
    ["anyOf", { properties: { v: { anyOf: [{ type: "string" }, { type: "number" }] } } }, { v: true }, /"v" muss vom Typ (string|number)/],
    ["oneOf matching twice", { properties: { v: { oneOf: [{ type: "number" }, { type: "integer" }] } } }, { v: 3 }, /^"v" passt zu mehreren Varianten \(1 und 2\), erlaubt ist genau eine\.$/],
    ["not", { properties: { v: { not: { type: "string" } } } }, { v: "x" }, /^"v" hat eine Form, die das Schema ausdrücklich verbietet\.$/],
    ["contains", { properties: { l: { type: "array", contains: { type: "string" } } } }, { l: [1] }, /"l" braucht mindestens 1 passenden Eintrag\./],
    ["contains with minContains 2", { $schema: DRAFT_2020, properties: { l: { type: "array", contains: { type: "string" }, minContains: 2 } } }, { l: ["a"] }, /^"l" braucht mindestens 2 passende Einträge\.$/],
    ["false schema", { properties: { x: false } }, { x: 1 }, /^"x" ist hier nicht erlaubt\.$/],
    ["additionalItems", { properties: { l: { type: "array", items: [{ type: "number" }], additionalItems: false } } }, { l: [1, 2] }, /^"l" darf höchstens 1 Eintrag haben\.$/],
  ];
  for (const [name, schema, args, expected] of cases) {
    test(name, () => {
      const found = messages(schema, args);
      assert.ok(found.some((m) => expected.test(m)), `${found.join(" | ")} !~ ${String(expected)}`);
      for (const m of found) assert.doesNotMatch(m, /\bmust\b|\bshould\b/, "no English ajv text");
    });
  }

  test("2020-12 keywords: prefixItems with items: false, unevaluatedProperties, contains with bounds", () => {
    const v = (schema: Record<string, unknown>, args: unknown) => messages({ $schema: DRAFT_2020, ...schema }, args);
    assert.ok(v({ properties: { l: { type: "array", prefixItems: [{ type: "number" }], items: false } } }, { l: [1, 2] }).includes('"l" darf höchstens 1 Eintrag haben.'));
    // ajv names the limit `limit` here too (not `len`): no "höchstens undefined Einträge".
    assert.deepEqual(v({ properties: { l: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], unevaluatedItems: false } } }, { l: [1, 2, 3] }), [
      '"l" darf höchstens 2 Einträge haben.',
    ]);
    assert.deepEqual(v({ properties: { l: { type: "array", prefixItems: [{ type: "number" }], unevaluatedItems: false } } }, { l: [1, 2] }), ['"l" darf höchstens 1 Eintrag haben.']);
    assert.ok(v({ properties: { a: {} }, unevaluatedProperties: false }, { a: 1, b: 2 }).some((m) => m.startsWith('Unbekanntes Argument "b"')));
    assert.ok(v({ properties: { l: { type: "array", contains: { type: "string" }, minContains: 2, maxContains: 3 } } }, { l: ["a"] }).includes('"l" braucht zwischen 2 und 3 passende Einträge.'));
    assert.ok(v({ properties: { a: {}, b: {} }, dependentRequired: { a: ["b"] } }, { a: 1 }).includes('Wenn "a" angegeben ist, braucht es auch "b".'));
    assert.ok(v({ properties: { a: {} }, dependentRequired: { a: ["b", "c"] } }, { a: 1 }).includes('Wenn "a" angegeben ist, braucht es auch "b" und "c".'));
  });

  test("if/then: the failing branch is reported in German", () => {
    const found = messages({ properties: { a: { type: "number" } }, if: { properties: { a: { const: 1 } } }, then: { required: ["b"] } }, { a: 1 });
    assert.ok(found.includes('Pflichtargument "b" fehlt.'), found.join(" | "));
  });
});
