// The agent over two real servers at once (travel + math, subprocesses, one MCP session each) through a
// CompositeToolClient: one merged catalog, grammar and validation over it, $refs across servers.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { tinyModelPaths } from "../../lib/config.js";
import { loadLocalLlm, type LocalLlm } from "../../lib/llm/index.js";
import { runAgent } from "../../lib/agent/loop.js";
import { buildPlanJsonSchema } from "../../lib/plan/plan.js";
import { executeToolCall } from "../../lib/half-agent/half-agent.js";
import { buildPlannerSystemPrompt, TRAVEL_MATH_ROLE } from "../../lib/agent/prompts.js";
import { buildHalfAgentSystemPrompt } from "../../lib/half-agent/prompts.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";
import type { AgentEvent } from "../../lib/agent/trace.js";
import { checkPlan } from "../../lib/plan/check.js";
import { CompositeToolClient } from "../../lib/mcp/composite.js";
import type { ToolInfo } from "../../lib/mcp/index.js";
import { connectMathClientStdio } from "../../lib/mcp/client.js";
import { TODAY } from "./fixtures.js";
import { startTravelAndMath, type TravelAndMath } from "../helpers/travel-and-math.js";
import { llama3ReferenceIds } from "../../scripts/dev/tiny-models/llama3-vocab.js";

const QUESTION = "Um wie viel Grad ist es heute in Rom wärmer als in Oslo?";
let servers: TravelAndMath;
let tools: CompositeToolClient;
let catalog: ToolInfo[];

before(async () => {
  servers = await startTravelAndMath(TODAY);
  tools = new CompositeToolClient({ reise: servers.reise, mathe: servers.mathe });
  catalog = await tools.listTools();
});

after(() => servers?.close());

const geo = (city: string) => ({ id: `geo_${city}`, name: "geocode", arguments: { destination: city } });
const weather = (city: string) => ({
  id: `wetter_${city}`,
  name: "get_weather",
  arguments: { lat: { $ref: `geo_${city}.lat` }, lon: { $ref: `geo_${city}.lon` }, start_date: TODAY, end_date: TODAY },
});
const romOsloPlan = (subtract = "subtraktion") => ({
  steps: [
    { description: "Koordinaten", tools: [geo("Rom"), geo("Oslo")] },
    { description: "Wetter heute", tools: [weather("Rom"), weather("Oslo")] },
    {
      description: "Differenz der Höchstwerte",
      tools: [
        {
          id: "differenz",
          name: subtract,
          arguments: { a: { $ref: "wetter_Rom.aggregates.tmax_c" }, b: { $ref: "wetter_Oslo.aggregates.tmax_c" } },
        },
      ],
    },
  ],
  final: null,
});

