// The agent loop against the real travel server (subprocess, offline data, one MCP session),
// with a scripted planner behind the Llm interface.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { RunAgentOptions } from "../../lib/agent/loop.js";
import { FALLBACK_ANSWER } from "../../lib/agent/prompts.js";
import type { ScriptedReply } from "../../lib/testing/scripted-llm.js";
import { buildPlanJsonSchema } from "../../lib/plan/plan.js";
import { checkPlan } from "../../lib/plan/check.js";
import { startTravelServer, McpToolClient, type TravelServerHandle } from "../../lib/mcp/index.js";
import type { ToolInfo } from "../../lib/mcp/types.js";
import { geoWeatherPlan, TODAY } from "./fixtures.js";
import { eventsOf, isFinalSchema, runScripted } from "../helpers/scripted-agent.js";

let server: TravelServerHandle;
let client: McpToolClient;
let catalog: ToolInfo[];

before(async () => {
  server = await startTravelServer({ offline: true, timeoutMs: 60_000 });
  client = await McpToolClient.connect(server.url);
  catalog = await client.listTools();
});

after(async () => {
  await client?.close();
  await server?.stop();
});

const FINAL = { steps: [], final: "In Barcelona sind heute bis zu 14 °C zu erwarten." };

const run = (replies: ScriptedReply[], options: Partial<RunAgentOptions> = {}) =>
  runScripted(replies, {
    question: `Wie ist heute (${TODAY}) das Wetter in Barcelona?`,
    tools: client,
    catalog,
    today: TODAY,
    ...options,
  });

