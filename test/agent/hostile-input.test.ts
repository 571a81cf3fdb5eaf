// The agent against hostile model output and stuck backends (issue 15): plans nested deeper than
// MAX_PLAN_DEPTH are a typed plan problem (no RangeError) and runAgent replans; code-fence extraction
// does not backtrack; runAgent returns `aborted` promptly even when the backend ignores the signal.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { extractJsonObject, fencedBlocks } from "../../lib/plan/json-extract.js";
import { jsonDepth } from "../../lib/plan/json.js";
import { runAgent } from "../../lib/agent/loop.js";
import { MAX_PLAN_DEPTH, parsePlan, parsePlanValue, type Plan } from "../../lib/plan/plan.js";
import { collectRefs, RefError, resolveRefs } from "../../lib/plan/refs.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";
import type { AgentEvent } from "../../lib/agent/trace.js";
import { checkPlan } from "../../lib/plan/check.js";
import { DEFAULT_TOOL_TIMEOUT_MS, TRAVEL_UPSTREAM_DEADLINE_MS } from "../../lib/timeouts.js";
import type { ChatResult, Llm } from "../../lib/llm/types.js";
import { createTravelFake, geocodeInfo, TODAY } from "./fixtures.js";

/** `{"a": {"a": … 1 …}}` nested `depth` levels deep. */
function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
const nestedText = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
const deepPlanText = (depth: number) =>
  `{"steps":[{"description":"x","tools":[{"id":"geo","name":"geocode","arguments":{"destination":"Rom","extra":${nestedText(depth)}}}]}],"final":null}`;
const deepPlan = (depth: number): Plan => ({
  steps: [
    {
      description: "x",
      tools: [{ id: "geo", name: "geocode", arguments: { destination: "Rom", extra: nested(depth) } }],
    },
  ],
  final: null,
});

describe("plans nested deeper than MAX_PLAN_DEPTH", () => {
  test("jsonDepth counts without recursion and stops early", () => {
    assert.equal(jsonDepth(1), 0);
    assert.equal(jsonDepth({ a: [1, { b: 2 }] }), 3);
    assert.equal(jsonDepth(nested(200_000), 64), 65);
  });

  test("parsePlan and parsePlanValue report too_deep in German instead of throwing RangeError", () => {
    for (const depth of [MAX_PLAN_DEPTH, 5_000, 100_000]) {
      const r = parsePlan(deepPlanText(depth));
      assert.equal(r.ok, false);
      assert.equal(r.error?.kind, "too_deep");
      assert.match(
        r.error?.message ?? "",
        new RegExp(`Der Plan ist zu tief verschachtelt \\(mehr als ${MAX_PLAN_DEPTH} Ebenen`),
      );
    }
    assert.equal(parsePlanValue(deepPlan(3_000)).error?.kind, "too_deep");
    assert.equal(parsePlan(deepPlanText(MAX_PLAN_DEPTH - 10)).ok, true, "moderate nesting still parses");
  });

  test("checkPlan returns a too_deep problem, also for an id that already ran", () => {
    for (const depth of [100, 5_000]) {
      const problems = checkPlan(deepPlan(depth), [geocodeInfo]).problems;
      assert.deepEqual(
        problems.map((p) => p.kind),
        ["too_deep"],
      );
      assert.match(
        problems[0]!.message,
        /Schritt 1, id "geo": Die Argumente sind zu tief verschachtelt \(mehr als 64 Ebenen/,
      );
    }
    const executed = new Map([["geo", { id: "geo", name: "geocode", arguments: { destination: "Rom" }, ok: true }]]);
    assert.deepEqual(
      checkPlan(deepPlan(5_000), [geocodeInfo], { executed }).problems.map((p) => p.kind),
      ["too_deep"],
    );
  });

  test("resolveRefs throws a typed RefError and collectRefs reports it", () => {
    assert.throws(
      () => resolveRefs(nested(5_000), {}),
      (e: unknown) => e instanceof RefError && e.kind === "too_deep" && /zu tief verschachtelt/.test(e.message),
    );
    const [occ] = collectRefs(nested(5_000));
    assert.equal(occ?.error?.kind, "too_deep");
    assert.deepEqual(resolveRefs({ x: nested(10) }, {}), { x: nested(10) });
  });

  test("runAgent in text mode shows the model the problem and replans", async () => {
    const llm = new ScriptedLlm([deepPlanText(3_000), JSON.stringify({ steps: [], final: "Rom liegt in Italien." })]);
    const events: AgentEvent[] = [];
    const result = await runAgent({
      question: "Wo liegt Rom?",
      llm,
      tools: createTravelFake(),
      today: TODAY,
      planOutput: "text",
      onEvent: (e) => events.push(e),
    });
    assert.equal(result.status, "answered");
    assert.equal(result.final, "Rom liegt in Italien.");
    const planError = events.find((e) => e.type === "plan_error");
    assert.equal(planError && "kind" in planError ? planError.kind : undefined, "too_deep");
    assert.match(
      llm.requests[1]!.messages.at(-1)!.content,
      /Deine Antwort war kein gültiger Plan: Der Plan ist zu tief verschachtelt/,
    );
  });
});

describe("plan extraction on hostile text", () => {
  test("fencedBlocks finds fenced bodies and gives up on an opener without a line end", () => {
    assert.deepEqual(fencedBlocks('a\n```json\n{"x":1}\n```\nb ```\ny\n```'), ['{"x":1}\n', "y\n"]);
    assert.deepEqual(fencedBlocks("```" + "a".repeat(1000)), []);
    assert.deepEqual(fencedBlocks("```json\n{ never closed"), []);
  });

  test("``` followed by 200k letters is no JSON (found quickly: see bench/json-extract.bench.ts)", () => {
    assert.equal(extractJsonObject("```" + "a".repeat(200_000)).kind, "no_json");
  });

  test("a plan after prose with a few unclosed braces is still found", () => {
    const plan = '{"steps":[],"final":"ok"}';
    const r = extractJsonObject(`Ich denke { nach {{ und dann:\n${plan}`, {
      accept: (v) => typeof v === "object" && v !== null && "final" in v,
    });
    assert.equal(r.ok, true);
    assert.equal(r.text, plan);
  });
});

describe("abort", () => {
  test("runAgent returns aborted promptly although the backend never answers and ignores the signal", async () => {
    let called!: () => void;
    const inCall = new Promise<void>((resolve) => (called = resolve));
    const stuck = new Promise<ChatResult>(() => undefined);
    const llm = {
      info: { backend: "stuck" },
      chat: () => {
        called();
        return stuck;
      },
      generateJson: () => {
        called();
        return stuck;
      },
    } as unknown as Llm;
    const controller = new AbortController();
    const run = runAgent({
      question: "Wetter?",
      llm,
      tools: createTravelFake(),
      today: TODAY,
      signal: controller.signal,
    });
    await inCall;
    const t0 = performance.now();
    controller.abort();
    const result = await run;
    const ms = performance.now() - t0;
    assert.equal(result.status, "aborted");
    assert.ok(ms < 1000, `returned ${ms.toFixed(0)} ms after the abort`);
  });

  test("the agent's default tool timeout leaves the travel server's fallback time to arrive", () => {
    assert.ok(DEFAULT_TOOL_TIMEOUT_MS > TRAVEL_UPSTREAM_DEADLINE_MS);
  });
});
