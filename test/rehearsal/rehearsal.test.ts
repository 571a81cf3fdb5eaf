// Rehearsal mode (WORKSHOP_PROBE=1): the scripted model behind the Llm interface answers the notebooks'
// own questions, and the agents take their tool paths against the real travel and math servers: a $ref
// plan is re-sent until the real results are in, then answered from them; the half-agent calls one tool;
// native function calling chains geocode → get_weather; the Modell-Check's tasks are answered with their
// oracle plans. Any other question: "only the script". Every scripted text carries the 🎭 mark, its
// meters say that no speed was measured, and the seed picks among a question's scripted wordings.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { runAgent, type RunAgentOptions } from "../../lib/agent/loop.js";
import { evalTableHtml } from "../../lib/display/eval.js";
import { runModelCheck, MINI_TASK_IDS } from "../../lib/eval/model-check.js";
import { formatMeter } from "../../lib/llm/meter.js";
import type { Llm } from "../../lib/llm/types.js";
import { createToolCaller } from "../../lib/llm/native-tools.js";
import type { McpToolClient, ToolInfo } from "../../lib/mcp/index.js";
import { runHalfAgentOnce } from "../../lib/patterns/style-comparison.js";
import { runNativeToolChat } from "../../lib/patterns/native-tools.js";
import { buildPlanJsonSchema } from "../../lib/plan/plan.js";
import { createRehearsalLlm, marked } from "../../lib/rehearsal/rehearsal-llm.js";
import { NOT_SCRIPTED, PROBE_EXAMPLES, SCRIPT } from "../../lib/rehearsal/script.js";
import { englishDecimal } from "../../scripts/dev/run-notebooks.js";
import { loadLlm } from "../../lib/rehearsal/load.js";
import { TODAY } from "../agent/fixtures.js";
import { startTravelAndMath, type TravelAndMath } from "../helpers/travel-and-math.js";

let servers: TravelAndMath;
let reise: McpToolClient;
let mathe: McpToolClient;
let catalog: ToolInfo[];

before(async () => {
  servers = await startTravelAndMath(TODAY);
  ({ reise, mathe } = servers);
  catalog = await reise.listTools();
});

after(() => servers?.close());