describe("runAgent with the real travel server (offline)", () => {
  test("the catalog: five read-only tools and save_trip_plan; scripted plans fit its grammar schema", () => {
    assert.deepEqual(catalog.map((t) => t.name).sort(), [
      "geocode",
      "get_parks",
      "get_spots",
      "get_weather",
      "rank_spots",
      "save_trip_plan",
    ]);
    assert.deepEqual(
      catalog.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name),
      ["save_trip_plan"],
    );
    assert.ok(JSON.stringify(buildPlanJsonSchema(catalog)).includes('"const":"rank_spots"'));
    assert.deepEqual(checkPlan(geoWeatherPlan() as never, catalog).problems, []);
  });

  test("geocode → weather chain", async () => {
    const { result, events } = await run([geoWeatherPlan(), FINAL]);
    assert.equal(result.status, "answered");
    assert.deepEqual(result.toolResults.geo_barcelona, {
      query: "Barcelona",
      lat: 41.3874,
      lon: 2.1686,
      display_name: "Barcelona, Spanien",
      country: "Spanien",
      source: "offline",
    });
    const weather = result.toolResults.wetter_barcelona as { source: string; days: { date: string }[] };
    assert.equal(weather.source, "offline");
    assert.equal(weather.days[0]?.date, TODAY);
    assert.deepEqual(eventsOf(events, "tool_call").find((e) => e.toolName === "get_weather")?.arguments, {
      lat: 41.3874,
      lon: 2.1686,
      start_date: TODAY,
      end_date: TODAY,
    });
  });

  test("parallel step: weather in two cities, then jogging spots ranked for the date", async () => {
    const plan = {
      steps: [
        {
          description: "Orte",
          tools: ["Barcelona", "Berlin"].map((c) => ({
            id: `geo_${c}`,
            name: "geocode",
            arguments: { destination: c },
          })),
        },
        {
          description: "Wetter und Jogging-Orte",
          tools: [
            ...["Barcelona", "Berlin"].map((c) => ({
              id: `wetter_${c}`,
              name: "get_weather",
              arguments: {
                lat: { $ref: `geo_${c}.lat` },
                lon: { $ref: `geo_${c}.lon` },
                start_date: TODAY,
                end_date: TODAY,
              },
            })),
            {
              id: "jog_Barcelona",
              name: "rank_spots",
              arguments: {
                lat: { $ref: "geo_Barcelona.lat" },
                lon: "$ref:geo_Barcelona.lon",
                start_date: TODAY,
                end_date: TODAY,
                activity: "joggen",
                radius_km: null,
                top_k: 3,
              },
            },
          ],
        },
      ],
      final: null,
    };
    const { result, events } = await run([plan, plan, FINAL], { mode: "step-parallel" });
    assert.equal(result.status, "answered");
    assert.deepEqual(Object.keys(result.toolResults).sort(), [
      "geo_Barcelona",
      "geo_Berlin",
      "jog_Barcelona",
      "wetter_Barcelona",
      "wetter_Berlin",
    ]);
    assert.equal(eventsOf(events, "tool_error").length, 0);
    assert.deepEqual(
      eventsOf(events, "step_start").map((e) => e.toolIds.length),
      [2, 3],
    );
    const ranked = result.toolResults.jog_Barcelona as { activity: string; ranking: { rank: number }[] };
    assert.equal(ranked.activity, "running");
    assert.deepEqual(
      ranked.ranking.map((r) => r.rank),
      [1, 2, 3],
      "top_k 3, radius_km null = server default",
    );
  });

  test("replan after a failing tool", async () => {
    const unknownPlace = {
      steps: [
        {
          description: "",
          tools: [{ id: "geo_x", name: "geocode", arguments: { destination: "Atlantis-Nirgendwo" } }],
        },
      ],
      final: null,
    };
    const { result, llm, events } = await run([unknownPlace, geoWeatherPlan(), FINAL]);
    assert.equal(result.status, "answered");
    assert.equal(eventsOf(events, "tool_error")[0]?.errorKind, "tool");
    assert.match(llm.requests[1]!.messages.at(-1)!.content, /Atlantis-Nirgendwo.*nicht enthalten/);
    assert.ok(result.toolResults.wetter_barcelona);
  });

  test("schema violations after resolution are caught before the call (server limits)", async () => {
    const tooFar = {
      steps: [
        {
          description: "",
          tools: [{ id: "p", name: "get_parks", arguments: { lat: 41.4, lon: 2.2, radius_km: 500 } }],
        },
      ],
      final: null,
    };
    const { events } = await run([tooFar, FINAL]);
    assert.deepEqual(
      eventsOf(events, "validation_problems")[0]?.problems.map((p) => p.kind),
      ["invalid_arguments"],
    );
  });

  test("final forcing and max iterations", async () => {
    const forced = await run([
      geoWeatherPlan(),
      geoWeatherPlan(),
      (r) => (isFinalSchema(r) ? FINAL : geoWeatherPlan()),
    ]);
    assert.equal(forced.result.status, "answered");
    assert.equal(eventsOf(forced.events, "nudge").length, 1);

    let n = 0;
    const endless: ScriptedReply = () => ({
      steps: [{ description: "", tools: [{ id: `g${n++}`, name: "geocode", arguments: { destination: "Rom" } }] }],
      final: null,
    });
    const capped = await run([endless, endless, endless], { maxIterations: 3 });
    assert.equal(capped.result.status, "max_iterations");
    assert.equal(capped.result.final, FALLBACK_ANSWER);
  });

  test("approval reject (a tool configured as side-effecting)", async () => {
    const parks = {
      steps: [
        { description: "", tools: [{ id: "p", name: "get_parks", arguments: { lat: 41.4, lon: 2.2, radius_km: 2 } }] },
      ],
      final: null,
    };
    const { llm, events } = await run([parks, FINAL], {
      approval: { sideEffecting: ["get_parks"] },
      approve: () => ({ approved: false, feedback: "Keine Parks, bitte." }),
    });
    assert.equal(eventsOf(events, "tool_error")[0]?.errorKind, "rejected");
    assert.equal(eventsOf(events, "tool_call").length, 0);
    assert.match(llm.requests[1]!.messages.at(-1)!.content, /abgelehnt: Keine Parks, bitte\./);
  });
});
