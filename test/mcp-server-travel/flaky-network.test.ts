// The upstream clients on a classroom network (issue 15): cancellable rate-limit slots, retries ahead of
// first attempts, merged identical requests, an overall deadline, a circuit breaker, Overpass concurrency,
// cache hygiene and the climate estimate over up to ten years. Fake upstream on 127.0.0.1.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { UpstreamUnavailableError } from "../../mcp-server-travel/src/errors.js";
import { parseIsoDate } from "../../mcp-server-travel/src/dates.js";
import { FileCache, NoCache } from "../../mcp-server-travel/src/services/cache.js";
import { FallbackGeocoder } from "../../mcp-server-travel/src/services/fallback.js";
import { HttpJsonClient, type HttpOptions } from "../../mcp-server-travel/src/services/http.js";
import { NominatimGeocoder } from "../../mcp-server-travel/src/services/nominatim.js";
import { OpenMeteoClient } from "../../mcp-server-travel/src/services/open-meteo.js";
import { OverpassPlaces } from "../../mcp-server-travel/src/services/overpass.js";
import { ConcurrencyLimit, CallSpacer } from "../../mcp-server-travel/src/services/rate-limit.js";
import { OnlineWeather } from "../../mcp-server-travel/src/services/weather-online.js";
import type { GeocodeService } from "../../mcp-server-travel/src/services/types.js";
import { upstreamConfigFromEnv } from "../../mcp-server-travel/src/config.js";
import { DEFAULT_TOOL_TIMEOUT_MS, FALLBACK_MARGIN_MS, TRAVEL_UPSTREAM_DEADLINE_MS } from "../../lib/timeouts.js";
import { isoDates, openMeteoDaily, startFakeUpstream, type FakeReply, type FakeUpstream } from "./fake-upstream.js";
import { spacerOnFakeClock } from "./helpers.js";

const http = (over: Partial<HttpOptions> = {}) =>
  new HttpJsonClient({
    userAgent: "t",
    timeoutMs: 2000,
    retries: 2,
    backoffMs: 10,
    maxBackoffMs: 20,
    breakerOpenMs: 0,
    ...over,
  });
const ROM = [{ lat: "41.89", lon: "12.48", display_name: "Rom, Latium, Italien", address: { country: "Italien" } }];
const dayNumber = (s: string) => parseIsoDate(s)!;
const never = () => new Promise<FakeReply>(() => undefined);

let fake: FakeUpstream;
before(async () => {
  fake = await startFakeUpstream(() => ({ json: ROM }));
});
after(() => fake.close());

describe("CallSpacer slots", () => {
  it("a cancelled waiter frees its slot for the next one (injected clock)", async () => {
    const { limiter, clock } = spacerOnFakeClock(1000);
    const cancel = new AbortController();
    const starts: string[] = [];
    const a = limiter.acquire().then(() => starts.push(`a@${clock.now}`));
    const b = limiter.acquire({ signal: cancel.signal }).then(
      () => starts.push(`b@${clock.now}`),
      () => starts.push("b cancelled"),
    );
    const c = limiter.acquire().then(() => starts.push(`c@${clock.now}`));
    cancel.abort();
    await Promise.all([a, b, c]);
    assert.deepEqual(
      starts.sort(),
      ["a@0", "b cancelled", "c@1000"],
      "c takes the slot b gave up, not the one after it",
    );
    assert.equal(limiter.waiting, 0);
  });

  it("a retry waits at the front of the queue, not behind later first attempts", async () => {
    const { limiter } = spacerOnFakeClock(1000);
    const order: string[] = [];
    await limiter.acquire();
    const first = limiter.acquire().then(() => order.push("first attempt of B"));
    const retry = limiter.acquire({ priority: true }).then(() => order.push("retry of A"));
    await Promise.all([first, retry]);
    assert.deepEqual(order, ["retry of A", "first attempt of B"]);
  });

  it("ConcurrencyLimit hands a freed place to the next waiter and drops cancelled ones", async () => {
    const limit = new ConcurrencyLimit(2);
    const r1 = await limit.acquire();
    await limit.acquire();
    const cancel = new AbortController();
    const waiting = limit.acquire({ signal: cancel.signal });
    const third = limit.acquire();
    cancel.abort();
    await assert.rejects(waiting);
    r1();
    const r3 = await third;
    assert.equal(limit.running, 2);
    r3();
    assert.equal(limit.running, 1);
  });
});

