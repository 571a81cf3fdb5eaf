import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { runAgent, type RunAgentOptions } from "../../lib/agent/loop.js";
import { FALLBACK_ANSWER, NUDGE_MESSAGE } from "../../lib/agent/prompts.js";
import {
  ScriptedLlm,
  scriptedFailure,
  type ScriptedReply,
  type ScriptedRequest,
} from "../../lib/testing/scripted-llm.js";
import { InMemoryToolClient, ToolReportedError } from "../../lib/testing/in-memory-tools.js";
import type { AgentEvent } from "../../lib/agent/trace.js";
import { ContextOverflowError } from "../../lib/llm/errors.js";
import {
  createTravelFake,
  geocodeHandler,
  geoWeatherPlan,
  latch,
  TODAY,
  weatherHandler,
  type TravelFakeOptions,
} from "./fixtures.js";
import { eventsOf, isFinalSchema, lastUserMessage, runScripted } from "../helpers/scripted-agent.js";

const QUESTION = `Wie ist heute (${TODAY}) das Wetter in Barcelona?`;
const FINAL = { steps: [], final: "In Barcelona wird es heute bis zu 18,5 °C warm und bleibt trocken." };

async function run(replies: ScriptedReply[], options: Partial<RunAgentOptions> & { fake?: TravelFakeOptions } = {}) {
  const tools = createTravelFake(options.fake);
  const { result, llm, events } = await runScripted(replies, { question: QUESTION, tools, today: TODAY, ...options });
  return { result, llm, tools, events };
}

