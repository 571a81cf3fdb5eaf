// German messages for tool arguments that do not fit the input schema (ajv + ajv-i18n, lib/schema/validate.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkArguments } from "../../lib/plan/arguments.js";
import type { ToolInfo } from "../../lib/mcp/types.js";

function tool(inputSchema: Record<string, unknown>): ToolInfo {
  return { name: "t", description: "", inputSchema };
}

function messages(schema: Record<string, unknown>, args: unknown): string[] {
  const check = checkArguments(tool({ type: "object", ...schema }), args);
  assert.equal(check.ok, false, `expected issues for ${JSON.stringify(args)}`);
  return check.issues.map((i) => i.message);
}

const DRAFT_2020 = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

/** The meaning of a message, not its exact wording: it names the field and says what is expected. */
function assertSays(found: string[], parts: readonly (string | RegExp)[]): void {
  const ok = found.some((m) => parts.every((p) => (typeof p === "string" ? m.includes(p) : p.test(m))));
  assert.ok(ok, `${found.join(" | ")} does not say ${parts.map(String).join(" + ")}`);
  for (const m of found) {
    assert.doesNotMatch(
      m,
      /\bmust\b|\bshould\b|\bundefined\b/,
      "German ajv-i18n text, no English, no missing parameter",
    );
    assert.match(m, /\.$/, "one sentence");
  }
}

