// A classroom on flaky Wi-Fi: 200 concurrent mixed tool calls (20 participants × 10 calls) against the
// travel server (subprocess, online mode) whose upstream is a local fake on 127.0.0.1 in four modes:
// healthy, 503, refused (port closed) and silent (never answers). Prints latency p50/p99, client
// timeouts, upstream requests and the server's RSS per mode. Before that, two memory checks on an offline server:
// sessions opened and abandoned (the session cap), and sessions that stay open and make many calls (a
// whole workshop day of one notebook each: the server must not keep what it answered).
// Run: npx tsx bench/classroom.bench.ts [--calls 200] [--timeout-ms 60000] [--modes healthy,503,refused,silent]
//        [--sessions 2000] [--session-calls 250]
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startTravelServer, McpToolClient } from "../lib/mcp/index.js";
import {
  isoDates,
  openMeteoDaily,
  startFakeUpstream,
  type FakeReply,
  type FakeRequest,
} from "../test/mcp-server-travel/fake-upstream.js";
import { ignore } from "../lib/util.js";
import { printMarkdownTable } from "./markdown-table.js";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "200" },
    "timeout-ms": { type: "string", default: "60000" },
    modes: { type: "string", default: "healthy,503,refused,silent" },
    sessions: { type: "string", default: "2000" },
    "session-calls": { type: "string", default: "250" },
  },
});
const CALLS = Math.max(20, Number(values.calls));
const CLIENT_TIMEOUT_MS = Number(values["timeout-ms"]);
const PARTICIPANTS = 20;
const TODAY = "2025-06-10";
type Mode = "healthy" | "503" | "refused" | "silent";
const MODES = values.modes.split(",") as Mode[];

const CITIES = [
  { name: "Rom", lat: 41.8933, lon: 12.4829 },
  { name: "Berlin", lat: 52.52, lon: 13.405 },
  { name: "Paris", lat: 48.8566, lon: 2.3522 },
  { name: "Barcelona", lat: 41.3874, lon: 2.1686 },
  { name: "Wien", lat: 48.2082, lon: 16.3738 },
];

/** The i-th call of the mix: 20 % geocode, 30 % weather (forecast/archive/far future), 25 % parks, 25 % spots/rank. */
function mixedCall(i: number): { name: string; args: Record<string, unknown> } {
  const city = CITIES[(i + Math.floor(i / 20)) % CITIES.length]!; // every kind of call for every city
  const at = { lat: city.lat, lon: city.lon };
  switch (i % 20) {
    case 0:
    case 1:
    case 2:
    case 3:
      return { name: "geocode", args: { destination: city.name } };
    case 4:
    case 5:
      return { name: "get_weather", args: { ...at, start_date: "2025-06-11", end_date: "2025-06-14" } };
    case 6:
    case 7:
      return { name: "get_weather", args: { ...at, start_date: "2025-03-01", end_date: "2025-03-05" } };
    case 8:
    case 9:
      return { name: "get_weather", args: { ...at, start_date: "2025-09-01", end_date: "2025-09-03" } };
    case 10:
    case 11:
    case 12:
    case 13:
    case 14:
      return { name: "get_parks", args: { ...at, radius_km: 5 } };
    case 15:
    case 16:
    case 17:
      return { name: "get_spots", args: { ...at, activity: "sightseeing", radius_km: 10 } };
    default:
      return {
        name: "rank_spots",
        args: { ...at, activity: "running", radius_km: 10, start_date: "2025-06-11", end_date: "2025-06-13" },
      };
  }
}

function healthy(req: FakeRequest): FakeReply {
  const delayMs = 50;
  if (req.path === "/search") {
    const q = req.query.get("q") ?? "";
    const city = CITIES.find((c) => c.name === q) ?? CITIES[0]!;
    return {
      delayMs,
      json: [
        {
          lat: String(city.lat),
          lon: String(city.lon),
          display_name: `${city.name} (fake)`,
          address: { country: "Fake" },
        },
      ],
    };
  }
  if (req.path === "/v1/forecast" || req.path === "/v1/archive") {
    const dates = isoDates(req.query.get("start_date")!, req.query.get("end_date")!);
    return {
      delayMs,
      json: openMeteoDaily(dates, (i) => ({ tmin: 12 + i, tmax: 22 + i, precip: i % 3, wind: 15, code: 1 })),
    };
  }
  const lat = Number(/,(-?[\d.]+),/.exec(decodeURIComponent(req.body))?.[1] ?? 0);
  return {
    delayMs,
    json: {
      elements: [
        {
          type: "node",
          id: 1,
          lat: lat + 0.01,
          lon: 12.5,
          tags: { name: "Fake-Park", leisure: "park", tourism: "museum" },
        },
      ],
    },
  };
}

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

