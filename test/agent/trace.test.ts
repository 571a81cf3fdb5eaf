import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeAgentEvent, runStatusLabel, scheduleModeLabel } from "../../lib/display/event-text.js";
import { runAgent } from "../../lib/agent/loop.js";
import { parsePlanValue } from "../../lib/plan/plan.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";
import { saveTrace, summarizeTrace, type AgentEvent, type AgentTrace } from "../../lib/agent/trace.js";
import { renderPlanMermaid, renderTraceMermaid } from "../../lib/display/plan-mermaid.js";
import { renderTraceTable } from "../../lib/display/trace-text.js";
import { createTravelFake, geoWeatherPlan, TODAY } from "./fixtures.js";

async function sampleTrace(): Promise<AgentTrace> {
  const atlantis = {
    steps: [{ description: "", tools: [{ id: "geo_x", name: "geocode", arguments: { destination: "Atlantis" } }] }],
    final: null,
  };
  const llm = new ScriptedLlm([atlantis, geoWeatherPlan(), { steps: [], final: "Sonnig, 18 °C." }]);
  const { trace } = await runAgent({ question: "Wetter in Barcelona?", llm, tools: createTravelFake(), today: TODAY });
  return trace;
}

describe("trace", () => {
  test("events in order, with iteration and time", async () => {
    const trace = await sampleTrace();
    const types = trace.events.map((e) => e.type);
    assert.equal(types[0], "run_start");
    assert.equal((trace.events[0] as { today?: string }).today, TODAY, "the date the run assumed is part of the trace");
    assert.equal(types.at(-1), "final");
    assert.deepEqual(
      types.filter((t) => ["plan", "step_start", "tool_call", "tool_result", "tool_error"].includes(t)),
      [
        "plan",
        "step_start",
        "tool_call",
        "tool_error",
        "plan",
        "step_start",
        "tool_call",
        "tool_result",
        "step_start",
        "tool_call",
        "tool_result",
        "plan",
      ],
    );
    for (let i = 1; i < trace.events.length; i++) assert.ok(trace.events[i]!.atMs >= trace.events[i - 1]!.atMs);
    assert.deepEqual(summarizeTrace(trace), {
      iterations: 3,
      llmCalls: 3,
      plans: 3,
      planErrors: 0,
      validationRounds: 0,
      toolCalls: 3,
      toolErrors: 1,
      nudges: 0,
      status: "answered",
    });
  });

  test("JSON save and load round-trip", async () => {
    const trace = await sampleTrace();
    const dir = await mkdtemp(join(tmpdir(), "agent-trace-"));
    try {
      const file = join(dir, "trace.json");
      await saveTrace(trace, file);
      const loaded = JSON.parse(await readFile(file, "utf8")) as AgentTrace;
      assert.deepEqual(loaded, JSON.parse(JSON.stringify(trace)));
      assert.equal(loaded.final, "Sonnig, 18 °C.");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("parallel saves to one file leave one whole trace and no temporary files", async () => {
    const trace = await sampleTrace();
    const dir = await mkdtemp(join(tmpdir(), "agent-trace-"));
    try {
      const file = join(dir, "trace.json");
      // Traces of different sizes: a plain writeFile race leaves a longer one's tail behind a shorter one.
      const traces = Array.from({ length: 30 }, (_, i) => ({ ...trace, final: "x".repeat((30 - i) * 5000) }));
      for (let round = 0; round < 5; round++) await Promise.all(traces.map((t) => saveTrace(t, file)));
      const loaded = JSON.parse(await readFile(file, "utf8")) as AgentTrace;
      assert.ok(traces.some((t) => t.final === loaded.final));
      assert.deepEqual(await readdir(dir), ["trace.json"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("text table: one row per tool outcome, errors marked", async () => {
    const table = renderTraceTable(await sampleTrace());
    const lines = table.split("\n");
    assert.match(lines[0]!, /^Runde \| Schritt \| id\s+\| Tool\s+\| Argumente\s+\| Ergebnis\s+\| ms$/);
    assert.match(table, /geo_x\s+\| geocode\s+\| \{"destination":"Atlantis"\}\s+\| FEHLER \(Tool meldet Fehler\)/);
    assert.match(table, /wetter_barcelona \| get_weather \| \{"lat":41\.3874,"lon":2\.1686/);
    assert.match(table, /Antwort \(beantwortet\): Sonnig, 18 °C\./);
    assert.doesNotMatch(table, /answered|\(tool\)/);
  });

  test("live lines are German: status, mode and error kinds as labels, not enum values", async () => {
    const trace = await sampleTrace();
    const lines = trace.events.map((e) => describeAgentEvent(e)).filter((l): l is string => l !== undefined);
    const text = lines.join("\n");
    assert.match(
      lines[0]!,
      /Frage: Wetter in Barcelona\? \(heute: 2026-01-29, Ausführung nach Abhängigkeiten, höchstens 8 Runden\)/,
    );
    assert.match(text, /✗ geo_x \(Tool meldet Fehler\): Ort "Atlantis" nicht gefunden\./);
    assert.match(lines.at(-1)!, /Fertig: beantwortet\.$/);
    assert.doesNotMatch(text, /answered|dependency|Modus|\(tool\)/);
    const at = { iteration: 1, atMs: 0 };
    assert.match(
      describeAgentEvent({ ...at, type: "plan_error", kind: "no_json", message: "Kein JSON.", raw: "" }) ?? "",
      /Plan unbrauchbar \(kein JSON\)/,
    );
    assert.match(
      describeAgentEvent({ ...at, type: "final", text: "…", status: "max_iterations" }) ?? "",
      /Fertig: Rundenlimit erreicht, keine Antwort\./,
    );
    assert.deepEqual(
      ["answered", "max_iterations", "aborted", "llm_error"].map((s) => runStatusLabel(s as never)),
      ["beantwortet", "Rundenlimit erreicht, keine Antwort", "abgebrochen", "Fehler des Sprachmodells"],
    );
    assert.deepEqual(
      ["dependency", "step-parallel", "sequential"].map((m) => scheduleModeLabel(m as never)),
      ["nach Abhängigkeiten", "schrittweise, parallel", "nacheinander"],
    );
  });

  test("Mermaid diagram: steps as boxes, $refs as labelled edges, status colours", () => {
    const r = parsePlanValue({
      steps: [
        {
          description: 'Ort "finden"',
          tools: [{ id: "geo", name: "geocode", arguments: { destination: { $ref: "user.destination" } } }],
        },
        {
          description: "Wetter",
          tools: [
            {
              id: "w",
              name: "get_weather",
              arguments: { lat: { $ref: "geo.lat" }, lon: "$ref:geo.lon", start_date: TODAY, end_date: TODAY },
            },
          ],
        },
      ],
      final: null,
    });
    assert.ok(r.ok);
    const mermaid = renderPlanMermaid(r.plan, {
      status: new Map([
        ["geo", "ok"],
        ["w", "failed"],
      ]),
    });
    assert.equal(mermaid.split("\n")[0], "flowchart LR");
    assert.match(mermaid, /subgraph s0\["Schritt 1: Ort #quot;finden#quot;"\]/);
    assert.match(mermaid, /t0\["geo: geocode"\]/);
    assert.match(mermaid, /t0 -->\|"lat, lon"\| t1/);
    assert.match(mermaid, /user -.->\|"destination"\| t0/);
    assert.match(mermaid, /class t0 ok/);
    assert.match(mermaid, /class t1 failed/);
  });

  test("a call held back in one round and run in a later one counts once and is only 'ok'", async () => {
    const hotel = { id: "hotel", name: "book_hotel", arguments: { city: "Rom", nights: 2 } };
    const first = {
      steps: [
        { description: "Ort", tools: [{ id: "geo_a", name: "geocode", arguments: { destination: "Atlantis" } }] },
        { description: "Buchen", tools: [hotel] },
      ],
      final: null,
    };
    const second = { steps: [{ description: "Buchen", tools: [hotel] }], final: null };
    const llm = new ScriptedLlm([first, second, { steps: [], final: "Gebucht." }]);
    const { trace } = await runAgent({
      question: "Hotel in Rom?",
      llm,
      tools: createTravelFake({ withBooking: true }),
      today: TODAY,
      approve: () => true,
    });
    const errors = trace.events.filter(
      (e): e is Extract<AgentEvent, { type: "tool_error" }> => e.type === "tool_error",
    );
    assert.deepEqual(
      errors.map((e) => [e.toolId, e.errorKind, e.attempts]),
      [
        ["geo_a", "tool", 1],
        ["hotel", "held_back", 0],
      ],
    );
    assert.ok(trace.events.some((e) => e.type === "tool_result" && e.toolId === "hotel"));
    const summary = summarizeTrace(trace);
    assert.equal(summary.toolCalls, 2, "geo_a and hotel ran once each; the held-back attempt is no call");
    assert.equal(summary.toolErrors, 1);
    const mermaid = renderTraceMermaid(trace) ?? "";
    assert.match(mermaid, /t0\["hotel: book_hotel"\]/);
    assert.match(mermaid, /class t0 ok/);
    assert.doesNotMatch(mermaid, /class .* failed/);
  });

  test("the trace renders the last plan that had tools", async () => {
    const mermaid = renderTraceMermaid(await sampleTrace());
    assert.ok(mermaid);
    assert.match(mermaid, /geo_barcelona: geocode/);
    assert.match(mermaid, /class t0,t1 ok/);
  });
});
