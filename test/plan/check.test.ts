import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parsePlanValue, type Plan } from "../../lib/plan/plan.js";
import { checkPlan, type ExecutedTool, type PlanProblemKind } from "../../lib/plan/check.js";
import { bookingInfo, geoWeatherPlan, TRAVEL_TOOLS } from "../agent/fixtures.js";

function plan(value: unknown): Plan {
  const r = parsePlanValue(value);
  assert.ok(r.ok, r.ok ? "" : r.error.message);
  return r.plan;
}

function kinds(p: Plan, ctx: Parameters<typeof checkPlan>[2] = {}): PlanProblemKind[] {
  return checkPlan(p, [...TRAVEL_TOOLS, bookingInfo], ctx).problems.map((x) => x.kind);
}

const step = (...tools: unknown[]) => ({ description: "", tools });
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args });
const geo = (id = "geo", destination = "Rom") => call(id, "geocode", { destination });
const weather = (id: string, from: string) =>
  call(id, "get_weather", {
    lat: { $ref: `${from}.lat` },
    lon: { $ref: `${from}.lon` },
    start_date: "2026-01-29",
    end_date: "2026-01-29",
  });

describe("checkPlan: problems", () => {
  test("a good plan has no problems (string refs, optional null)", () => {
    assert.deepEqual(checkPlan(plan(geoWeatherPlan("Barcelona", "2026-01-29", true)), TRAVEL_TOOLS).problems, []);
    assert.deepEqual(kinds(plan({ steps: [], final: "Hallo" })), []);
  });

  test("unknown tool, with a suggestion and the catalog", () => {
    const problems = checkPlan(
      plan({ steps: [step(call("g", "geocoder", { destination: "Rom" }))], final: null }),
      TRAVEL_TOOLS,
    ).problems;
    assert.deepEqual(
      problems.map((p) => p.kind),
      ["unknown_tool"],
    );
    assert.match(problems[0]!.message, /"geocoder".*Meintest du "geocode"/);
    assert.match(problems[0]!.message, /Verfügbar: geocode, get_weather, get_parks/);
    assert.equal(problems[0]!.stepIndex, 0);
    assert.equal(problems[0]!.toolId, "g");
  });

  test("blocked tool", () => {
    assert.deepEqual(
      kinds(plan({ steps: [step(call("b", "book_hotel", { city: "Rom", nights: 2 }))], final: null }), {
        blocked: ["book_hotel"],
      }),
      ["blocked_tool"],
    );
  });

  test("invalid ids: dots, spaces, the reserved root 'user'", () => {
    assert.deepEqual(
      kinds(plan({ steps: [step(geo("geo.rom"), geo("mein geo", "Berlin"), geo("user", "Paris"))], final: null })),
      ["invalid_id", "invalid_id", "invalid_id"],
    );
  });

  test("ids that match the pattern but can never be referenced (__proto__, constructor, prototype)", () => {
    for (const id of ["__proto__", "constructor", "prototype"]) {
      const problems = checkPlan(plan({ steps: [step(geo(id))], final: null }), TRAVEL_TOOLS).problems;
      assert.deepEqual(
        problems.map((p) => p.kind),
        ["invalid_id"],
        id,
      );
      assert.match(
        problems[0]!.message,
        new RegExp(`die id "${id}" ist reserviert; auf sie könnte kein \\$ref verweisen`),
      );
    }
    assert.deepEqual(kinds(plan({ steps: [step(geo("proto_geo"))], final: null })), []);
  });

  test("duplicate id (reported once)", () => {
    const problems = checkPlan(
      plan({ steps: [step(geo("g")), step(geo("g", "Berlin")), step(geo("g", "Paris"))], final: null }),
      TRAVEL_TOOLS,
    ).problems;
    assert.deepEqual(
      problems.map((p) => p.kind),
      ["duplicate_id"],
    );
    assert.match(problems[0]!.message, /Schritt 1 und Schritt 2/);
  });

  test("an id that already ran with other arguments", () => {
    const executed = new Map<string, ExecutedTool>([
      ["g", { id: "g", name: "geocode", arguments: { destination: "Rom" }, ok: true }],
    ]);
    const results = { g: { lat: 41.9, lon: 12.5 } };
    assert.deepEqual(
      kinds(plan({ steps: [step(geo("g", "Berlin"))], final: null }), { executed, toolResults: results }),
      ["executed_id_changed"],
    );
    // Unchanged (key order does not matter) is fine and not checked again.
    assert.deepEqual(
      kinds(plan({ steps: [step(geo("g", "Rom")), step(weather("w", "g"))], final: null }), {
        executed,
        toolResults: results,
      }),
      [],
    );
    const renamed = kinds(
      plan({ steps: [step(call("g", "get_parks", { lat: 1, lon: 2, radius_km: 1 }))], final: null }),
      { executed, toolResults: results },
    );
    assert.deepEqual(renamed, ["executed_id_changed"]);
  });

  test("$ref to an unknown id", () => {
    const problems = checkPlan(plan({ steps: [step(weather("w", "geo_paris"))], final: null }), TRAVEL_TOOLS).problems;
    assert.deepEqual(
      problems.map((p) => p.kind),
      ["ref_unknown_id", "ref_unknown_id"],
    );
    assert.equal(problems[0]!.argument, "lat");
    assert.equal(problems[0]!.ref, "geo_paris.lat");
  });

  test("$ref to a tool in the same step or a later step", () => {
    const same = checkPlan(plan({ steps: [step(geo("g"), weather("w", "g"))], final: null }), TRAVEL_TOOLS).problems;
    assert.deepEqual([...new Set(same.map((p) => p.kind))], ["ref_not_earlier"]);
    assert.match(same[0]!.message, /selben Schritt/);
    const later = checkPlan(
      plan({ steps: [step(weather("w", "g")), step(geo("g"))], final: null }),
      TRAVEL_TOOLS,
    ).problems;
    assert.deepEqual([...new Set(later.map((p) => p.kind))], ["ref_not_earlier"]);
    assert.match(later[0]!.message, /erst in Schritt 2/);
    const self = kinds(
      plan({ steps: [step(call("p", "get_parks", { lat: { $ref: "p.lat" }, lon: 1, radius_km: 2 }))], final: null }),
    );
    assert.deepEqual(self, ["ref_not_earlier"]);
  });

  test("forbidden paths", () => {
    for (const ref of ["g.result.lat", "g.arguments.destination", "g.__proto__", "g.constructor", "user.prototype"]) {
      const p = plan({
        steps: [step(geo("g")), step(call("p", "get_parks", { lat: { $ref: ref }, lon: 1, radius_km: 2 }))],
        final: null,
      });
      assert.deepEqual(kinds(p), ["forbidden_path"], ref);
    }
  });

  test("malformed references", () => {
    const p = plan({
      steps: [
        step(geo("g")),
        step(call("p", "get_parks", { lat: { $ref: "g.lat", x: 1 }, lon: "$ref:g..lon", radius_km: { $ref: 3 } })),
      ],
      final: null,
    });
    assert.deepEqual(kinds(p), ["malformed_ref", "malformed_ref", "malformed_ref"]);
  });

  test("$ref to a failed tool", () => {
    const executed = new Map<string, ExecutedTool>([
      ["g", { id: "g", name: "geocode", arguments: { destination: "Atlantis" }, ok: false }],
    ]);
    assert.deepEqual(kinds(plan({ steps: [step(weather("w", "g"))], final: null }), { executed }), [
      "ref_to_failed_tool",
      "ref_to_failed_tool",
    ]);
  });

  test("$ref path missing in a known result or user context", () => {
    const executed = new Map<string, ExecutedTool>([
      ["g", { id: "g", name: "geocode", arguments: { destination: "Rom" }, ok: true }],
    ]);
    const problems = checkPlan(
      plan({
        steps: [
          step(
            call("p", "get_parks", {
              lat: { $ref: "g.latitude" },
              lon: { $ref: "g.lon" },
              radius_km: { $ref: "user.radius" },
            }),
          ),
        ],
        final: null,
      }),
      TRAVEL_TOOLS,
      { executed, toolResults: { g: { lat: 41.9, lon: 12.5 } }, userCtx: { raw: "Frage" } },
    ).problems;
    assert.deepEqual(
      problems.map((p) => p.kind),
      ["ref_unresolvable", "ref_unresolvable"],
    );
    assert.match(problems[0]!.message, /"latitude"/);
    assert.match(problems[1]!.message, /user\.raw/);
  });

  test("arguments that do not match the input schema after resolution", () => {
    const executed = new Map<string, ExecutedTool>([
      ["g", { id: "g", name: "geocode", arguments: { destination: "Rom" }, ok: true }],
    ]);
    const toolResults = { g: { lat: "nördlich", lon: 12.5, display_name: "Rom" } };
    const problems = checkPlan(
      plan({
        steps: [
          step(
            call("w", "get_weather", {
              lat: { $ref: "g.lat" },
              lon: { $ref: "g.lon" },
              start_date: "2026-01-29",
              wind: true,
            }),
          ),
        ],
        final: null,
      }),
      TRAVEL_TOOLS,
      { executed, toolResults },
    ).problems;
    assert.deepEqual(
      problems.map((p) => p.kind),
      ["invalid_arguments"],
    );
    const text = problems[0]!.details!.join("\n");
    // German (ajv-i18n): each message names the field and what is expected.
    assert.match(text, /"lat" muss sein: number \(Zahl\)/);
    assert.match(text, /erforderliche Attribut "end_date"/);
    assert.match(text, /zusätzlichen Attribute haben: "wind"/);
  });

  test("pending references are not checked against the schema yet; literals are", () => {
    const ok = kinds(plan({ steps: [step(geo("g")), step(weather("w", "g"))], final: null }));
    assert.deepEqual(ok, []);
    const badLiteral = kinds(
      plan({
        steps: [
          step(geo("g")),
          step(call("p", "get_parks", { lat: { $ref: "g.lat" }, lon: { $ref: "g.lon" }, radius_km: -3 })),
        ],
        final: null,
      }),
    );
    assert.deepEqual(badLiteral, ["invalid_arguments"]);
    assert.deepEqual(kinds(plan({ steps: [step(call("g", "geocode", { destination: 5 }))], final: null })), [
      "invalid_arguments",
    ]);
  });

  test("checkPlan prepares the calls it could resolve and check in full; waiting calls are left to the executor", () => {
    const executed = new Map<string, ExecutedTool>([
      ["g", { id: "g", name: "geocode", arguments: { destination: "Rom" }, ok: true }],
    ]);
    const { problems, prepared } = checkPlan(
      plan({
        steps: [
          step(
            call("w", "get_weather", {
              lat: { $ref: "g.lat" },
              lon: { $ref: "g.lon" },
              start_date: "2026-01-29",
              end_date: "2026-01-29",
              include_raw: null,
            }),
          ),
          step(geo("g2")),
          step(weather("w2", "g2")),
        ],
        final: null,
      }),
      TRAVEL_TOOLS,
      { executed, toolResults: { g: { lat: 41.9, lon: 12.5 } } },
    );
    assert.deepEqual(problems, []);
    assert.deepEqual([...prepared.keys()], ["w", "g2"]);
    assert.deepEqual(prepared.get("w"), { lat: 41.9, lon: 12.5, start_date: "2026-01-29", end_date: "2026-01-29" });
    const bad = checkPlan(plan({ steps: [step(call("g", "geocode", { destination: 5 }))], final: null }), TRAVEL_TOOLS);
    assert.deepEqual(bad.prepared.size, 0);
  });

  test("null for an optional argument means 'not given'; for a required one it is wrong", () => {
    assert.deepEqual(
      kinds(
        plan({
          steps: [
            step(
              call("w", "get_weather", {
                lat: 1,
                lon: 2,
                start_date: "2026-01-01",
                end_date: "2026-01-01",
                include_raw: null,
              }),
            ),
          ],
          final: null,
        }),
      ),
      [],
    );
    assert.deepEqual(
      kinds(
        plan({
          steps: [
            step(call("w", "get_weather", { lat: null, lon: 2, start_date: "2026-01-01", end_date: "2026-01-01" })),
          ],
          final: null,
        }),
      ),
      ["invalid_arguments"],
    );
  });

  test("every message is German and names where the problem is", () => {
    const problems = checkPlan(
      plan({ steps: [step(geo("g"), weather("w", "g"), call("x", "nix", {}))], final: null }),
      TRAVEL_TOOLS,
    ).problems;
    assert.ok(problems.length >= 3);
    for (const p of problems) assert.match(p.message, /Schritt 1|id "/);
  });
});