interface Row {
  mode: Mode;
  p50: number;
  p99: number;
  geoP99: number;
  timeouts: number;
  toolErrors: number;
  offline: number;
  upstream: number;
  rssStartMb: number;
  rssEndMb: number;
  wallS: number;
}

async function runMode(mode: Mode): Promise<Row> {
  const fake = await startFakeUpstream(healthy);
  const cacheDir = await mkdtemp(join(tmpdir(), "travel-bench-cache-"));
  const env = {
    TRAVEL_TODAY: TODAY,
    TRAVEL_CACHE_DIR: cacheDir,
    TRAVEL_NOMINATIM_URL: fake.url,
    TRAVEL_FORECAST_URL: fake.url,
    TRAVEL_ARCHIVE_URL: fake.url,
    TRAVEL_OVERPASS_URL: `${fake.url}/api/interpreter`,
  };
  // Start while the upstream is healthy (the start-up reachability check would pick offline mode otherwise).
  const server = await startTravelServer({ offline: false, env, timeoutMs: 60_000 });
  const clients: McpToolClient[] = [];
  try {
    if (server.mode !== "online") throw new Error(`server started in ${server.mode} mode`);
    for (let p = 0; p < PARTICIPANTS; p++)
      clients.push(await McpToolClient.connect(server.url, { timeoutMs: CLIENT_TIMEOUT_MS }));
    const rssStart = await rssKb(server.pid);
    if (mode === "503") fake.setHandler(() => ({ status: 503, body: "Service Unavailable" }));
    if (mode === "silent") fake.setHandler(() => new Promise<FakeReply>(() => undefined));
    if (mode === "refused") await fake.close();
    fake.requests.length = 0;

    const latencies: number[] = [];
    const geoLatencies: number[] = [];
    let timeouts = 0;
    let toolErrors = 0;
    let offline = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        const call = mixedCall(i);
        const client = clients[i % PARTICIPANTS]!;
        const t = performance.now();
        try {
          const r = await client.callTool(call.name, call.args, { timeoutMs: CLIENT_TIMEOUT_MS });
          if (r.isError) toolErrors++;
          const source = (r.data as { source?: string } | undefined)?.source;
          if (source === "offline") offline++;
        } catch (error) {
          if ((error as Error).name.includes("Timeout")) timeouts++;
          else toolErrors++;
        }
        const ms = performance.now() - t;
        latencies.push(ms);
        if (call.name === "geocode") geoLatencies.push(ms);
      }),
    );
    const wallS = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    geoLatencies.sort((a, b) => a - b);
    return {
      mode,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      geoP99: percentile(geoLatencies, 99),
      timeouts,
      toolErrors,
      offline,
      upstream: fake.requests.length,
      rssStartMb: rssStart / 1024,
      rssEndMb: (await rssKb(server.pid)) / 1024,
      wallS,
    };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(ignore("closing a client that is already gone"))));
    await server.stop();
    await fake.close().catch(ignore("the fake model server may have closed already"));
    await rm(cacheDir, { recursive: true, force: true });
  }
}

/** Opens `count` sessions without ever closing them (clients that vanish); the server's RSS before and after. */
async function sessionChurn(count: number): Promise<{ startMb: number; endMb: number; open: number }> {
  const server = await startTravelServer({ offline: true, timeoutMs: 60_000 });
  try {
    const init = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
    });
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const open = async () => {
      const r = await fetch(server.url, { method: "POST", headers, body: init });
      await r.text();
    };
    for (let i = 0; i < 20; i++) await open(); // warm-up
    await new Promise((r) => setTimeout(r, 500));
    const startKb = await rssKb(server.pid);
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < count) {
          next++;
          await open();
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const health = (await (await fetch(new URL("/healthz", server.url))).json()) as { sessions: number };
    return { startMb: startKb / 1024, endMb: (await rssKb(server.pid)) / 1024, open: health.sessions };
  } finally {
    await server.stop();
  }
}

