import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  buildFinalAnswerJsonSchema,
  buildPlanJsonSchema,
  parsePlan,
  parsePlanValue,
  PlanParseError,
  TOOL_ID_PATTERN,
} from "../../lib/plan/plan.js";
import { bookingInfo, geoWeatherPlan, TRAVEL_TOOLS } from "../agent/fixtures.js";
import { useCpuLlama } from "../helpers/cpu-llama.js";
import { gbnfForJsonSchema } from "../../lib/llm/gbnf.js";

const PLAN_JSON = JSON.stringify(geoWeatherPlan());

/** Reads a nested property of a JSON schema (test helper). */
function at(node: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>(
    (n, key) => (typeof n === "object" && n !== null ? (n as Record<string, unknown>)[key] : undefined),
    node,
  );
}

describe("parsePlan", () => {
  test("plain JSON", () => {
    const r = parsePlan(PLAN_JSON);
    assert.ok(r.ok);
    assert.equal(r.plan.steps.length, 2);
    assert.equal(r.plan.steps[0]?.tools[0]?.name, "geocode");
    assert.equal(r.plan.final, null);
  });

  test("leading 'assistant' junk, fences, prose around", () => {
    for (const text of [
      `assistant\n\n${PLAN_JSON}`,
      "Hier ist mein Plan:\n```json\n" + PLAN_JSON + "\n```\nViel Erfolg!",
      "```\n" + PLAN_JSON + "\n```",
      `Ich denke {kurz} nach. ${PLAN_JSON} Ende.`,
    ]) {
      const r = parsePlan(text);
      assert.ok(r.ok, text);
      assert.deepEqual(r.plan, parsePlan(PLAN_JSON).ok && (parsePlan(PLAN_JSON) as { plan: unknown }).plan);
    }
  });

  test("braces inside strings and escapes do not confuse the extraction", () => {
    const text = 'assistant: {"steps": [], "final": "Ein } und ein \\" und {noch} eins"} danach {kaputt';
    const r = parsePlan(text);
    assert.ok(r.ok);
    assert.equal(r.plan.final, 'Ein } und ein " und {noch} eins');
  });

  test("comments and trailing commas copied from the prompt are tolerated", () => {
    const r = parsePlan('{"steps": [ /* nichts */ ], // kein Schritt\n "final": "Fertig",}');
    assert.ok(r.ok);
    assert.equal(r.plan.final, "Fertig");
  });

  test("missing keys get defaults (steps, final, description, arguments)", () => {
    const r = parsePlan('{"steps": [{"tools": [{"id": "g", "name": "geocode"}]}]}');
    assert.ok(r.ok);
    assert.deepEqual(r.plan, {
      steps: [{ description: "", tools: [{ id: "g", name: "geocode", arguments: {} }] }],
      final: null,
    });
  });

  const failures: [string, unknown, string][] = [
    ["empty", "   ", "empty"],
    ["not text", 42, "not_text"],
    ["no json", "Das Wetter ist schön.", "no_json"],
    ["truncated", '{"steps": [{"description": "a", "tools": [', "truncated"],
    ["invalid json", '{"steps": [}, "final": nul}', "invalid_json"],
    ["json but not a plan", '{"tool": "geocode", "arguments": {}}', "not_a_plan"],
    ["wrong shape", '{"steps": [{"tools": [{"id": 7, "name": "geocode"}]}], "final": 3}', "schema"],
  ];
  test("broken JSON is explained in German, with the position (issue 40, item 3)", () => {
    const cases: [string, RegExp][] = [
      ['{"steps": [], "final": "a" "b"}', /Ungültiges JSON \(bei Zeichen 28: nach einem Wert fehlt ',' oder '\}'\)/u],
      ['{"steps": [1 2], "final": null}', /nach einem Listenelement fehlt ',' oder '\]'/u],
      ['{"steps" [], "final": null}', /nach dem Feldnamen fehlt ':'/u],
      ["{steps: [], final: null}", /Feldname in doppelten Anführungszeichen/u],
      ['{"steps": [], "final": "Zeile\neins"}', /Steuerzeichen/u],
      ['{"steps": [], "final": "a\\qb"}', /Escape-Sequenz/u],
      ['{"steps": [], "final": -}', /unvollständige Zahl/u],
      ['{"steps": [}, "final": nul}', /Ungültiges JSON \((?:bei Zeichen \d+: )?unerwartetes Zeichen '\}'\)/u],
    ];
    for (const [input, expected] of cases) {
      const r = parsePlan(input);
      assert.equal(r.ok, false, input);
      if (r.ok) continue;
      assert.match(r.error.message, expected, input);
      assert.doesNotMatch(r.error.message, /Expected|Unexpected|position|after|JSON at|Bad |Unterminated/u, input);
    }
  });

  for (const [name, input, kind] of failures) {
    test(`typed error: ${name}`, () => {
      const r = parsePlan(input);
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.ok(r.error instanceof PlanParseError);
      assert.equal(r.error.name, "PlanParseError");
      assert.equal(r.error.kind, kind);
      assert.ok(r.error.message.length > 10);
    });
  }

  test("input that is not text says what it is instead (and never throws)", () => {
    const number = parsePlan(42);
    assert.equal(number.ok, false);
    assert.equal(number.error?.kind, "not_text");
    assert.equal(number.error?.message, "Die Antwort ist kein Text, sondern die Zahl 42.");
    const parsed = parsePlan({ steps: [], final: "x" });
    assert.match(
      parsed.error?.message ?? "",
      /kein Text, sondern ein Objekt mit den Feldern "steps", "final"\. .*parsePlanValue/,
    );
    for (const odd of [undefined, null, Object.create(null), 10n, Symbol("s"), () => 1, new Date(0)]) {
      const r = parsePlan(odd);
      assert.equal(r.ok, false);
      assert.equal(r.error?.kind, "not_text");
    }
    assert.equal(parsePlan(undefined).error?.message, "Die Antwort ist kein Text, sondern nichts (undefined).");
  });

  test("schema errors name the path in German", () => {
    const r = parsePlan('{"steps": [{"tools": [{"id": 7, "name": "geocode"}]}], "final": 3}');
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.ok(
      r.error.issues.some((i) => i.startsWith("steps[0].tools[0].id:")),
      r.error.issues.join("\n"),
    );
    assert.ok(r.error.issues.some((i) => i.startsWith("final:")));
    assert.match(r.error.message, /erwartet/);
  });

  test("parsePlanValue checks values produced by a grammar", () => {
    assert.ok(parsePlanValue({ steps: [], final: "x" }).ok);
    assert.equal(parsePlanValue([1, 2]).ok, false);
  });
});