// German text comes from ajv-i18n (lib/schema/validate.ts); the checks name the field and the expectation.
describe("checkArguments messages", () => {
  const cases: [string, Record<string, unknown>, unknown, (string | RegExp)[]][] = [
    ["type", { properties: { lat: { type: "number" } } }, { lat: "41" }, ['"lat"', "muss", "number (Zahl)"]],
    [
      "type with several types",
      { properties: { n: { type: ["integer", "null"] } } },
      { n: "x" },
      ['"n"', "integer (ganze Zahl) oder null"],
    ],
    ["type of the whole arguments", {}, [], ["Das Argument-Objekt", "object (Objekt)"]],
    ["required", { properties: { a: {} }, required: ["a"] }, {}, ["Das Argument-Objekt", "erforderliche", '"a"']],
    [
      "required inside a field",
      { properties: { ort: { type: "object", required: ["name"] } } },
      { ort: {} },
      ['"ort"', "erforderliche", '"name"'],
    ],
    [
      "additionalProperties names the unknown field",
      { properties: { a: {} }, additionalProperties: false },
      { a: 1, wind: 2 },
      ["zusätzlichen", '"wind"'],
    ],
    ["enum lists the allowed values", { properties: { m: { enum: ["a", "b"] } } }, { m: "c" }, ['"m"', '"a", "b"']],
    ["const names the value", { properties: { m: { const: 5 } } }, { m: 4 }, ['"m"', ": 5."]],
    ["minimum", { properties: { n: { type: "number", minimum: 5 } } }, { n: 3 }, ['"n"', ">= 5"]],
    [
      "format (checked by the one Ajv instance)",
      { properties: { d: { type: "string", format: "date" } } },
      { d: "morgen" },
      ['"d"', "Format", '"date"'],
    ],
    ["multipleOf", { properties: { n: { type: "number", multipleOf: 5 } } }, { n: 7 }, ['"n"', "Vielfaches von 5"]],
    [
      "uniqueItems",
      { properties: { l: { type: "array", uniqueItems: true } } },
      { l: [1, 2, 1] },
      ['"l"', "Duplikate", "#0", "#2"],
    ],
    [
      "minProperties",
      { properties: { o: { type: "object", minProperties: 2 } } },
      { o: { a: 1 } },
      ['"o"', "weniger als 2 Attribute"],
    ],
    [
      "maxProperties, singular",
      { properties: { o: { type: "object", maxProperties: 1 } } },
      { o: { a: 1, b: 2 } },
      ['"o"', "mehr als 1 Attribut "],
    ],
    [
      "minItems, singular",
      { properties: { l: { type: "array", minItems: 1 } } },
      { l: [] },
      ['"l"', "weniger als 1 Element "],
    ],
    [
      "maxItems, plural",
      { properties: { l: { type: "array", maxItems: 2 } } },
      { l: [1, 2, 3] },
      ['"l"', "mehr als 2 Elemente"],
    ],
    [
      "dependencies with several names",
      { properties: { a: {} }, dependencies: { a: ["b", "c", "d"] } },
      { a: 1 },
      ['"b", "c", "d"', 'wenn Attribut "a"'],
    ],
    ["propertyNames", { propertyNames: { maxLength: 3 } }, { langername: 1 }, ['"langername"', "3 Zeichen"]],
    [
      "anyOf: the branches' own errors",
      { properties: { v: { anyOf: [{ type: "string" }, { type: "number" }] } } },
      { v: true },
      ['"v"', /string \(Text\)|number \(Zahl\)/],
    ],
    [
      "oneOf matching twice",
      { properties: { v: { oneOf: [{ type: "number" }, { type: "integer" }] } } },
      { v: 3 },
      ['"v"', "genau einem"],
    ],
    ["not", { properties: { v: { not: { type: "string" } } } }, { v: "x" }, ['"v"', '"not"']],
    [
      "contains",
      { properties: { l: { type: "array", contains: { type: "string" } } } },
      { l: [1] },
      ['"l"', "Element enthalten"],
    ],
    [
      "contains with minContains 2",
      { $schema: DRAFT_2020, properties: { l: { type: "array", contains: { type: "string" }, minContains: 2 } } },
      { l: ["a"] },
      ['"l"', "mindestens 2"],
    ],
    ["false schema", { properties: { x: false } }, { x: 1 }, ['"x" ist hier nicht erlaubt.']],
    [
      "draft-07 tuple (items array + additionalItems), without $schema",
      { properties: { l: { type: "array", items: [{ type: "number" }], additionalItems: false } } },
      { l: [1, 2] },
      ['"l"', "mehr als 1 Element "],
    ],
    [
      "draft-07 tuple with $schema: the item type is checked",
      { $schema: DRAFT_07, properties: { l: { type: "array", items: [{ type: "number" }] } } },
      { l: ["x"] },
      ['"l.0"', "number (Zahl)"],
    ],
  ];
  for (const [name, schema, args, expected] of cases) {
    test(name, () => assertSays(messages(schema, args), expected));
  }

  test("2020-12 keywords: prefixItems with items: false, unevaluated*, contains with bounds, dependentRequired", () => {
    const v = (schema: Record<string, unknown>, args: unknown) => messages({ $schema: DRAFT_2020, ...schema }, args);
    assertSays(
      v({ properties: { l: { type: "array", prefixItems: [{ type: "number" }], items: false } } }, { l: [1, 2] }),
      ['"l"', "mehr als 1 Element "],
    );
    // ajv reports unevaluatedItems' limit as `limit`, ajv-i18n reads `len`: no "mehr als undefined".
    assert.equal(
      v(
        {
          properties: {
            l: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], unevaluatedItems: false },
          },
        },
        { l: [1, 2, 3] },
      ).length,
      1,
    );
    assertSays(
      v(
        {
          properties: {
            l: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], unevaluatedItems: false },
          },
        },
        { l: [1, 2, 3] },
      ),
      ['"l"', "mehr als 2 Elemente"],
    );
    assertSays(v({ properties: { a: {} }, unevaluatedProperties: false }, { a: 1, b: 2 }), [
      "Das Argument-Objekt",
      '"b"',
    ]);
    assertSays(
      v(
        { properties: { l: { type: "array", contains: { type: "string" }, minContains: 2, maxContains: 3 } } },
        { l: ["a"] },
      ),
      ['"l"', "zwischen 2 und 3"],
    );
    assertSays(v({ properties: { a: {}, b: {} }, dependentRequired: { a: ["b"] } }, { a: 1 }), [
      'Attribut "b"',
      'wenn Attribut "a"',
    ]);
  });

  test("if/then: the failing branch is reported in German", () => {
    assertSays(
      messages(
        { properties: { a: { type: "number" } }, if: { properties: { a: { const: 1 } } }, then: { required: ["b"] } },
        { a: 1 },
      ),
      ["erforderliche", '"b"'],
    );
  });

  test("a schema Ajv cannot compile is not checked here (the server still validates)", () => {
    assert.deepEqual(checkArguments(tool({ type: "object", properties: { a: { type: "keine-art" } } }), { a: 1 }), {
      ok: true,
      issues: [],
    });
  });

  test("issues at or below an ignored pointer (an unresolved $ref) are skipped", () => {
    const check = checkArguments(
      tool({ type: "object", properties: { lat: { type: "number" } }, required: ["lat"] }),
      { lat: { $ref: "geo.lat" } },
      ["/lat"],
    );
    assert.deepEqual(check, { ok: true, issues: [] });
  });
});
