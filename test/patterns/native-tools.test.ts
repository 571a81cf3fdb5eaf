// Native function calling with a scripted stand-in: every call is checked against the tool's input
// schema before the tool runs; invalid calls go back to the model as errors; maxCalls/maxRounds bound
// the run. One run goes over the real travel server (MCP over HTTP, offline data).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { runNativeToolChat, toNativeFunctions } from "../../lib/patterns/native-tools.js";
import { ScriptedToolCaller } from "../../lib/testing/scripted-tool-caller.js";
import { FALLBACK_ANSWER } from "../../lib/agent/prompts.js";
import { nativeRow, styleTableMarkdown } from "../../lib/patterns/style-comparison.js";
import { startTravelServer, McpToolClient, type TravelServerHandle } from "../../lib/mcp/index.js";
import { createTravelFake, TODAY, TRAVEL_TOOLS, weatherInfo } from "../agent/fixtures.js";

const QUESTION = "Wie ist heute das Wetter in Barcelona?";
const WEATHER = { lat: 41.3874, lon: 2.1686, start_date: TODAY, end_date: TODAY };

describe("runNativeToolChat (scripted stand-in)", () => {
  test("calls run in order, results go back as function results, the answer ends the run", async () => {
    const tools = createTravelFake();
    const llm = new ScriptedToolCaller([
      { calls: [{ name: "geocode", params: { destination: "Barcelona" } }] },
      { calls: [{ name: "get_weather", params: WEATHER }] },
      { text: "In Barcelona werden es heute 18,5 °C." },
    ]);
    const result = await runNativeToolChat({ llm, tools, question: QUESTION });
    assert.equal(result.status, "answered");
    assert.equal(result.answer, "In Barcelona werden es heute 18,5 °C.");
    assert.equal(result.rounds, 3);
    assert.deepEqual(
      tools.calls.map((c) => c.name),
      ["geocode", "get_weather"],
    );
    assert.deepEqual(
      result.calls.map((c) => [c.name, c.valid, c.executed]),
      [
        ["geocode", true, true],
        ["get_weather", true, true],
      ],
    );
    // the third request carries both calls with their results
    const last = llm.requests[2]!.history.rounds;
    assert.deepEqual(
      last.map((r) => r.calls[0]!.name),
      ["geocode", "get_weather"],
    );
    assert.equal((last[0]!.calls[0]!.result as { lat: number }).lat, 41.3874);
    assert.equal(
      result.promptTokensEvaluated,
      result.meters.reduce((n, m) => n + m.promptTokensEvaluated, 0),
    );
    assert.ok(result.meters[1]!.promptTokensReused > 0, "the second round shares the first round's prefix");
  });

  test("invalid params never reach the tool; the model gets a German error and may correct itself", async () => {
    const tools = createTravelFake();
    const llm = new ScriptedToolCaller([
      { calls: [{ name: "get_weather", params: { ...WEATHER, lat: 123 } }] },
      { calls: [{ name: "geocode", params: "Barcelona" }] },
      { calls: [{ name: "wetter", params: {} }] },
      { calls: [{ name: "get_weather", params: WEATHER }] },
      { text: "Fertig." },
    ]);
    const result = await runNativeToolChat({ llm, tools, question: QUESTION });
    assert.equal(result.status, "answered");
    assert.deepEqual(
      result.calls.map((c) => c.valid),
      [false, false, false, true],
    );
    assert.deepEqual(
      tools.calls.map((c) => c.name),
      ["get_weather"],
      "only the valid call ran",
    );
    assert.ok(result.calls.slice(0, 3).every((c) => c.issues.length > 0 && !c.executed));
    const rounds = llm.requests[4]!.history.rounds;
    const errors = rounds.slice(0, 3).map((r) => (r.calls[0]!.result as { fehler: string }).fehler);
    assert.match(errors[0]!, /Ungültige Argumente für get_weather: .*lat/);
    assert.match(errors[1]!, /Ungültige Argumente für geocode/);
    assert.match(errors[2]!, /Unbekanntes Werkzeug „wetter“/);
  });

  test("parallel calls in one round are counted; tool errors come back as errors", async () => {
    const tools = createTravelFake();
    const llm = new ScriptedToolCaller([
      {
        calls: [
          { name: "geocode", params: { destination: "Rom" } },
          { name: "geocode", params: { destination: "Atlantis" } },
        ],
      },
      { text: "Rom gefunden, Atlantis nicht." },
    ]);
    const result = await runNativeToolChat({ llm, tools, question: "Wo liegen Rom und Atlantis?" });
    assert.equal(result.maxParallelCalls, 2);
    assert.equal(result.calls[1]!.executed, true);
    assert.match(result.calls[1]!.error ?? "", /Atlantis/);
    const row = nativeRow(result);
    assert.deepEqual([row.rounds, row.toolCalls, row.parallelCalls], [2, 2, 2]);
    assert.match(styleTableMarkdown([row]), /\| Natives Function Calling \(vorgespielt\) \| 2 \| \d+ \| 2 \| 2 \|/);
  });

  test("a model that never stops calling: maxCalls tools run, then maxRounds ends the run", async () => {
    const tools = createTravelFake();
    const llm = new ScriptedToolCaller([
      { text: "Noch einmal.", calls: [{ name: "geocode", params: { destination: "Berlin" } }] },
    ]);
    const result = await runNativeToolChat({ llm, tools, question: QUESTION, maxCalls: 2, maxRounds: 5 });
    assert.equal(result.status, "max_rounds");
    assert.equal(result.rounds, 5);
    assert.equal(tools.calls.length, 2);
    assert.equal(result.calls.filter((c) => c.executed).length, 2);
    assert.match(
      JSON.stringify(llm.requests[4]!.history.rounds[2]!.calls[0]!.result),
      /Keine weiteren Werkzeugaufrufe/,
    );
    assert.equal(result.answer, "Noch einmal.");
  });

  test("an empty answer falls back to the German fallback text", async () => {
    const result = await runNativeToolChat({
      llm: new ScriptedToolCaller([{ text: "  " }]),
      tools: createTravelFake(),
      question: QUESTION,
    });
    assert.equal(result.answer, FALLBACK_ANSWER);
  });

  test("functions keep the input schema as authority plus a grammar dialect (optional → nullable)", () => {
    const [, weather] = toNativeFunctions(TRAVEL_TOOLS);
    assert.equal(weather!.parameters, weatherInfo.inputSchema);
    const grammar = weather!.grammarParameters as { properties: Record<string, unknown> };
    assert.ok(!("$schema" in grammar));
    assert.match(JSON.stringify(grammar.properties.include_raw), /null/);
  });
});