describe("merged identical requests", () => {
  it("10 concurrent geocode('Rom') reach the upstream once", async () => {
    fake.setHandler(() => ({ json: ROM, delayMs: 100 }));
    const n = fake.requests.length;
    const g = new NominatimGeocoder(http(), new NoCache(), { baseUrl: fake.url, intervalMs: 1000 });
    const places = await Promise.all(Array.from({ length: 10 }, () => g.geocode("Rom")));
    assert.equal(fake.requests.length - n, 1);
    assert.ok(places.every((p) => p.lat === 41.89 && p.source === "nominatim"));
  });

  it("one caller cancelling leaves the others their answer; all cancelling frees the rate-limit slot", async () => {
    fake.setHandler(() => ({ json: ROM, delayMs: 200 }));
    let waitEnded = false;
    const limiter = new CallSpacer(60_000, Date.now, (ms, signal) => {
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          waitEnded = true;
          resolve();
        });
      });
    });
    const g = new NominatimGeocoder(http(), new NoCache(), { baseUrl: fake.url, intervalMs: 60_000, limiter });
    const quitter = new AbortController();
    const kept = g.geocode("Rom");
    const left = g.geocode("Rom", quitter.signal);
    quitter.abort();
    await assert.rejects(left);
    assert.equal((await kept).lat, 41.89);
    // The next slot lies a minute ahead; two callers of the same query both cancel: the wait ends at once.
    const c1 = new AbortController();
    const c2 = new AbortController();
    const waiting = [g.geocode("Paris", c1.signal), g.geocode("Paris", c2.signal)].map((p) =>
      p.catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(limiter.waiting, 1, "merged: one queued request");
    c1.abort();
    assert.equal(limiter.waiting, 1, "still wanted by the second caller");
    c2.abort();
    await Promise.all(waiting);
    assert.equal(limiter.waiting, 0, "slot given back");
    assert.ok(waitEnded, "nobody waits any more: the minute's wait ends (no timer keeps the program running)");
  });
});