/** Every participant keeps one session open and makes `calls` calls in it, as a notebook does over a day. */
async function longSessions(calls: number): Promise<{ startMb: number; endMb: number }> {
  const server = await startTravelServer({ offline: true, env: { TRAVEL_TODAY: TODAY }, timeoutMs: 60_000 });
  const clients: McpToolClient[] = [];
  try {
    for (let p = 0; p < PARTICIPANTS; p++)
      clients.push(await McpToolClient.connect(server.url, { timeoutMs: CLIENT_TIMEOUT_MS }));
    await Promise.all(clients.map((c) => c.callTool("get_parks", { lat: 41.8933, lon: 12.4829, radius_km: 5 })));
    await new Promise((r) => setTimeout(r, 500));
    const startKb = await rssKb(server.pid);
    await Promise.all(
      clients.map(async (client, p) => {
        for (let i = 0; i < calls; i++) {
          const call = mixedCall(p * calls + i);
          // Offline: the weather and ranking calls answer from climate normals, the rest from bundled data.
          await client.callTool(call.name, call.args, { timeoutMs: CLIENT_TIMEOUT_MS });
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 1000));
    return { startMb: startKb / 1024, endMb: (await rssKb(server.pid)) / 1024 };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(ignore("closing a client that is already gone"))));
    await server.stop();
  }
}

async function main(): Promise<void> {
  const sessions = Number(values.sessions);
  if (sessions > 0) {
    const s = await sessionChurn(sessions);
    console.log(`Session churn: ${sessions} sessions opened and never closed (offline server, default cap)`);
    console.log("goal (issue 15): RSS after ≤ 1.3 × RSS before\n");
    printMarkdownTable(
      ["sessions opened", "sessions open at end", "RSS before MB", "RSS after MB", "ratio"],
      [[String(sessions), String(s.open), s.startMb.toFixed(0), s.endMb.toFixed(0), (s.endMb / s.startMb).toFixed(2)]],
    );
    console.log("");
  }
  const sessionCalls = Number(values["session-calls"]);
  if (sessionCalls > 0) {
    const s = await longSessions(sessionCalls);
    console.log(
      `Long sessions: ${PARTICIPANTS} sessions kept open, ${sessionCalls} mixed calls in each (offline server)`,
    );
    console.log("goal: RSS does not grow with the number of calls (a session keeps nothing per answered call)\n");
    printMarkdownTable(
      ["calls", "RSS before MB", "RSS after MB", "ratio"],
      [
        [
          String(PARTICIPANTS * sessionCalls),
          s.startMb.toFixed(0),
          s.endMb.toFixed(0),
          (s.endMb / s.startMb).toFixed(2),
        ],
      ],
    );
    console.log("");
  }
  const rows: Row[] = [];
  for (const mode of MODES) rows.push(await runMode(mode));
  console.log(
    `Classroom load: ${CALLS} concurrent mixed calls from ${PARTICIPANTS} sessions, client timeout ${CLIENT_TIMEOUT_MS / 1000} s, ` +
      `fake upstream on 127.0.0.1, Node ${process.version}`,
  );
  console.log("goal (issue 15): 0 client timeouts; geocode p99 ≤ 10 s in every mode\n");
  const f = (ms: number) => (ms / 1000).toFixed(2);
  printMarkdownTable(
    [
      "mode",
      "p50 s",
      "p99 s",
      "geocode p99 s",
      "timeouts",
      "tool errors",
      "offline answers",
      "upstream requests",
      "RSS start MB",
      "RSS end MB",
      "wall s",
    ],
    rows.map((r) => [
      r.mode,
      f(r.p50),
      f(r.p99),
      f(r.geoP99),
      String(r.timeouts),
      String(r.toolErrors),
      String(r.offline),
      String(r.upstream),
      r.rssStartMb.toFixed(0),
      r.rssEndMb.toFixed(0),
      r.wallS.toFixed(1),
    ]),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