/** The plan agent over the travel server, at most 4 rounds. */
const travelRun = (llm: Llm, question: string, options: Partial<RunAgentOptions> = {}) =>
  runAgent({ llm, tools: reise, catalog, question, today: TODAY, maxIterations: 4, ...options });

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
    assert.equal(reply.text, "🎭 Hallo! Schön, dass du da bist.");
  } finally {
    console.log = log;
    for (const [key, value] of [
      ["WORKSHOP_PROBE", saved.probe],
      ["LLM_MODEL_PATH", saved.model],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
});

test('the script\'s fixed answers write numbers the German way ("50,9413° N", not "50.9413° N")', async () => {
  const fixed = SCRIPT.flatMap((entry) => (typeof entry.chat === "string" ? [entry.chat] : []));
  assert.ok(fixed.length > 3);
  assert.deepEqual(
    fixed.filter((text) => englishDecimal(text) !== undefined),
    [],
  );
  const kranich = [
    { role: "user" as const, content: "Was sind die genauen GPS-Koordinaten des Cafés 'Zum Blauen Kranich' in Köln?" },
  ];
  assert.match((await createRehearsalLlm().chat(kranich)).text, /50,9413° N, 6,9583° O/u);
});

test("a question outside the script gets the plain 'only the script' answer, as text and as a plan", async () => {
  const llm = createRehearsalLlm();
  const question = [{ role: "user" as const, content: "Wie hoch ist der Eiffelturm?" }];
  assert.equal((await llm.chat(question)).text, `🎭 ${NOT_SCRIPTED}`);
  assert.deepEqual(await llm.generateJson(buildPlanJsonSchema(catalog), question), {
    steps: [],
    final: marked(NOT_SCRIPTED),
  });
});

test("the plan agent runs the scripted $ref plan against the real server and answers from its results", async () => {
  const question = `Wie ist heute (${TODAY}) das Wetter in Barcelona und in Madrid?`;
  const run = await travelRun(createRehearsalLlm(), question);
  const calls = run.trace.events.flatMap((e) => (e.type === "tool_call" ? [e] : []));
  assert.deepEqual(calls.map((c) => c.toolId).sort(), ["geo_bcn", "geo_mad", "wetter_bcn", "wetter_mad"]);
  const weather = calls.find((c) => c.toolId === "wetter_mad")!;
  assert.equal(typeof weather.arguments.lat, "number", "the $ref was resolved from geocode's real result");
  assert.equal(run.status, "answered");
  assert.match(run.final ?? "", new RegExp(`^🎭 Heute \\(${TODAY}\\) – Barcelona: .+ °C, .+; Madrid: .+ °C`));
});

test("the half-agent calls the math server once and answers with its exact result", async () => {
  const run = await runHalfAgentOnce({
    llm: createRehearsalLlm(),
    tools: mathe,
    question: "Was ist 58952 × 21448?",
    systemPrompt: "Rechne nie im Kopf.",
  });
  assert.deepEqual(
    run.toolHistory.map((e) => e.tool),
    ["multiplikation"],
  );
  assert.match(run.answer, /^🎭 58952 × 21448 = 1264402496 /);
});

test("native function calling chains geocode → get_weather with geocode's coordinates", async () => {
  const llm = createRehearsalLlm();
  const run = await runNativeToolChat({
    llm: await createToolCaller(llm),
    tools: reise,
    catalog,
    question: `Wie ist heute (${TODAY}) das Wetter in Barcelona?`,
    maxCalls: 4,
  });
  assert.deepEqual(
    run.calls.map((c) => [c.name, c.executed]),
    [
      ["geocode", true],
      ["get_weather", true],
    ],
  );
  assert.match(run.answer, /^🎭 Heute .*Barcelona: .+ °C/);
});

test("every question the CLI suggests for --probe is answered by the script with real tool calls, also by the answer writer", async () => {
  for (const question of PROBE_EXAMPLES) {
    for (const answerWriter of [false, true]) {
      const run = await travelRun(createRehearsalLlm(), question, { answerWriter });
      const what = `${question}${answerWriter ? " (answer writer)" : ""}`;
      assert.equal(run.status, "answered", what);
      assert.ok(
        run.trace.events.some((e) => e.type === "tool_result"),
        `${what}: no tool ran`,
      );
      assert.match(run.final ?? "", /^🎭 /, what);
      assert.ok(!run.final?.includes(NOT_SCRIPTED), `${what}: ${run.final}`);
      assert.doesNotMatch(run.final ?? "", /leider keine Orte|\?/, `${what}: the answer names what the tools found`);
    }
  }
});

test("a plan without a date in the question uses the agent's today (its date message), also for 'Und übermorgen?'", async () => {
  const llm = createRehearsalLlm();
  const run = await travelRun(llm, "Wie ist heute das Wetter in Barcelona?");
  const weather = run.trace.events.find((e) => e.type === "tool_call" && e.toolName === "get_weather");
  assert.equal(weather?.type === "tool_call" ? weather.arguments.start_date : undefined, TODAY);
  const later = await travelRun(llm, "Und übermorgen?", {
    history: [{ role: "user", content: `Wie wird das Wetter morgen (2026-01-30) in Rom?` }],
  });
  assert.match(later.final ?? "", /^🎭 Übermorgen \(2026-01-31\) – Rom: /);
});

test("the sampling demo: different seeds at temperature > 0 give different scripted sentences, temperature 0 the same", async () => {
  const llm = createRehearsalLlm();
  const question = [{ role: "user" as const, content: "Beschreibe Barcelona in einem Satz." }];
  const seeded = await Promise.all(
    [1, 2, 3].map(async (seed) => (await llm.chat(question, { temperature: 1.2, seed })).text),
  );
  assert.equal(new Set(seeded).size, 3, seeded.join("\n"));
  for (const text of seeded) assert.match(text, /^🎭 .*Barcelona/);
  const greedy = await Promise.all(
    [1, 2].map(async (seed) => (await llm.chat(question, { temperature: 0, seed })).text),
  );
  assert.equal(greedy[0], greedy[1]);
});

test("the speed line of a scripted answer says it was not measured: estimated counts, no tokens/s", async () => {
  const llm = createRehearsalLlm();
  const reply = await llm.chat([
    { role: "user", content: "Was ist die Hauptstadt von Portugal? Antworte in einem Satz." },
  ]);
  const line = formatMeter(reply.meter);
  assert.match(
    line,
    /^Prompt: ≈\d+ neu berechnet \/ ≈\d+ aus dem KV-Cache · Antwort: ≈\d+\u00a0Tokens · 🎭\u00a0Tempo nicht gemessen$/,
  );
  assert.doesNotMatch(line, /Tokens\/s|erste Antwort nach/);
  // A measured meter keeps its speed.
  const measured = {
    promptTokensEvaluated: 17,
    promptTokensReused: 0,
    generatedTokens: 11,
    timeToFirstTokenMs: 240,
    totalMs: 900,
    tokensPerSecond: 12.34,
  };
  assert.match(formatMeter(measured), /· 12,3\u00a0Tokens\/s · erste Antwort nach 240\u00a0ms$/);
});

test("Teil 4's Modell-Check in rehearsal: the script knows its tasks and runs each one's plan against the real server", async () => {
  const seen: string[] = [];
  const report = await runModelCheck({
    llm: createRehearsalLlm(),
    tools: { reise },
    k: 2,
    maxRounds: 3,
    onRun: (task, run, check) => seen.push(`${task.id} ${run + 1}: ${check.pass ? "ok" : check.failures.join(" ")}`),
  });
  assert.deepEqual(
    report.tasks.map((t) => t.id),
    [...MINI_TASK_IDS],
  );
  assert.deepEqual(
    seen.filter((line) => !line.endsWith(": ok")),
    [],
    seen.join("\n"),
  );
  assert.equal(report.summary.passAt1, 1);
  assert.match(
    evalTableHtml(report),
    /^<p class="kit-eval-note">🎭 Vorgespielt: Das Drehbuch kennt diese Aufgaben/,
    "the table says why it shows 100 %",
  );
  assert.doesNotMatch(evalTableHtml({ ...report, meta: { ...report.meta, backend: "node-llama-cpp" } }), /Vorgespielt/);
  const refusal = await createRehearsalLlm().generateJson(buildPlanJsonSchema(catalog), [
    { role: "user", content: "Kannst du mir ein Hotelzimmer in Berlin buchen?" },
  ]);
  assert.match(
    String((refusal as { final?: unknown }).final),
    /^🎭 Das kann ich leider nicht/,
    "the oracle's answer, marked",
  );
});
