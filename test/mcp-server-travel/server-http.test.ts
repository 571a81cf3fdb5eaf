// The travel server as a real subprocess over Streamable HTTP, talked to with the SDK's own client.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTravelServer, type TravelServerHandle } from "../../lib/mcp/index.js";
import { INITIALIZE, MCP_HEADERS, rawRequest } from "./helpers.js";

let server: TravelServerHandle;
let client: Client;
const BCN = { lat: 41.3874, lon: 2.1686 };

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const data = (r: CallToolResult) => r.structuredContent as Record<string, unknown>;

before(async () => {
  server = await startTravelServer({ offline: true, env: { TRAVEL_TODAY: "2025-06-10" } });
  client = new Client({ name: "test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});
after(async () => {
  await client?.close();
  await server?.stop();
});

describe("travel server over HTTP (offline)", () => {
  it("listens on 127.0.0.1 with a free port and reports offline mode", () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(server.mode, "offline");
  });

  it("lists five read-only tools and save_trip_plan with German descriptions, input and output schemas", async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "geocode",
      "get_parks",
      "get_spots",
      "get_weather",
      "rank_spots",
      "save_trip_plan",
    ]);
    // What each description has to say, in German words (a translation or a copy of another tool's text fails).
    const expected: Record<string, string[]> = {
      geocode: ["Reiseziel", "Koordinaten", "Ortsnamen", "Datenquelle"],
      get_weather: ["Tageswetter", "Zeitraum", "Niederschlag", "Vorhersage", "Mittelwerte vergangener Jahre"],
      get_parks: ["Parks", "Grünanlagen", "Umkreis", "Luftlinie"],
      get_spots: ["Orte für eine Aktivität", "wandern", "strand", "unbekannte Aktivität"],
      rank_spots: ["Bewertet", "Punktzahl", "Regentagen", "Anreisezeit"],
      save_trip_plan: ["Reiseplan", "Markdown", "Arbeitsordner", "Freigabe"],
    };
    const english = /\b(the|and|with|for|from|returns?|within|nearest|days?|radius in)\b/i;
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object");
      assert.equal(t.outputSchema?.type, "object", t.name);
      assert.equal(t.annotations?.readOnlyHint, t.name !== "save_trip_plan", t.name);
      assert.equal(t.annotations?.openWorldHint, false, "offline mode touches no outside world");
      for (const word of expected[t.name]!)
        assert.ok(t.description?.includes(word), `${t.name}: "${word}" missing in ${JSON.stringify(t.description)}`);
      assert.doesNotMatch(t.description ?? "", english, t.name);
      for (const [name, prop] of Object.entries(t.inputSchema.properties as Record<string, { description?: string }>)) {
        assert.ok(prop.description && prop.description.length > 10, `${t.name}.${name} has a description`);
        assert.doesNotMatch(prop.description, english, `${t.name}.${name}`);
      }
    }
    const weather = tools.find((t) => t.name === "get_weather")!;
    assert.deepEqual([...(weather.inputSchema.required ?? [])].sort(), ["end_date", "lat", "lon", "start_date"]);
    const lat = (
      weather.inputSchema.properties as Record<string, { minimum?: number; maximum?: number; description?: string }>
    ).lat!;
    assert.deepEqual([lat.minimum, lat.maximum], [-90, 90]);
    assert.match(lat.description ?? "", /Breitengrad/);
  });

  it("geocode", async () => {
    const r = await call("geocode", { destination: "Barcelona, Spanien" });
    assert.equal(r.isError, undefined);
    assert.deepEqual({ lat: data(r).lat, lon: data(r).lon, source: data(r).source }, { ...BCN, source: "offline" });
    assert.match(text(r), /Barcelona.*lat 41\.3874/);
  });

  it("get_weather", async () => {
    const r = await call("get_weather", { ...BCN, start_date: "2025-07-01", end_date: "2025-07-03" });
    const d = data(r);
    assert.equal(d.source, "offline");
    assert.equal(d.is_estimate, true);
    assert.equal((d.days as unknown[]).length, 3);
    assert.equal((d.aggregates as { days: number }).days, 3);
    assert.equal(d.raw, undefined, "raw only on request");
    assert.match(text(r), /Zusammenfassung: 3 Tage/);
    const raw = await call("get_weather", {
      ...BCN,
      start_date: "2025-07-01",
      end_date: "2025-07-01",
      include_raw: true,
    });
    assert.equal((data(raw).raw as { city: string }).city, "Barcelona");
  });

  it("get_parks", async () => {
    const r = await call("get_parks", { ...BCN, radius_km: 10, max_elements: 2 });
    const d = data(r);
    assert.equal(d.source, "offline");
    assert.equal(d.count, 2);
    const parks = d.parks as { distance_km: number }[];
    assert.ok(parks[0]!.distance_km <= parks[1]!.distance_km);
  });

  it("get_spots", async () => {
    const r = await call("get_spots", { ...BCN, radius_km: 10, activity: "wandern" });
    assert.equal(data(r).activity, "hiking");
    assert.ok((data(r).count as number) > 0);
  });

  it("rank_spots", async () => {
    const r = await call("rank_spots", {
      ...BCN,
      start_date: "2025-07-01",
      end_date: "2025-07-03",
      activity: "strand",
    });
    const d = data(r);
    assert.equal(d.source, "offline");
    const ranking = d.ranking as { rank: number; score: number; travel_time_min: number; distance_km: number }[];
    assert.ok(ranking.length > 0 && ranking.length <= 5);
    assert.equal(ranking[0]!.rank, 1);
    assert.match(text(r), /Rangliste für Strand/);
  });

  it("answers invalid arguments with isError and a German message, and keeps serving", async () => {
    const bad: [string, Record<string, unknown>, RegExp][] = [
      [
        "get_weather",
        { ...BCN, start_date: "2025-07-05", end_date: "2025-07-01" },
        /end_date \(2025-07-01\) liegt vor start_date/,
      ],
      [
        "get_weather",
        { lat: "north", lon: 2, start_date: "2025-07-01", end_date: "2025-07-02" },
        /lat fehlt oder ist keine Zahl/,
      ],
      ["get_weather", { lat: 41 }, /lon fehlt.*[\s\S]*start_date fehlt/],
      [
        "get_weather",
        { lat: 95, lon: 2, start_date: "2025-07-01", end_date: "2025-07-02" },
        /lat muss zwischen -90 und 90/,
      ],
      ["get_weather", { ...BCN, start_date: "1.7.2025", end_date: "2025-07-02" }, /Format JJJJ-MM-TT/],
      ["get_parks", { ...BCN, radius_km: 5000 }, /radius_km darf höchstens 50 km/],
      ["get_parks", { ...BCN, radius_km: -1 }, /radius_km muss größer als 0/],
      ["get_spots", { lat: 41, lon: 200, radius_km: 5, activity: "x" }, /lon muss zwischen -180 und 180/],
      [
        "rank_spots",
        { ...BCN, start_date: "2025-07-01", end_date: "2025-07-02", activity: "strand", top_k: 0.5 },
        /top_k muss eine ganze Zahl/,
      ],
      ["geocode", { destination: "" }, /destination darf nicht leer sein/],
      ["geocode", { destination: "Atlantis" }, /nicht enthalten/],
      ["no_such_tool", {}, /no_such_tool/],
    ];
    for (const [name, args, msg] of bad) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(text(r), msg);
      assert.equal(r.structuredContent, undefined);
    }
    const ok = await call("geocode", { destination: "Berlin" });
    assert.equal(ok.isError, undefined);
    assert.equal(data(ok).source, "offline");
  });

  it("refuses a foreign Host header and a foreign Origin (DNS rebinding)", async () => {
    const evilHost = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, Host: "evil.example:80" },
      body: INITIALIZE,
    });
    assert.equal(evilHost.status, 403);
    assert.match(evilHost.body, /Invalid Host/);
    const evilOrigin = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, Origin: "http://evil.example" },
      body: INITIALIZE,
    });
    assert.equal(evilOrigin.status, 403);
    assert.match(evilOrigin.body, /Origin nicht erlaubt/);
    const port = new URL(server.url).port;
    const local = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
      body: INITIALIZE,
    });
    assert.equal(local.status, 200);
  });

  it("answers an unknown session with 404 and a missing session with 400", async () => {
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const unknown = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, "mcp-session-id": "nope" },
      body: list,
    });
    assert.equal(unknown.status, 404);
    const missing = await rawRequest(server.url, { method: "POST", headers: MCP_HEADERS, body: list });
    assert.equal(missing.status, 400);
  });
});