describe("deadline and circuit breaker", () => {
  it("a silent upstream fails at the overall deadline, not after attempts × per-attempt timeout", async () => {
    fake.setHandler(never);
    await assert.rejects(
      http({ timeoutMs: 60_000, deadlineMs: 300 }).json({ service: "Test", url: `${fake.url}/silent` }, z.unknown()),
      (e: unknown) => {
        assert.ok(e instanceof UpstreamUnavailableError);
        // Either the overall deadline or the last attempt's timeout (cut to what was left of it) fires
        // first; both mean one attempt within 0.3 s instead of 3 × 60 s.
        assert.match(
          e.message,
          /Test hat nicht innerhalb von 0\.3 s geantwortet|keine Antwort innerhalb von \d{1,3} ms, 1 Versuch/,
        );
        return true;
      },
    );
  });

  it("remembers a failing upstream: the next call fails at once without a request, then one probe closes it again", async () => {
    let status = 503;
    fake.setHandler(() => ({ status, json: ROM }));
    const client = http({ breakerOpenMs: 300 });
    const n = fake.requests.length;
    await assert.rejects(
      client.json({ service: "Nominatim", url: `${fake.url}/search?q=a` }, z.unknown()),
      /HTTP 503, 3 Versuche/,
    );
    assert.equal(fake.requests.length - n, 3);
    await assert.rejects(
      client.json({ service: "Nominatim", url: `${fake.url}/search?q=b` }, z.unknown()),
      (e: unknown) => {
        assert.ok(e instanceof UpstreamUnavailableError);
        assert.match(
          e.message,
          /Nominatim hat eben nicht geantwortet; der Reise-Server fragt dort erst in 0\.\d s wieder nach/,
        );
        return true;
      },
    );
    assert.equal(fake.requests.length - n, 3, "no request while the breaker is open");
    status = 200;
    await new Promise((r) => setTimeout(r, 350));
    assert.deepEqual(await client.json({ service: "Nominatim", url: `${fake.url}/search?q=c` }, z.unknown()), ROM);
    assert.deepEqual(await client.json({ service: "Nominatim", url: `${fake.url}/search?q=d` }, z.unknown()), ROM);
  });

  it("when the breaker opens, calls still queued for the same upstream go to the fallback at once", async () => {
    fake.setHandler(() => ({ status: 503, body: "down" }));
    const n = fake.requests.length;
    const online = new NominatimGeocoder(http({ breakerOpenMs: 30_000 }), new NoCache(), {
      baseUrl: fake.url,
      intervalMs: 100,
    });
    const offline: GeocodeService = {
      geocode: async (q) => ({ lat: 1, lon: 2, display_name: `${q} (offline)`, country: null, source: "offline" }),
    };
    const g = new FallbackGeocoder(online, offline);
    const cities = ["Rom", "Paris", "Wien", "Berlin", "Madrid", "Lissabon"];
    const places = await Promise.all(cities.map((c) => g.geocode(c)));
    assert.ok(places.every((p) => p.source === "offline" && /Offline-Daten verwendet \(Nominatim/.test(p.note ?? "")));
    // Rom's three attempts (its retries ahead of the others' first attempts), then the breaker sends the rest offline.
    assert.deepEqual(
      fake.requests.slice(n).map((r) => r.query.get("q")),
      ["Rom", "Rom", "Rom"],
    );
  });
});

describe("Overpass", () => {
  it("never runs more than two queries at once", async () => {
    let running = 0;
    let peak = 0;
    fake.setHandler(async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 40));
      running--;
      return { json: { elements: [] } };
    });
    const places = new OverpassPlaces(http(), new NoCache(), { overpassUrl: `${fake.url}/api/interpreter` });
    await Promise.all(Array.from({ length: 8 }, (_, i) => places.parks({ lat: 41 + i / 10, lon: 2 }, 5)));
    assert.equal(peak, 2);
  });
});

describe("cache hygiene", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "travel-hygiene-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("treats an entry that breaks the tool's output schema as a miss and deletes it", async () => {
    fake.setHandler(() => ({ json: ROM }));
    const cache = new FileCache(join(dir, "bad"));
    await cache.set("nominatim", "rom", {
      lat: 999,
      lon: 12.48,
      display_name: "Rom",
      country: null,
      source: "nominatim",
    });
    const n = fake.requests.length;
    const g = new NominatimGeocoder(http(), cache, { baseUrl: fake.url, intervalMs: 0 });
    assert.equal((await g.geocode("Rom")).lat, 41.89);
    assert.equal(fake.requests.length - n, 1, "fetched again");
    assert.equal((await g.geocode("Rom")).lat, 41.89);
    assert.equal(fake.requests.length - n, 1, "the fresh value is cached");
  });

  it("sweep() removes temp files of dead writers and expired entries, and keeps fresh ones", async () => {
    let now = 10_000_000;
    const cache = new FileCache(join(dir, "sweep"), () => now);
    await cache.set("a", "old", 1, 1000);
    await cache.set("a", "fresh", 2, 60_000);
    const deadPid = 2 ** 22 + 7; // above pid_max on Linux: never a running process
    await writeFile(join(dir, "sweep", "a", `x.json.${deadPid}.0badc0de.tmp`), "{half");
    await writeFile(join(dir, "sweep", "a", `y.json.${process.pid}.0badc0de.tmp`), "{being written");
    await mkdir(join(dir, "sweep", "empty"));
    now += 2000;
    assert.deepEqual(await cache.sweep(), { tempFiles: 1, expired: 1 });
    const left = (await readdir(join(dir, "sweep", "a"))).sort();
    assert.equal(left.length, 2);
    assert.ok(
      left.some((f) => f.endsWith(`${process.pid}.0badc0de.tmp`)),
      "a live writer's temp file stays",
    );
    assert.equal(await cache.get("a", "fresh", Infinity, z.number()), 2);
  });
});