describe("buildPlanJsonSchema", () => {
  const schema = buildPlanJsonSchema(TRAVEL_TOOLS);
  const alternatives = at(schema, "properties", "steps", "items", "properties", "tools", "items", "oneOf") as unknown[];

  test("one alternative per tool with the name as constant", () => {
    assert.deepEqual(
      alternatives.map((alt) => at(alt, "properties", "name", "const")),
      TRAVEL_TOOLS.map((t) => t.name),
    );
  });

  test("each argument: declared type or a $ref object; optional ones may be null", () => {
    const weather = alternatives.find((alt) => at(alt, "properties", "name", "const") === "get_weather");
    const arg = (name: string) => at(weather, "properties", "arguments", "properties", name, "oneOf") as unknown[];
    assert.deepEqual(arg("lat")[0], { type: "number" }, "minimum/maximum are dropped for the grammar");
    assert.deepEqual(at(arg("lat")[1], "properties", "$ref"), { type: "string", minLength: 1 });
    assert.deepEqual(arg("include_raw").slice(0, 2), [{ type: "boolean" }, { type: "null" }]);
    assert.deepEqual(arg("start_date")[0], { type: "string", format: "date" });
    assert.deepEqual(at(schema, "properties", "final", "type"), ["string", "null"]);
  });

  test("no keywords outside the grammar subset (anyOf, $schema, default, minimum; pattern only on ids)", () => {
    const text = JSON.stringify(buildPlanJsonSchema([...TRAVEL_TOOLS, bookingInfo]));
    for (const banned of ['"anyOf"', '"$schema"', '"default"', '"minimum"', '"exclusiveMinimum"', '"allOf"']) {
      assert.equal(text.includes(banned), false, banned);
    }
    const patterns = [...text.matchAll(/"pattern":("[^"]*")/gu)].map((m) => JSON.parse(m[1] ?? '""') as string);
    assert.deepEqual(new Set(patterns), new Set([TOOL_ID_PATTERN.source]));
  });

  test("the ids' pattern becomes a character class in the GBNF; no id is a free string (issue 40, item 4)", async () => {
    const grammar = await gbnfForJsonSchema(buildPlanJsonSchema([...TRAVEL_TOOLS, bookingInfo]));
    const idRules = grammar.split("\n").filter((line) => line.includes("[A-Za-z0-9_-]{1,64}"));
    assert.equal(idRules.length, TRAVEL_TOOLS.length + 1, grammar);
    assert.doesNotMatch(grammar, /kit-pattern/u);
  });

  test("a standard validator accepts a plan in the grammar's shape and rejects an unknown tool", () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(buildPlanJsonSchema(TRAVEL_TOOLS));
    assert.equal(validate(geoWeatherPlan()), true, JSON.stringify(validate.errors));
    const bad = geoWeatherPlan();
    (bad.steps[0]!.tools[0] as { name: string }).name = "teleport";
    assert.equal(validate(bad), false);
  });

  test("no tools: steps must stay empty", () => {
    assert.equal(at(buildPlanJsonSchema([]), "properties", "steps", "maxItems"), 0);
  });

  describe("with node-llama-cpp's grammar generator", () => {
    const llama = useCpuLlama();

    test("the plan schema compiles and its parser accepts a valid plan", async () => {
      const grammar = await llama().createGrammarForJsonSchema(
        buildPlanJsonSchema([...TRAVEL_TOOLS, bookingInfo]) as never,
      );
      assert.match(grammar.grammar, /"\\"get_weather\\""/);
      const parsed = grammar.parse(JSON.stringify(geoWeatherPlan()));
      assert.deepEqual(parsePlanValue(parsed).ok, true);
    });

    test("the final-answer schema compiles and forbids steps", async () => {
      const grammar = await llama().createGrammarForJsonSchema(buildFinalAnswerJsonSchema() as never);
      assert.deepEqual(grammar.parse('{"steps": [], "final": "Sonnig."}'), { steps: [], final: "Sonnig." });
      assert.throws(() => grammar.parse(JSON.stringify(geoWeatherPlan())));
    });
  });
});