describe("runAgent", () => {
  test("geocode → weather chain in one round (dependency mode), then the answer", async () => {
    const { result, llm, tools, events } = await run([geoWeatherPlan(), FINAL]);
    assert.equal(result.status, "answered");
    assert.equal(result.final, FINAL.final);
    assert.equal(result.iterations, 2);
    assert.deepEqual(
      tools.calls.map((c) => c.name),
      ["geocode", "get_weather"],
    );
    assert.deepEqual(tools.calls[1]?.args, { lat: 41.3874, lon: 2.1686, start_date: TODAY, end_date: TODAY });
    assert.equal(llm.requests.length, 2);
    assert.ok(llm.requests.every((r) => r.method === "generateJson"));
    const resultsMessage = lastUserMessage(llm.requests[1]!);
    assert.match(resultsMessage, /^Tool-Ergebnisse:/);
    assert.match(resultsMessage, /"id":"geo_barcelona","tool":"geocode"/);
    assert.match(resultsMessage, /"lat":41\.3874/);
    const call = eventsOf(events, "tool_call").find((e) => e.toolName === "get_weather");
    assert.deepEqual(call?.arguments, { lat: 41.3874, lon: 2.1686, start_date: TODAY, end_date: TODAY });
    assert.deepEqual(result.toolResults.geo_barcelona, {
      lat: 41.3874,
      lon: 2.1686,
      display_name: "Barcelona",
      source: "test",
    });
    assert.equal(eventsOf(events, "final")[0]?.status, "answered");
  });

  for (const mode of ["step-parallel", "sequential"] as const) {
    test(`${mode}: one step per round, replanning in between (the original's order)`, async () => {
      const plan = geoWeatherPlan("Barcelona", TODAY, true);
      const { result, llm, tools, events } = await run([plan, plan, FINAL], { mode });
      assert.equal(result.status, "answered");
      assert.equal(llm.requests.length, 3);
      assert.deepEqual(
        tools.calls.map((c) => c.name),
        ["geocode", "get_weather"],
        "the executed geocode id does not run again",
      );
      assert.deepEqual(
        eventsOf(events, "step_start").map((e) => [e.iteration, e.stepIndex]),
        [
          [1, 0],
          [2, 1],
        ],
      );
    });
  }

  test("a parallel step really runs concurrently (step-parallel)", async () => {
    const bothStarted = latch(1500);
    let started = 0;
    const slowGeocode = async (args: Record<string, unknown>) => {
      if (++started === 2) bothStarted.open();
      await bothStarted.wait();
      return geocodeHandler(args);
    };
    const plan = {
      steps: [
        {
          description: "beide Städte",
          tools: [
            { id: "geo_bcn", name: "geocode", arguments: { destination: "Barcelona" } },
            { id: "geo_ber", name: "geocode", arguments: { destination: "Berlin" } },
          ],
        },
      ],
      final: null,
    };
    const { result, tools, events } = await run([plan, FINAL], {
      mode: "step-parallel",
      fake: { handlers: { geocode: slowGeocode } },
    });
    assert.equal(result.status, "answered");
    assert.equal(tools.maxConcurrent, 2);
    assert.equal(eventsOf(events, "tool_error").length, 0);
    assert.deepEqual(Object.keys(result.toolResults).sort(), ["geo_bcn", "geo_ber"]);
  });

  test("sequential mode runs one tool at a time", async () => {
    const plan = {
      steps: [
        {
          description: "",
          tools: ["Barcelona", "Berlin", "Rom"].map((c) => ({
            id: `g_${c}`,
            name: "geocode",
            arguments: { destination: c },
          })),
        },
      ],
      final: null,
    };
    const { tools } = await run([plan, FINAL], { mode: "sequential", fake: { latencyMs: { geocode: 5 } } });
    assert.equal(tools.calls.length, 3);
    assert.equal(tools.maxConcurrent, 1);
  });

  test("dependency scheduling: a dependent call starts before an unrelated slow call ends", async () => {
    // geo_ber only finishes once wetter_bcn has started: step-by-step execution would deadlock.
    const plan = {
      steps: [
        {
          description: "Orte",
          tools: [
            { id: "geo_bcn", name: "geocode", arguments: { destination: "Barcelona" } },
            { id: "geo_ber", name: "geocode", arguments: { destination: "Berlin" } },
          ],
        },
        {
          description: "Wetter",
          tools: ["bcn", "ber"].map((c) => ({
            id: `wetter_${c}`,
            name: "get_weather",
            arguments: {
              lat: { $ref: `geo_${c}.lat` },
              lon: { $ref: `geo_${c}.lon` },
              start_date: TODAY,
              end_date: TODAY,
            },
          })),
        },
      ],
      final: null,
    };
    const handlers = () => {
      const weatherBcnStarted = latch(400);
      return {
        geocode: async (args: Record<string, unknown>) => {
          if (args.destination === "Berlin") await weatherBcnStarted.wait();
          return geocodeHandler(args);
        },
        get_weather: (args: Record<string, unknown>) => {
          if (args.lat === 41.3874) weatherBcnStarted.open();
          return weatherHandler(args);
        },
      };
    };
    const dep = await run([plan, FINAL], { mode: "dependency", fake: { handlers: handlers() } });
    assert.equal(eventsOf(dep.events, "tool_error").length, 0);
    assert.deepEqual(Object.keys(dep.result.toolResults).sort(), ["geo_bcn", "geo_ber", "wetter_bcn", "wetter_ber"]);
    assert.deepEqual(
      dep.tools.calls.map((c) => `${c.name}:${String(c.args.destination ?? c.args.lat)}`),
      ["geocode:Barcelona", "geocode:Berlin", "get_weather:41.3874", "get_weather:52.52"],
    );
    assert.equal(dep.llm.requests.length, 2, "the whole chain ran in one round");

    // The same plan step by step: geo_ber waits for a call that cannot start before the step ends.
    const stepwise = await run([plan, plan, FINAL], { mode: "step-parallel", fake: { handlers: handlers() } });
    assert.deepEqual(
      eventsOf(stepwise.events, "tool_error").map((e) => e.toolId),
      ["geo_ber"],
    );
    assert.deepEqual(
      eventsOf(stepwise.events, "validation_problems")[0]?.problems.map((p) => p.kind),
      ["ref_to_failed_tool", "ref_to_failed_tool"],
    );
  });

  test("a failing tool becomes history; the model replans with a new id", async () => {
    const atlantis = {
      steps: [{ description: "", tools: [{ id: "geo_a", name: "geocode", arguments: { destination: "Atlantis" } }] }],
      final: null,
    };
    const { result, llm, tools, events } = await run([atlantis, geoWeatherPlan(), FINAL]);
    assert.equal(result.status, "answered");
    const error = eventsOf(events, "tool_error")[0];
    assert.equal(error?.errorKind, "tool");
    assert.match(error?.message ?? "", /Atlantis.*nicht gefunden/);
    const feedback = lastUserMessage(llm.requests[1]!);
    assert.match(feedback, /"id":"geo_a".*"error":"Ort \\"Atlantis\\" nicht gefunden\."/);
    assert.match(feedback, /fehlgeschlagen/);
    assert.deepEqual(
      tools.calls.map((c) => c.name),
      ["geocode", "geocode", "get_weather"],
    );
  });

  test("a thrown (non-transient) error is a history entry too, not a crash", async () => {
    const { result, llm, tools } = await run([geoWeatherPlan(), FINAL], {
      fake: {
        handlers: {
          get_weather: () => {
            throw new TypeError("kaputt");
          },
        },
      },
    });
    assert.equal(result.status, "answered");
    assert.equal(tools.calls.length, 2, "no retry for a non-transient error");
    assert.match(lastUserMessage(llm.requests[1]!), /TypeError: kaputt/);
  });

  test("transient errors are retried", async () => {
    let failures = 0;
    const { result, tools, events } = await run([geoWeatherPlan(), FINAL], {
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
      fake: {
        handlers: {
          geocode: (args) => {
            if (failures++ < 2) throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
            return geocodeHandler(args);
          },
        },
      },
    });
    assert.equal(result.status, "answered");
    assert.equal(tools.calls.filter((c) => c.name === "geocode").length, 3);
    assert.equal(eventsOf(events, "tool_result").find((e) => e.toolId === "geo_barcelona")?.attempts, 3);
  });

  test("a call is sent at most 1 + N times (N = retry.retries), then reported", async () => {
    for (const retries of [0, 1, 3]) {
      const { result, tools, events } = await run([geoWeatherPlan(), FINAL], {
        retry: { retries, baseDelayMs: 1, maxDelayMs: 2 },
        fake: {
          handlers: {
            geocode: () => {
              throw Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });
            },
          },
        },
      });
      assert.equal(result.status, "answered");
      const sends = tools.calls.filter((c) => c.name === "geocode").length;
      assert.equal(sends, 1 + retries);
      assert.equal(eventsOf(events, "tool_error").find((e) => e.toolId === "geo_barcelona")?.attempts, 1 + retries);
    }
  });

  test("per-tool timeout: the call is aborted and reported", async () => {
    let sawAbort = false;
    const { result, llm, events } = await run([geoWeatherPlan(), FINAL], {
      toolTimeoutMs: 30,
      fake: {
        handlers: {
          get_weather: (_args, { signal }) =>
            new Promise((_, reject) =>
              signal?.addEventListener("abort", () => {
                sawAbort = true;
                reject(signal.reason);
              }),
            ),
        },
      },
    });
    assert.equal(result.status, "answered");
    const timeout = eventsOf(events, "tool_error")[0];
    assert.equal(timeout?.errorKind, "timeout");
    assert.equal(timeout?.attempts, 1);
    assert.ok(sawAbort, "the tool received the abort signal");
    assert.match(lastUserMessage(llm.requests[1]!), /nicht innerhalb von 30 ms/);
  });

  // A write tool that speaks the preview protocol (workspace.ts); `hang` ignores the abort signal.
  const noteTool = (hang: "preview" | "commit") =>
    new InMemoryToolClient([
      {
        info: {
          name: "save_note",
          description: "Speichert eine Notiz.",
          inputSchema: {
            type: "object",
            properties: {
              file_name: { type: "string" },
              content: { type: "string" },
              dry_run: { type: "boolean" },
              expected_sha256: { type: ["string", "null"] },
            },
            required: ["file_name", "content"],
          },
          annotations: { readOnlyHint: false },
        },
        handler: (args) => {
          if ((args.dry_run === true) === (hang === "preview")) return new Promise(() => undefined);
          return args.dry_run ? { path: args.file_name, content: args.content, existed: false } : { written: true };
        },
      },
    ]);
  const notePlan = {
    steps: [
      {
        description: "Notiz speichern",
        tools: [{ id: "note", name: "save_note", arguments: { file_name: "a.md", content: "x" } }],
      },
    ],
    final: null,
  };

  for (const hang of ["preview", "commit"] as const) {
    test(`per-tool timeout also ends a staged ${hang} that ignores the signal`, { timeout: 5000 }, async () => {
      let asked = 0;
      const { result, events } = await run([notePlan, FINAL], {
        tools: noteTool(hang),
        toolTimeoutMs: 30,
        approve: () => (asked++, true),
      });
      assert.equal(result.status, "answered");
      const error = eventsOf(events, "tool_error")[0];
      assert.equal(error?.errorKind, "timeout");
      assert.match(error?.message ?? "", /nicht innerhalb von 30 ms/);
      assert.equal(asked, hang === "preview" ? 0 : 1, "no approval without a preview");
      assert.deepEqual(
        result.workspace.changes().map((c) => c.status),
        hang === "preview" ? [] : ["failed"],
      );
    });
  }

  test("invalid plan → problems are sent back, nothing runs, the corrected plan runs", async () => {
    const broken = {
      steps: [
        {
          description: "alles auf einmal",
          tools: [
            { id: "geo", name: "geocode", arguments: { destination: "Barcelona" } },
            {
              id: "w",
              name: "get_weather",
              arguments: {
                lat: { $ref: "geo.result.lat" },
                lon: { $ref: "geo.lon" },
                start_date: TODAY,
                end_date: TODAY,
              },
            },
          ],
        },
      ],
      final: null,
    };
    const { result, llm, tools, events } = await run([broken, geoWeatherPlan(), FINAL]);
    assert.equal(result.status, "answered");
    const problems = eventsOf(events, "validation_problems")[0]?.problems ?? [];
    assert.deepEqual(problems.map((p) => p.kind).sort(), ["forbidden_path", "ref_not_earlier"]);
    assert.match(lastUserMessage(llm.requests[1]!), /^Dein Plan wurde nicht ausgeführt/);
    assert.equal(tools.calls.length, 2);
  });

  test("an executed id with changed arguments is refused", async () => {
    const again = geoWeatherPlan();
    (again.steps[0]!.tools[0]!.arguments as Record<string, unknown>).destination = "Berlin";
    const { events } = await run([geoWeatherPlan(), again, FINAL]);
    assert.deepEqual(
      eventsOf(events, "validation_problems")[0]?.problems.map((p) => p.kind),
      ["executed_id_changed"],
    );
  });

  test("final forcing: steps ran out without an answer → nudge, then an answer-only grammar", async () => {
    const answerOnlyWhenForced = (r: ScriptedRequest) => (isFinalSchema(r) ? FINAL : geoWeatherPlan());
    const { result, llm, events } = await run([geoWeatherPlan(), geoWeatherPlan(), answerOnlyWhenForced]);
    assert.equal(result.status, "answered");
    assert.equal(eventsOf(events, "nudge").length, 1);
    assert.equal(lastUserMessage(llm.requests[2]!), NUDGE_MESSAGE);
    assert.equal(isFinalSchema(llm.requests[1]!), false);
    assert.equal(isFinalSchema(llm.requests[2]!), true);
  });

  test("the last round only allows an answer", async () => {
    const { result, llm } = await run([geoWeatherPlan(), (r) => (isFinalSchema(r) ? FINAL : geoWeatherPlan())], {
      maxIterations: 2,
    });
    assert.equal(result.status, "answered");
    assert.equal(isFinalSchema(llm.requests[1]!), true);
  });

  test("gives up after max iterations with the German fallback text", async () => {
    let n = 0;
    const endless: ScriptedReply = () => ({
      steps: [{ description: "", tools: [{ id: `geo_${n++}`, name: "geocode", arguments: { destination: "Rom" } }] }],
      final: null,
    });
    const { result, llm, tools } = await run([endless, endless, endless, endless], { maxIterations: 4 });
    assert.equal(result.status, "max_iterations");
    assert.equal(result.final, FALLBACK_ANSWER);
    assert.equal(result.iterations, 4);
    assert.equal(llm.requests.length, 4);
    assert.equal(tools.calls.length, 3, "no tools run in the last (answer-only) round");
    assert.equal(result.trace.status, "max_iterations");
  });

  test("approval: a rejected side-effecting tool is the model's tool error; approved ones run", async () => {
    const book = {
      steps: [{ description: "", tools: [{ id: "hotel", name: "book_hotel", arguments: { city: "Rom", nights: 3 } }] }],
      final: null,
    };
    const seen: string[] = [];
    const rejected = await run([book, FINAL], {
      fake: { withBooking: true },
      approve: (req) => {
        seen.push(`${req.toolName}:${JSON.stringify(req.arguments)}`);
        return { approved: false, feedback: "Bitte nur 2 Nächte." };
      },
    });
    assert.deepEqual(seen, ['book_hotel:{"city":"Rom","nights":3}']);
    assert.equal(rejected.tools.calls.length, 0);
    const err = eventsOf(rejected.events, "tool_error")[0];
    assert.equal(err?.errorKind, "rejected");
    assert.match(lastUserMessage(rejected.llm.requests[1]!), /abgelehnt: Bitte nur 2 Nächte\./);

    const approved = await run([book, FINAL], { fake: { withBooking: true }, approve: () => true });
    assert.deepEqual(
      approved.tools.calls.map((c) => c.name),
      ["book_hotel"],
    );

    const nobody = await run([book, FINAL], { fake: { withBooking: true } });
    assert.equal(nobody.tools.calls.length, 0, "without a callback side-effecting tools do not run");

    const blocked = await run([book, FINAL], {
      fake: { withBooking: true },
      approval: { blocked: ["book_hotel"] },
      approve: () => true,
    });
    assert.deepEqual(
      eventsOf(blocked.events, "validation_problems")[0]?.problems.map((p) => p.kind),
      ["blocked_tool"],
    );
    assert.equal(blocked.tools.calls.length, 0);
  });

  test("dependency mode keeps the step order for a side-effecting call without $ref", async () => {
    const plan = {
      steps: [
        { description: "Ort", tools: [{ id: "geo_rom", name: "geocode", arguments: { destination: "Rom" } }] },
        { description: "Buchen", tools: [{ id: "hotel", name: "book_hotel", arguments: { city: "Rom", nights: 2 } }] },
        {
          description: "Danach lesen",
          tools: [{ id: "geo_ber", name: "geocode", arguments: { destination: "Berlin" } }],
        },
      ],
      final: null,
    };
    const { result, tools, events } = await run([plan, FINAL], {
      fake: { withBooking: true, latencyMs: { geocode: 30, book_hotel: 30 } },
      approve: () => true,
    });
    assert.equal(result.status, "answered");
    assert.equal(eventsOf(events, "tool_error").length, 0);
    assert.deepEqual(
      tools.calls.map((c) => `${c.name}:${String(c.args.destination ?? c.args.city)}`),
      ["geocode:Rom", "book_hotel:Rom", "geocode:Berlin"],
    );
    const [geo, hotel, ber] = tools.calls;
    assert.ok(hotel!.startedAt >= geo!.endedAt!, "the booking starts after step 1 has finished");
    assert.ok(ber!.startedAt >= hotel!.endedAt!, "a later read-only call does not overtake the booking");
    assert.equal(tools.maxConcurrent, 1);
  });

  test("a side-effecting call is held back when an earlier step failed; the model is told what happened", async () => {
    const plan = {
      steps: [
        { description: "Ort", tools: [{ id: "geo_a", name: "geocode", arguments: { destination: "Atlantis" } }] },
        {
          description: "Buchen",
          tools: [{ id: "hotel", name: "book_hotel", arguments: { city: "Atlantis", nights: 2 } }],
        },
      ],
      final: null,
    };
    const { result, llm, tools, events } = await run([plan, FINAL], {
      fake: { withBooking: true },
      approve: () => true,
    });
    assert.equal(result.status, "answered");
    assert.deepEqual(
      tools.calls.map((c) => c.name),
      ["geocode"],
      "nothing was booked",
    );
    const held = eventsOf(events, "tool_error").find((e) => e.toolId === "hotel");
    assert.equal(held?.errorKind, "held_back");
    assert.match(
      held?.message ?? "",
      /verändert etwas und läuft erst, wenn alle früheren Schritte geklappt haben; "geo_a" ist fehlgeschlagen/,
    );
    assert.match(lastUserMessage(llm.requests[1]!), /"id":"hotel".*Nicht ausgeführt/);
    assert.match(
      lastUserMessage(llm.requests[1]!),
      /Ein Aufruf ist fehlgeschlagen\.[^\n]*\nEin Aufruf wurde wegen der Reihenfolge zurückgehalten und noch nicht ausgeführt/,
    );
  });

  test("a held-back call runs when the model keeps it after seeing the failure", async () => {
    const plan = {
      steps: [
        { description: "Ort", tools: [{ id: "geo_a", name: "geocode", arguments: { destination: "Atlantis" } }] },
        { description: "Buchen", tools: [{ id: "hotel", name: "book_hotel", arguments: { city: "Rom", nights: 2 } }] },
      ],
      final: null,
    };
    const { result, tools } = await run([plan, plan, FINAL], { fake: { withBooking: true }, approve: () => true });
    assert.equal(result.status, "answered");
    assert.deepEqual(
      tools.calls.map((c) => c.name),
      ["geocode", "book_hotel"],
      "the failed geocode does not run again; the booking runs in round 2",
    );
  });

  test("a call whose dependency could not run itself says so (not 'failed')", async () => {
    const plan = {
      steps: [
        { description: "Ort", tools: [{ id: "geo_a", name: "geocode", arguments: { destination: "Atlantis" } }] },
        {
          description: "Wetter",
          tools: [
            {
              id: "w1",
              name: "get_weather",
              arguments: { lat: { $ref: "geo_a.lat" }, lon: { $ref: "geo_a.lon" }, start_date: TODAY, end_date: TODAY },
            },
          ],
        },
        {
          description: "Parks",
          tools: [
            {
              id: "p1",
              name: "get_parks",
              arguments: { lat: { $ref: "w1.lat" }, lon: { $ref: "w1.lon" }, radius_km: 2 },
            },
          ],
        },
      ],
      final: null,
    };
    const { events } = await run([plan, FINAL]);
    const errors = new Map(eventsOf(events, "tool_error").map((e) => [e.toolId, e]));
    assert.equal(errors.get("w1")?.errorKind, "dependency_failed");
    assert.equal(
      errors.get("w1")?.message,
      'Nicht ausgeführt: "w1" braucht das Ergebnis von "geo_a", aber "geo_a" ist fehlgeschlagen.',
    );
    assert.equal(
      errors.get("p1")?.message,
      'Nicht ausgeführt: "p1" braucht das Ergebnis von "w1", aber "w1" konnte selbst nicht laufen.',
    );
  });

  test("read-only tools never ask", async () => {
    let asked = 0;
    await run([geoWeatherPlan(), FINAL], { approve: () => ((asked += 1), true) });
    assert.equal(asked, 0);
  });

  test("unparsable text output is fed back; backends without generateJson fall back to chat", async () => {
    const llm = new ScriptedLlm(
      [
        "Ich schaue mal nach dem Wetter.",
        "```json\n" + JSON.stringify(geoWeatherPlan()) + "\n```",
        JSON.stringify(FINAL),
      ],
      { jsonSupported: false },
    );
    const events: AgentEvent[] = [];
    const result = await runAgent({
      question: QUESTION,
      llm,
      tools: createTravelFake(),
      onEvent: (e) => events.push(e),
    });
    assert.equal(result.status, "answered");
    assert.equal(eventsOf(events, "output_fallback").length, 1);
    assert.ok(llm.requests.every((r) => r.method === "chat"));
    assert.equal(eventsOf(events, "plan_error")[0]?.kind, "no_json");
    assert.match(lastUserMessage(llm.requests[1]!), /kein gültiger Plan/);
  });

  test("a generation error (not 'unsupported') costs a round but does not crash", async () => {
    const { result, events } = await run([
      scriptedFailure(new Error("Expected type integer but got number")),
      geoWeatherPlan(),
      FINAL,
    ]);
    assert.equal(result.status, "answered");
    assert.equal(eventsOf(events, "plan_error")[0]?.kind, "generation");
  });

  test("backend failures that another round cannot fix end the run with llm_error", async () => {
    const overflow = new ContextOverflowError(9000, 500, 8192);
    const fatal = await run([scriptedFailure(overflow), FINAL]);
    assert.equal(fatal.result.status, "llm_error");
    assert.equal(fatal.result.iterations, 1);
    assert.match(fatal.result.error ?? "", /ContextOverflowError: Der Prompt ist zu lang/);
    assert.match(fatal.result.final, /Sprachmodell/);

    const flaky = await run([scriptedFailure(new Error("eins")), scriptedFailure(new Error("zwei")), FINAL]);
    assert.equal(flaky.result.status, "llm_error");
    assert.equal(flaky.llm.requests.length, 2);
  });

  test("user.* references and context/history placement", async () => {
    const plan = {
      steps: [
        {
          description: "",
          tools: [{ id: "g", name: "geocode", arguments: { destination: { $ref: "user.destination" } } }],
        },
      ],
      final: null,
    };
    const history = [
      { role: "user" as const, content: "Hi, ich bin Max Mustermann. Sprich mich immer mit Namen an." },
      { role: "assistant" as const, content: "Gern, Max Mustermann!" },
    ];
    const { llm, tools } = await run([plan, FINAL], {
      userCtx: { destination: "Rom" },
      history,
      context: "Das Razepato lebt bei Barcelona.",
    });
    assert.deepEqual(tools.calls[0]?.args, { destination: "Rom" });
    const first = llm.requests[0]!.messages;
    assert.deepEqual(
      first.map((m) => m.role),
      ["system", "system", "system", "user", "assistant", "user"],
    );
    assert.match(first[0]!.content, /"user\.raw", "user\.today", "user\.destination"/);
    assert.doesNotMatch(
      first[0]!.content,
      new RegExp(TODAY),
      "nothing per day in the system prompt (its KV state is saved)",
    );
    assert.equal(first[1]!.content, `Heutiges Datum: ${TODAY}.`);
    assert.match(first[2]!.content, /Razepato/);
    assert.equal(first[5]!.content, QUESTION);
  });

  test("the prompt only grows at the end (stable prefix for the KV cache)", async () => {
    const { llm } = await run([geoWeatherPlan("Barcelona", TODAY, true), { steps: [], final: null }, FINAL], {
      mode: "step-parallel",
    });
    for (let i = 1; i < llm.requests.length; i++) {
      const before = llm.requests[i - 1]!.messages;
      const now = llm.requests[i]!.messages;
      assert.deepEqual(now.slice(0, before.length), before, `request ${i} keeps request ${i - 1} as prefix`);
    }
    assert.ok((llm.lastMeter?.promptTokensReused ?? 0) > 0);
  });

  test("abort stops the run", async () => {
    const controller = new AbortController();
    const { result } = await run([geoWeatherPlan(), FINAL], {
      signal: controller.signal,
      fake: {
        handlers: {
          geocode: (_args, { signal }) => {
            controller.abort(new Error("Nutzer hat abgebrochen"));
            return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
          },
        },
      },
    });
    assert.equal(result.status, "aborted");
  });

  test("a plan that answers right away needs no tools", async () => {
    const { result, tools } = await run([{ steps: [], final: "Diese Frage kann ich leider nicht beantworten." }]);
    assert.equal(result.status, "answered");
    assert.equal(tools.calls.length, 0);
  });

  test("tool errors reported by isError are not retried", async () => {
    let n = 0;
    const { tools } = await run([geoWeatherPlan(), FINAL], {
      fake: {
        handlers: {
          geocode: () => {
            n++;
            throw new ToolReportedError("503 upstream");
          },
        },
      },
    });
    assert.equal(n, 1);
    assert.equal(tools.calls.length, 1);
  });
});