describe("runNativeToolChat over the real travel server", () => {
  let server: TravelServerHandle;
  let client: McpToolClient;
  before(async () => {
    server = await startTravelServer({ offline: true, timeoutMs: 60_000 });
    client = await McpToolClient.connect(server.url);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  test("catalog → functions, a valid call reaches the server, an invalid one does not", async () => {
    const catalog = await client.listTools();
    const functions = toNativeFunctions(catalog);
    assert.equal(functions.length, catalog.length);
    assert.ok(functions.every((f) => f.grammarParameters && !("$schema" in f.grammarParameters)));
    const geocode = catalog.find((t) => /geocode|ort/i.test(t.name))!;
    const param = Object.keys((geocode.inputSchema.properties ?? {}) as object)[0]!;
    const llm = new ScriptedToolCaller([
      { calls: [{ name: geocode.name, params: { [param]: 42 } }] },
      { calls: [{ name: geocode.name, params: { [param]: "Barcelona" } }] },
      { text: "Barcelona liegt in Spanien." },
    ]);
    const result = await runNativeToolChat({ llm, tools: client, catalog, question: "Wo liegt Barcelona?" });
    assert.equal(result.status, "answered");
    assert.deepEqual(
      result.calls.map((c) => [c.valid, c.executed]),
      [
        [false, false],
        [true, true],
      ],
    );
    assert.equal(result.calls[1]!.error, undefined, result.calls[1]!.error);
    assert.ok(result.calls[1]!.result && typeof result.calls[1]!.result === "object");
  });
});
