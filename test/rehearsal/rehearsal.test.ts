// Rehearsal mode (WORKSHOP_PROBE=1): the scripted model behind the Llm interface answers the notebooks'
// own questions, and the agents take their tool paths against the real travel and math servers: a $ref
// plan is re-sent until the real results are in, then answered from them; the half-agent calls one tool;
// native function calling chains geocode → get_weather. Any other question: "only the script".
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { runAgent } from "../../lib/agent/loop.js";
import { createToolCaller } from "../../lib/llm/native-tools.js";
import { McpToolClient, startMathServer, startTravelServer, type ServerHandle, type ToolInfo } from "../../lib/mcp/index.js";
import { runHalfAgentOnce } from "../../lib/patterns/style-comparison.js";
import { runNativeToolChat } from "../../lib/patterns/native-tools.js";
import { buildPlanJsonSchema } from "../../lib/plan/plan.js";
import { createRehearsalLlm } from "../../lib/rehearsal/rehearsal-llm.js";
import { NOT_SCRIPTED } from "../../lib/rehearsal/script.js";
import { loadLlm } from "../../lib/rehearsal/load.js";
import { TODAY } from "../agent/fixtures.js";

let travel: ServerHandle;
let math: ServerHandle;
let reise: McpToolClient;
let mathe: McpToolClient;
let catalog: ToolInfo[];

before(async () => {
  [travel, math] = await Promise.all([startTravelServer({ offline: true, env: { TRAVEL_TODAY: TODAY }, timeoutMs: 60_000 }), startMathServer()]);
  [reise, mathe] = await Promise.all([McpToolClient.connect(travel.url), McpToolClient.connect(math.url)]);
  catalog = await reise.listTools();
});

after(async () => {
  await Promise.all([reise?.close(), mathe?.close()]);
  await Promise.all([travel?.stop(), math?.stop()]);
});

test("loadLlm gives the rehearsal model when WORKSHOP_PROBE=1 and says so; no model file is needed", async () => {
  const saved = { probe: process.env.WORKSHOP_PROBE, model: process.env.LLM_MODEL_PATH };
  process.env.WORKSHOP_PROBE = "1";
  process.env.LLM_MODEL_PATH = "/gibt/es/nicht.gguf";
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => lines.push(line);
  try {
    const llm = await loadLlm();
    assert.equal(llm.info.backend, "scripted");
    assert.match(lines.join("\n"), /🎭 Probelauf: vorgespielte Antworten/);
    const reply = await llm.chat([{ role: "user", content: "Sag Hallo auf Deutsch." }]);
    assert.equal(reply.text, "Hallo! Schön, dass du da bist.");
  } finally {
    console.log = log;
    for (const [key, value] of [["WORKSHOP_PROBE", saved.probe], ["LLM_MODEL_PATH", saved.model]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
});

test("a question outside the script gets the plain 'only the script' answer, as text and as a plan", async () => {
  const llm = createRehearsalLlm();
  const question = [{ role: "user" as const, content: "Wie hoch ist der Eiffelturm?" }];
  assert.equal((await llm.chat(question)).text, NOT_SCRIPTED);
  assert.deepEqual(await llm.generateJson(buildPlanJsonSchema(catalog), question), { steps: [], final: NOT_SCRIPTED });
});

test("the plan agent runs the scripted $ref plan against the real server and answers from its results", async () => {
  const question = `Wie ist heute (${TODAY}) das Wetter in Barcelona und in Madrid?`;
  const run = await runAgent({ llm: createRehearsalLlm(), tools: reise, catalog, question, today: TODAY, maxIterations: 4 });
  const calls = run.trace.events.flatMap((e) => (e.type === "tool_call" ? [e] : []));
  assert.deepEqual(calls.map((c) => c.toolId).sort(), ["geo_bcn", "geo_mad", "wetter_bcn", "wetter_mad"]);
  const weather = calls.find((c) => c.toolId === "wetter_mad")!;
  assert.equal(typeof weather.arguments.lat, "number", "the $ref was resolved from geocode's real result");
  assert.equal(run.status, "answered");
  assert.match(run.final ?? "", new RegExp(`^Heute \\(${TODAY}\\) – Barcelona: .+ °C, .+; Madrid: .+ °C`));
});

test("the half-agent calls the math server once and answers with its exact result", async () => {
  const run = await runHalfAgentOnce({
    llm: createRehearsalLlm(), tools: mathe, question: "Was ist 58952 × 21448?", systemPrompt: "Rechne nie im Kopf.",
  });
  assert.deepEqual(run.toolHistory.map((e) => e.tool), ["multiplikation"]);
  assert.match(run.answer, /= 1264402496 /);
});

test("native function calling chains geocode → get_weather with geocode's coordinates", async () => {
  const llm = createRehearsalLlm();
  const run = await runNativeToolChat({
    llm: await createToolCaller(llm), tools: reise, catalog, question: `Wie ist heute (${TODAY}) das Wetter in Barcelona?`, maxCalls: 4,
  });
  assert.deepEqual(run.calls.map((c) => [c.name, c.executed]), [["geocode", true], ["get_weather", true]]);
  assert.match(run.answer, /Barcelona: .+ °C/);
});