describe("runAgent over the travel and the math server", () => {
  test("the merged catalog: all eleven tools under their own names (no collision), one grammar over both", () => {
    assert.deepEqual(catalog.map((t) => t.name).sort(), [
      "addition",
      "division",
      "geocode",
      "get_parks",
      "get_spots",
      "get_weather",
      "multiplikation",
      "rank_spots",
      "rechne",
      "save_trip_plan",
      "subtraktion",
    ]);
    const schema = JSON.stringify(buildPlanJsonSchema(catalog));
    assert.ok(schema.includes('"const":"geocode"') && schema.includes('"const":"subtraktion"'));
    assert.deepEqual(checkPlan(romOsloPlan() as never, catalog).problems, []);
    const prompt = buildPlannerSystemPrompt(catalog);
    for (const name of ["geocode", "get_weather", "subtraktion", "rechne"]) assert.ok(prompt.includes(name), name);
  });

  test("one run plans across both servers: geocode + weather → subtraktion, exact", async () => {
    const llm = new ScriptedLlm([
      romOsloPlan(),
      romOsloPlan(),
      romOsloPlan(),
      { steps: [], final: "In Rom ist es heute wärmer als in Oslo." },
    ]);
    const events: AgentEvent[] = [];
    // Several clients by alias, straight into runAgent (it merges them and lists the catalog itself).
    const { reise, mathe } = tools.clients;
    const result = await runAgent({
      question: QUESTION,
      llm,
      tools: { reise: reise!, mathe: mathe! },
      role: TRAVEL_MATH_ROLE,
      today: TODAY,
      onEvent: (e) => events.push(e),
    });
    assert.equal(result.status, "answered", result.error);
    assert.ok(
      llm.requests[0]!.messages[0]!.content.startsWith(TRAVEL_MATH_ROLE),
      "the role replaces the travel persona",
    );
    assert.doesNotMatch(
      llm.requests[0]!.messages[0]!.content,
      new RegExp(TODAY),
      "no date in the cached system prompt",
    );
    assert.deepEqual(
      llm.requests[0]!.messages[1],
      { role: "system", content: `Heutiges Datum: ${TODAY}.` },
      "the date right after it",
    );
    const tmax = (id: string) => (result.toolResults[id] as { aggregates: { tmax_c: number } }).aggregates.tmax_c;
    const [rom, oslo] = [tmax("wetter_Rom"), tmax("wetter_Oslo")];
    assert.ok(rom > oslo, `offline climate: Rom ${rom} °C, Oslo ${oslo} °C`);
    const diff = result.toolResults.differenz as { result: number; text: string; exact: boolean };
    // exact decimal difference of the two values as they were sent (no binary artefacts like 9.000000000000002)
    assert.equal(diff.text, (Math.round((rom - oslo) * 1e6) / 1e6).toString());
    assert.equal(diff.exact, true);
    const calls = events.filter((e): e is Extract<AgentEvent, { type: "tool_call" }> => e.type === "tool_call");
    assert.deepEqual(
      calls.map((e) => e.toolName),
      ["geocode", "geocode", "get_weather", "get_weather", "subtraktion"],
    );
    assert.deepEqual(calls.at(-1)?.arguments, { a: rom, b: oslo });
  });

  test("the half-agent runs one call through several clients by alias; its prompt takes the role", async () => {
    const { reise, mathe } = tools.clients;
    const clients = { reise: reise!, mathe: mathe! };
    const entry = await executeToolCall(
      clients,
      { tool: "multiplikation", arguments: { a: 58952, b: 21448 } },
      { tools: catalog },
    );
    assert.deepEqual(entry.result, { result: 1264402496, text: "1264402496", exact: true });
    const geo = await executeToolCall(
      clients,
      { tool: "geocode", arguments: { destination: "Oslo" } },
      { tools: catalog },
    );
    assert.equal((geo.result as { source: string }).source, "offline");
    const prompt = buildHalfAgentSystemPrompt(catalog, { role: TRAVEL_MATH_ROLE });
    assert.ok(prompt.startsWith(TRAVEL_MATH_ROLE));
    assert.doesNotMatch(prompt, /Fragen ohne Reisebezug/);
    assert.match(
      buildHalfAgentSystemPrompt(catalog),
      /^Du bist ein Reiseassistent[\s\S]*Fragen ohne Reisebezug lehnst du freundlich ab/,
    );
  });

  test("two servers offering the same tools: namespaced names in grammar, validation and calls", async () => {
    const second = await connectMathClientStdio();
    const shared = new CompositeToolClient({
      reise: tools.clients.reise!,
      mathe: tools.clients.mathe!,
      rechner: second,
    });
    try {
      const merged = await shared.listTools();
      const names = merged.map((t) => t.name);
      assert.ok(
        names.includes("geocode") &&
          names.includes("mathe.subtraktion") &&
          names.includes("rechner.subtraktion") &&
          !names.includes("subtraktion"),
      );
      assert.deepEqual(checkPlan(romOsloPlan("rechner.subtraktion") as never, merged).problems, []);
      const problems = checkPlan(romOsloPlan("subtraktion") as never, merged).problems;
      assert.ok(problems.length > 0, "the bare shared name is not in the merged catalog");
      assert.ok(JSON.stringify(buildPlanJsonSchema(merged)).includes('"const":"rechner.subtraktion"'));
      const llm = new ScriptedLlm([
        romOsloPlan("rechner.subtraktion"),
        romOsloPlan("rechner.subtraktion"),
        romOsloPlan("rechner.subtraktion"),
        { steps: [], final: "fertig" },
      ]);
      const result = await runAgent({ question: QUESTION, llm, tools: shared, catalog: merged, today: TODAY });
      assert.equal(result.status, "answered", result.error);
      assert.equal((result.toolResults.differenz as { exact: boolean }).exact, true);
    } finally {
      await second.close();
    }
  });
});

describe("the tiny GGUF over the merged catalog", () => {
  let llm: LocalLlm;
  before(async () => {
    llm = await loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", threads: 1, contextSize: 4096 });
  });
  after(async () => {
    await llm?.dispose();
  });

  test("grammar-valid plans over ten tools of two servers; the run terminates cleanly", async () => {
    const systemPrompt = buildPlannerSystemPrompt(catalog, { compact: true, userFields: ["raw", "today"] });
    const promptTokens = llm.countTokens(systemPrompt);
    console.log(`compact prompt over ten tools: ${promptTokens} tokens`);
    assert.equal(promptTokens, llama3ReferenceIds(systemPrompt).length, "counted as Llama 3 counts it");
    assert.ok(promptTokens < 3072, `the compact prompt (${promptTokens} tokens) leaves room in the context`);
    for (const seed of [1, 2]) {
      const events: AgentEvent[] = [];
      const result = await runAgent({
        question: QUESTION,
        llm,
        tools,
        catalog,
        systemPrompt,
        today: TODAY,
        maxIterations: 3,
        generation: { maxTokens: 200, temperature: 0.8, seed },
        onEvent: (e) => events.push(e),
      });
      assert.ok(["answered", "max_iterations"].includes(result.status), `${result.status}: ${result.error ?? ""}`);
      assert.ok(result.iterations <= 3 && result.final.length > 0);
      const plans = events.filter((e) => e.type === "plan");
      assert.ok(plans.length >= 1 && plans.every((e) => e.type === "plan" && e.via === "grammar"));
      assert.equal(
        events.filter((e) => e.type === "plan_error" && e.kind !== "generation").length,
        0,
        "grammar output always parses as a plan",
      );
      assert.equal(events.at(-1)?.type, "final");
    }
  });
});
