// The one plan-graph model (nodes, edges, statuses from a trace) and its terminal text form.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createTrace, type AgentEvent } from "../../lib/agent/trace.js";
import type { Plan } from "../../lib/plan/plan.js";
import { callStatuses, planGraph, traceGraph } from "../../lib/display/plan-graph.js";
import { graphToText, renderPlanText, renderTraceText } from "../../lib/display/plan-text.js";
import { graphToDot } from "../../lib/display/plan-dot.js";
import { graphToMermaid } from "../../lib/display/plan-mermaid.js";

// A `$ref` chain geo → weather → packing, with a parallel pair (geo, hotel) in step 1.
const plan: Plan = {
  steps: [
    {
      description: "Ort und Hotel",
      tools: [
        { id: "geo", name: "geocode", arguments: { destination: { $ref: "user.destination" } } },
        { id: "hotel", name: "search_hotels", arguments: { city: "Rom" } },
      ],
    },
    {
      description: "Wetter",
      tools: [{ id: "wetter", name: "get_weather", arguments: { lat: { $ref: "geo.lat" }, lon: "$ref:geo.lon" } }],
    },
    {
      description: "Packliste",
      tools: [
        {
          id: "packen",
          name: "packing_list",
          arguments: { days: { $ref: "wetter.days" }, extra: { $ref: "nirgends.x" } },
        },
      ],
    },
  ],
  final: null,
};

function traceOf(events: Record<string, unknown>[]) {
  const trace = createTrace("Rom?", "dependency");
  trace.events.push(...events.map((e) => ({ iteration: 1, atMs: 0, stepIndex: 0, durationMs: 1, ...e }) as AgentEvent));
  return trace;
}

describe("plan graph model", () => {
  test("one node per call in the step that names it, the user and unknown roots; one edge per source", () => {
    const graph = planGraph(plan);
    assert.deepEqual(graph.steps, [
      { description: "Ort und Hotel", nodes: ["t0", "t1"] },
      { description: "Wetter", nodes: ["t2"] },
      { description: "Packliste", nodes: ["t3"] },
    ]);
    assert.deepEqual(graph.nodes, [
      { key: "t0", kind: "call", id: "geo", tool: "geocode" },
      { key: "t1", kind: "call", id: "hotel", tool: "search_hotels" },
      { key: "t2", kind: "call", id: "wetter", tool: "get_weather" },
      { key: "t3", kind: "call", id: "packen", tool: "packing_list" },
      { key: "user", kind: "user", id: "user" },
      { key: "m0", kind: "missing", id: "nirgends" },
    ]);
    assert.deepEqual(graph.edges, [
      { from: "user", to: "t0", args: ["destination"] },
      { from: "t0", to: "t2", args: ["lat", "lon"] },
      { from: "t2", to: "t3", args: ["days"] },
      { from: "m0", to: "t3", args: ["extra"] },
    ]);
    assert.ok(!graph.edges.some((e) => e.to === "t1" || e.from === "t1"), "the parallel call has no edges");
    assert.equal(graph.final, null);
  });

  test("statuses from a trace: latest outcome wins, a call never tried is not_run", () => {
    const trace = traceOf([
      { type: "plan", plan, raw: "", via: "grammar" },
      { type: "tool_error", toolId: "geo", toolName: "geocode", errorKind: "timeout", message: "", attempts: 1 },
      { type: "tool_result", toolId: "geo", toolName: "geocode", result: {}, attempts: 2 },
      { type: "tool_error", toolId: "hotel", toolName: "search_hotels", errorKind: "tool", message: "", attempts: 1 },
      {
        type: "tool_error",
        toolId: "wetter",
        toolName: "get_weather",
        errorKind: "held_back",
        message: "",
        attempts: 0,
      },
      { type: "plan", plan: { steps: [], final: "Fertig." }, raw: "", via: "grammar" },
    ]);
    assert.deepEqual(
      [...callStatuses(trace)],
      [
        ["geo", "ok"],
        ["hotel", "failed"],
        ["wetter", "not_run"],
      ],
    );
    const graph = traceGraph(trace);
    assert.ok(graph, "the last plan with tools is drawn, not the final answer-only plan");
    assert.deepEqual(
      graph.nodes.filter((n) => n.kind === "call").map((n) => [n.id, n.status]),
      [
        ["geo", "ok"],
        ["hotel", "failed"],
        ["wetter", "not_run"],
        ["packen", undefined],
      ],
    );
    assert.equal(traceGraph(createTrace("q", "sequential")), undefined);
  });
});

describe("plan graph as text", () => {
  test("steps, calls with outcome marks, and where each call's $refs come from", () => {
    assert.equal(
      renderPlanText(
        { ...plan, final: "Pack   eine Jacke ein." },
        {
          status: new Map([
            ["geo", "ok"],
            ["hotel", "failed"],
            ["wetter", "not_run"],
          ]),
        },
      ),
      [
        "Schritt 1: Ort und Hotel",
        "  geo: geocode ✓ ← Nutzer (destination)",
        "  hotel: search_hotels ✗",
        "Schritt 2: Wetter",
        "  wetter: get_weather – nicht gelaufen ← geo (lat, lon)",
        "Schritt 3: Packliste",
        "  packen: packing_list ← wetter (days), nirgends ? (extra)",
        "Antwort: Pack eine Jacke ein.",
      ].join("\n"),
    );
    assert.equal(graphToText(planGraph({ steps: [], final: null })), "(leerer Plan)");
    assert.equal(renderTraceText(createTrace("q", "sequential")), undefined);
  });
});

describe("the same graph in DOT and Mermaid", () => {
  test("an unknown root is one dashed note; a call that never ran is grey", () => {
    const graph = planGraph(plan, { status: new Map([["wetter", "not_run"]]) });
    const dot = graphToDot(graph);
    assert.match(dot, /m0 \[label="nirgends \?", shape=note/);
    assert.match(dot, /m0 -> t3 \[label="extra", style=dashed\];/);
    assert.match(dot, /t2 \[label="wetter\\nget_weather", tooltip="wetter: get_weather", fillcolor="#eaeef2"/);
    const mermaid = graphToMermaid(graph);
    assert.match(mermaid, /m0\[\/"nirgends \?"\/\]/);
    assert.match(mermaid, /m0 -.->\|"extra"\| t3/);
    assert.match(mermaid, /t2 -->\|"days"\| t3/);
    assert.match(mermaid, /class t2 notrun/);
    assert.doesNotMatch(mermaid, /classDef (ok|failed)/, "only the classes in use");
  });
});
