// The server in online mode against a fake upstream on 127.0.0.1: provenance per source, cache,
// per-call offline fallback when the upstream breaks, and automatic offline mode when it is unreachable.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startTravelServer, McpToolClient, type TravelServerHandle } from "../../lib/mcp/index.js";
import { isoDates, openMeteoDaily, startFakeUpstream, type FakeHandler, type FakeUpstream } from "./fake-upstream.js";

const BCN = { lat: 41.3874, lon: 2.1686 };

const upstream: FakeHandler = (req) => {
  if (req.method === "HEAD") return { status: 200 };
  if (req.path === "/nominatim/search") {
    const q = req.query.get("q") ?? "";
    return {
      json: /barcelona/i.test(q)
        ? [
            {
              lat: "41.3828939",
              lon: "2.1774322",
              display_name: "Barcelona, Katalonien, Spanien",
              address: { country: "Spanien" },
            },
          ]
        : [],
    };
  }
  if (req.path === "/fc/v1/forecast" || req.path === "/ar/v1/archive") {
    const dates = isoDates(req.query.get("start_date")!, req.query.get("end_date")!);
    return { json: openMeteoDaily(dates, () => ({ tmin: 18, tmax: 27, precip: 0, wind: 15, code: 1 })) };
  }
  if (req.path === "/overpass" && req.method === "POST") {
    const ql = new URLSearchParams(req.body).get("data") ?? "";
    const elements = /natural"="beach/.test(ql)
      ? [
          {
            type: "way",
            id: 7,
            center: { lat: 41.3784, lon: 2.1925 },
            tags: { natural: "beach", name: "Platja de la Barceloneta" },
          },
        ]
      : [
          {
            type: "way",
            id: 8,
            center: { lat: 41.3881, lon: 2.1873 },
            tags: { leisure: "park", name: "Parc de la Ciutadella" },
          },
        ];
    return { json: { elements } };
  }
  return { status: 404, json: {} };
};

function serverEnv(base: string, cacheDir: string): Record<string, string> {
  return {
    TRAVEL_NOMINATIM_URL: `${base}/nominatim`,
    TRAVEL_FORECAST_URL: `${base}/fc`,
    TRAVEL_ARCHIVE_URL: `${base}/ar`,
    TRAVEL_OVERPASS_URL: `${base}/overpass`,
    TRAVEL_CACHE_DIR: cacheDir,
    TRAVEL_HTTP_RETRIES: "1",
    TRAVEL_HTTP_BACKOFF_MS: "10",
    TRAVEL_HTTP_TIMEOUT_MS: "3000",
    TRAVEL_NOMINATIM_INTERVAL_MS: "20",
    TRAVEL_TODAY: "2025-06-10",
  };
}