describe("climate estimate for a far-future range", () => {
  it("takes up to ten past years, skips the ones that fail and names the years used", async () => {
    const failing = new Set(["2016", "2019"]);
    fake.setHandler((req) => {
      const dates = isoDates(req.query.get("start_date")!, req.query.get("end_date")!);
      if (failing.has(dates[0]!.slice(0, 4))) return { status: 404, json: {} };
      return {
        json: openMeteoDaily(dates, () => ({
          tmin: 10,
          tmax: Number(dates[0]!.slice(0, 4)) - 2000,
          precip: 0,
          wind: 10,
          code: 1,
        })),
      };
    });
    const weather = new OnlineWeather(
      new OpenMeteoClient(http({ retries: 0 }), new NoCache(), { forecastUrl: fake.url, archiveUrl: fake.url }),
    );
    const n = fake.requests.length;
    const r = await weather.daily({
      lat: 41.39,
      lon: 2.17,
      start: dayNumber("2025-08-01"),
      end: dayNumber("2025-08-02"),
      today: dayNumber("2025-06-10"),
    });
    assert.equal(fake.requests.length - n, 10);
    assert.deepEqual(r.reference_years, [2024, 2023, 2022, 2021, 2020, 2018, 2017, 2015]);
    assert.equal(r.days[0]!.tmax_c, 20); // mean of 24, 23, 22, 21, 20, 18, 17, 15
    assert.match(r.note, /2015, 2017, 2018, 2020, 2021, 2022, 2023, 2024/);
    assert.match(r.note, /8 von 10 Jahren/);
  });

  it("needs at least three years", async () => {
    let served = 0;
    fake.setHandler((req) => {
      const dates = isoDates(req.query.get("start_date")!, req.query.get("end_date")!);
      return ++served <= 2
        ? { json: openMeteoDaily(dates, () => ({ tmin: 1, tmax: 2, precip: 0, wind: 1, code: 1 })) }
        : { status: 503, json: {} };
    });
    const weather = new OnlineWeather(
      new OpenMeteoClient(http({ retries: 0 }), new NoCache(), { forecastUrl: fake.url, archiveUrl: fake.url }),
    );
    await assert.rejects(
      weather.daily({
        lat: 41.39,
        lon: 2.17,
        start: dayNumber("2025-08-01"),
        end: dayNumber("2025-08-02"),
        today: dayNumber("2025-06-10"),
      }),
      (e: unknown) => {
        assert.ok(e instanceof UpstreamUnavailableError, "so the offline fallback answers");
        assert.match(e.message, /nur 2 von 10 Jahren/);
        return true;
      },
    );
  });
});

describe("one timing contract (lib/timeouts.ts)", () => {
  it("the server's upstream deadline plus the fallback margin fits inside the agent's default tool timeout", () => {
    assert.ok(TRAVEL_UPSTREAM_DEADLINE_MS + FALLBACK_MARGIN_MS <= DEFAULT_TOOL_TIMEOUT_MS);
    assert.equal(upstreamConfigFromEnv({}, "/x").deadlineMs, TRAVEL_UPSTREAM_DEADLINE_MS);
    assert.equal(
      upstreamConfigFromEnv({ TRAVEL_UPSTREAM_DEADLINE_MS: "600000" }, "/x").deadlineMs,
      DEFAULT_TOOL_TIMEOUT_MS - FALLBACK_MARGIN_MS,
    );
  });
});
