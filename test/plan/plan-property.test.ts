import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePlan, parsePlanValue, PlanParseError, type Plan } from "../../lib/plan/plan.js";

function checkResult(result: ReturnType<typeof parsePlan>): void {
  if (result.ok) {
    assert.ok(parsePlanValue(result.plan).ok);
  } else {
    assert.ok(result.error instanceof PlanParseError);
    assert.ok(result.error.message.length > 0);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(Object.prototype), []);
}

const jsonish = fc
  .array(
    fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      '"',
      "\\",
      ",",
      ":",
      "steps",
      "final",
      "null",
      "tools",
      "```json\n",
      "```",
      "/*",
      "*/",
      "//",
      "\n",
      " ",
      "1",
      "__proto__",
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(""));

const planArb: fc.Arbitrary<Plan> = fc.record({
  steps: fc.array(
    fc.record({
      description: fc.string({ maxLength: 20 }),
      tools: fc.array(
        fc.record({
          id: fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/),
          name: fc.constantFrom("geocode", "get_weather", "irgendwas"),
          arguments: fc.dictionary(
            fc.string({ maxLength: 8 }).filter((k) => k !== "__proto__"),
            fc.jsonValue({ maxDepth: 2 }),
            { maxKeys: 3 },
          ),
        }),
        { maxLength: 3 },
      ),
    }),
    { maxLength: 3 },
  ),
  final: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
});

describe("parsePlan properties", () => {
  test("arbitrary strings: a plan or a PlanParseError, never an exception", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 100 }), jsonish),
        (text) => {
          checkResult(parsePlan(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  test("arbitrary JSON values with junk around them", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.constantFrom("", "assistant\n\n", "Plan: ", "```json\n"),
        (value, prefix) => {
          checkResult(parsePlan(prefix + JSON.stringify(value)));
        },
      ),
      { numRuns: 500 },
    );
  });

  test("JSON with __proto__ keys cannot pollute prototypes", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 2 }), (inner) => {
        const text = `{"__proto__": {"polluted": ${JSON.stringify(inner)}}, "steps": [{"__proto__": {"polluted": 1}, "tools": []}], "final": null}`;
        checkResult(parsePlan(text));
      }),
      { numRuns: 100 },
    );
  });

  test("valid plans round-trip through prose, fences and pretty-printing", () => {
    fc.assert(
      fc.property(
        planArb,
        fc.constantFrom("", "assistant\n\n", "Mein Plan (ohne Klammern davor):\n"),
        fc.constantFrom("", "\nFertig.", "\n```"),
        fc.boolean(),
        fc.boolean(),
        (plan, prefix, suffix, fenced, pretty) => {
          const json = JSON.stringify(plan, null, pretty ? 2 : undefined);
          const text = prefix + (fenced ? "```json\n" + json + "\n```" : json) + suffix;
          const result = parsePlan(text);
          assert.ok(result.ok, text);
          assert.deepEqual(result.plan, JSON.parse(JSON.stringify(plan)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