describe("travel server online against a fake upstream", () => {
  let fake: FakeUpstream;
  let server: TravelServerHandle;
  let client: McpToolClient;
  let cacheDir: string;

  before(async () => {
    fake = await startFakeUpstream(upstream);
    cacheDir = await mkdtemp(join(tmpdir(), "travel-online-"));
    server = await startTravelServer({ offline: false, env: serverEnv(fake.url, cacheDir) });
    client = await McpToolClient.connect(server.url);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
    await fake?.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("starts online after the reachability check and says the tools touch the outside world", async () => {
    assert.equal(server.mode, "online");
    assert.match(server.logs(), /Online-Modus/);
    const tools = await client.listTools();
    const readers = tools.filter((t) => t.name !== "save_trip_plan");
    assert.ok(
      readers.length >= 5 &&
        readers.every((t) => t.annotations?.openWorldHint === true && t.annotations.readOnlyHint === true),
    );
    assert.equal(tools.find((t) => t.name === "save_trip_plan")?.annotations?.readOnlyHint, false);
  });

  it("geocodes via Nominatim with an identifying User-Agent, then from the cache", async () => {
    const r = await client.callTool("geocode", { destination: "Barcelona" });
    assert.equal(r.isError, false);
    assert.deepEqual(r.data, {
      query: "Barcelona",
      lat: 41.3828939,
      lon: 2.1774322,
      display_name: "Barcelona, Katalonien, Spanien",
      country: "Spanien",
      source: "nominatim",
    });
    const searches = () => fake.requests.filter((q) => q.path === "/nominatim/search");
    assert.equal(searches().length, 1);
    assert.match(String(searches()[0]!.headers["user-agent"]), /agentic-ai-workshop-kit/);
    await client.callTool("geocode", { destination: "Barcelona" });
    assert.equal(searches().length, 1, "second answer came from the file cache");
  });

  it("routes weather by date with today = 2025-06-10", async () => {
    const at = { lat: 41.38, lon: 2.17 };
    const source = async (start_date: string, end_date: string) => {
      const r = await client.callTool("get_weather", { ...at, start_date, end_date });
      assert.equal(r.isError, false, r.text);
      return r.data as { source: string; is_estimate: boolean; reference_years: number[] | null };
    };
    const near = await source("2025-06-10", "2025-06-12");
    assert.deepEqual([near.source, near.is_estimate, near.reference_years], ["forecast", false, null]);
    assert.equal((await source("2024-03-01", "2024-03-03")).source, "archive");
    // Long ago up to the last days: measured values plus the forecast API's last days, passes the output schema.
    const split = await client.callTool("get_weather", { ...at, start_date: "2025-03-11", end_date: "2025-06-10" });
    assert.equal(split.isError, false, split.text);
    assert.deepEqual(
      [(split.data as { source: string }).source, (split.data as { is_estimate: boolean }).is_estimate],
      ["archive+forecast", false],
    );
    assert.match(split.text, /Quelle: Open-Meteo-Archiv \(Messwerte\), die letzten Tage aus der Open-Meteo-Vorhersage/);
    const far = await source("2025-08-01", "2025-08-03");
    assert.equal(far.source, "historical_fallback");
    assert.equal(far.is_estimate, true);
    assert.deepEqual(
      far.reference_years,
      [2024, 2023, 2022, 2021, 2020, 2019, 2018, 2017, 2016, 2015],
      "up to ten past years",
    );
  });

  it("finds parks and ranks spots from Overpass", async () => {
    const parks = await client.callTool("get_parks", { ...BCN, radius_km: 3 });
    assert.equal((parks.data as { source: string }).source, "overpass");
    assert.equal((parks.data as { parks: { name: string }[] }).parks[0]!.name, "Parc de la Ciutadella");
    const ranked = await client.callTool("rank_spots", {
      ...BCN,
      start_date: "2025-06-11",
      end_date: "2025-06-12",
      activity: "beach",
    });
    const d = ranked.data as { source: string; ranking: { name: string }[] };
    assert.equal(d.source, "overpass + forecast");
    assert.equal(d.ranking[0]!.name, "Platja de la Barceloneta");
  });

  it("merges identical concurrent calls into one upstream request", async () => {
    const searches = () => fake.requests.filter((q) => q.path === "/nominatim/search").length;
    const n = searches();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => client.callTool("geocode", { destination: "Barcelona, Spanien" })),
    );
    assert.ok(results.every((r) => (r.data as { source: string }).source === "nominatim"));
    assert.equal(searches() - n, 1);
  });

  it("reports an unknown place from Nominatim as a tool error", async () => {
    const r = await client.callTool("geocode", { destination: "Xyzzyville" });
    assert.equal(r.isError, true);
    assert.match(r.text, /Kein Ort gefunden für "Xyzzyville"/);
  });

  it("falls back to offline data for a call when the upstream breaks, and says so", async () => {
    fake.setHandler(() => ({ status: 503, body: "down" }));
    try {
      const r = await client.callTool("geocode", { destination: "Berlin" });
      assert.equal(r.isError, false, r.text);
      const d = r.data as { source: string; note?: string };
      assert.equal(d.source, "offline");
      assert.match(d.note ?? "", /Online-Dienst nicht erreichbar.*Nominatim ist nicht erreichbar \(HTTP 503/);
      // The breaker remembers the failure: the next geocode goes straight to the offline data.
      const n = fake.requests.length;
      const next = await client.callTool("geocode", { destination: "Wien" });
      assert.equal((next.data as { source: string }).source, "offline");
      assert.match(
        (next.data as { note?: string }).note ?? "",
        /Nominatim hat eben nicht geantwortet; der Reise-Server fragt dort erst in \d+(\.\d)? s wieder nach/,
      );
      assert.equal(fake.requests.length, n, "no upstream request while the breaker is open");
      const w = await client.callTool("get_weather", { ...BCN, start_date: "2025-06-20", end_date: "2025-06-21" });
      assert.equal((w.data as { source: string }).source, "offline");
    } finally {
      fake.setHandler(upstream);
    }
  });
});

describe("automatic offline mode", () => {
  it("goes offline when the upstream is unreachable and logs why", async () => {
    const gone = await startFakeUpstream(() => ({ status: 200 }));
    const base = gone.url;
    await gone.close(); // nothing listens there any more
    const cacheDir = await mkdtemp(join(tmpdir(), "travel-auto-"));
    const server = await startTravelServer({ offline: false, env: serverEnv(base, cacheDir) });
    try {
      assert.equal(server.mode, "offline");
      assert.match(server.logs(), /Offline-Modus, weil nicht alle Dienste erreichbar sind: .*ECONNREFUSED/);
      const client = await McpToolClient.connect(server.url);
      const r = await client.callTool("geocode", { destination: "Wien" });
      assert.equal((r.data as { source: string }).source, "offline");
      await client.close();
    } finally {
      await server.stop();
      await rm(cacheDir, { recursive: true, force: true });
    }
  });
});
