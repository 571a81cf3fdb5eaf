// Upstream clients (HTTP core, Nominatim, Open-Meteo, Overpass, cache, rate limit) against a fake upstream.
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { NotFoundError, UpstreamResponseError, UpstreamUnavailableError } from "../../mcp-server-travel/src/errors.js";
import { FileCache, NoCache } from "../../mcp-server-travel/src/services/cache.js";
import { HttpJsonClient, type HttpOptions } from "../../mcp-server-travel/src/services/http.js";
import { NominatimGeocoder } from "../../mcp-server-travel/src/services/nominatim.js";
import { OpenMeteoClient } from "../../mcp-server-travel/src/services/open-meteo.js";
import { OverpassPlaces } from "../../mcp-server-travel/src/services/overpass.js";
import { CallSpacer } from "../../mcp-server-travel/src/services/rate-limit.js";
import { isoDates, openMeteoDaily, startFakeUpstream, type FakeUpstream } from "./fake-upstream.js";
import { spacerOnFakeClock } from "./helpers.js";

const UA = "test-agent/1.0 (kit tests)";
const sleeps: number[] = [];
const http = (over: Partial<HttpOptions> = {}) =>
  new HttpJsonClient({
    userAgent: UA,
    timeoutMs: 300,
    retries: 2,
    backoffMs: 10,
    maxBackoffMs: 50,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...over,
  });
const Anything = z.object({ ok: z.boolean() });

let fake: FakeUpstream;
let cacheDir: string;

before(async () => {
  fake = await startFakeUpstream(() => ({ json: { ok: true } }));
  cacheDir = await mkdtemp(join(tmpdir(), "travel-cache-"));
});
after(async () => {
  await fake.close();
  await rm(cacheDir, { recursive: true, force: true });
});

describe("HttpJsonClient", () => {
  it("sends the User-Agent and validates the JSON", async () => {
    fake.setHandler(() => ({ json: { ok: true } }));
    const n = fake.requests.length;
    const data = await http().json({ service: "Test", url: `${fake.url}/x` }, Anything);
    assert.deepEqual(data, { ok: true });
    assert.equal(fake.requests[n]?.headers["user-agent"], UA);
  });

  it("retries after 429 (honouring Retry-After) and then succeeds", async () => {
    let calls = 0;
    fake.setHandler(() =>
      ++calls === 1 ? { status: 429, headers: { "Retry-After": "0" }, json: {} } : { json: { ok: true } },
    );
    sleeps.length = 0;
    const data = await http().json({ service: "Test", url: `${fake.url}/rl` }, Anything);
    assert.deepEqual(data, { ok: true });
    assert.equal(calls, 2);
    assert.deepEqual(sleeps, [0], "Retry-After: 0 means retry at once");
  });

  it("gives up on persistent 500 with UpstreamUnavailableError after retries + 1 attempts, backing off", async () => {
    let calls = 0;
    fake.setHandler(() => {
      calls++;
      return { status: 500, body: "boom" };
    });
    sleeps.length = 0;
    await assert.rejects(http().json({ service: "Test", url: `${fake.url}/500` }, Anything), (e: unknown) => {
      assert.ok(e instanceof UpstreamUnavailableError);
      assert.equal(e.status, 500);
      assert.match(e.message, /Test ist nicht erreichbar \(HTTP 500, 3 Versuche\)/);
      assert.match(e.message, /--offline/);
      return true;
    });
    assert.equal(calls, 3);
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[1]! > sleeps[0]!, "backoff grows");
  });

  it("does not retry a 400 and reports it as UpstreamResponseError", async () => {
    let calls = 0;
    fake.setHandler(() => {
      calls++;
      return { status: 400, json: { error: true, reason: "bad date" } };
    });
    await assert.rejects(http().json({ service: "Test", url: `${fake.url}/400` }, Anything), (e: unknown) => {
      assert.ok(e instanceof UpstreamResponseError);
      assert.equal(e.status, 400);
      assert.match(e.message, /bad date/);
      return true;
    });
    assert.equal(calls, 1);
  });

  it("times out a hanging upstream and says so", async () => {
    fake.setHandler(() => ({ delayMs: 2000, json: { ok: true } }));
    await assert.rejects(
      http({ timeoutMs: 100, retries: 1 }).json({ service: "Test", url: `${fake.url}/slow` }, Anything),
      (e: unknown) => {
        assert.ok(e instanceof UpstreamUnavailableError);
        assert.match(e.message, /keine Antwort innerhalb von 100 ms/);
        return true;
      },
    );
  });

  it("rejects malformed JSON without retrying", async () => {
    let calls = 0;
    fake.setHandler(() => {
      calls++;
      return { body: "{ not json" };
    });
    await assert.rejects(http().json({ service: "Test", url: `${fake.url}/bad` }, Anything), (e: unknown) => {
      assert.ok(e instanceof UpstreamResponseError);
      assert.match(e.message, /kein gültiges JSON/);
      return true;
    });
    assert.equal(calls, 1);
  });

  it("rejects JSON of the wrong shape", async () => {
    fake.setHandler(() => ({ json: { ok: "yes" } }));
    await assert.rejects(
      http().json({ service: "Test", url: `${fake.url}/shape` }, Anything),
      /unerwartet geformte Daten geliefert \(ok:/,
    );
  });

  it("reports a refused connection as unavailable", async () => {
    const closed = await startFakeUpstream(() => ({ json: {} }));
    const url = closed.url;
    await closed.close();
    await assert.rejects(http({ retries: 0 }).json({ service: "Test", url: `${url}/x` }, Anything), (e: unknown) => {
      assert.ok(e instanceof UpstreamUnavailableError);
      assert.match(e.message, /Netzwerkfehler/);
      return true;
    });
  });
});

describe("NominatimGeocoder", () => {
  const geocoder = (cache = new NoCache() as FileCache | NoCache) =>
    new NominatimGeocoder(http(), cache, { baseUrl: fake.url, intervalMs: 0 });

  it("geocodes via /search with format jsonv2 and turns string coordinates into numbers", async () => {
    fake.setHandler((req) => {
      assert.equal(req.path, "/search");
      assert.equal(req.query.get("q"), "Barcelona");
      assert.equal(req.query.get("format"), "jsonv2");
      return {
        json: [
          {
            lat: "41.3828939",
            lon: "2.1774322",
            display_name: "Barcelona, Katalonien, Spanien",
            address: { country: "Spanien" },
          },
        ],
      };
    });
    const place = await geocoder().geocode("Barcelona");
    assert.deepEqual(place, {
      lat: 41.3828939,
      lon: 2.1774322,
      display_name: "Barcelona, Katalonien, Spanien",
      country: "Spanien",
      source: "nominatim",
    });
  });

  it("throws NotFoundError with a German hint when there is no result", async () => {
    fake.setHandler(() => ({ json: [] }));
    await assert.rejects(geocoder().geocode("Xyzzyville"), (e: unknown) => {
      assert.ok(e instanceof NotFoundError);
      assert.equal(e.input, "Xyzzyville");
      assert.match(e.message, /Kein Ort gefunden für "Xyzzyville"/);
      return true;
    });
  });

  it("rejects out-of-range coordinates from upstream", async () => {
    fake.setHandler(() => ({ json: [{ lat: "123", lon: "2", display_name: "Nirgendwo" }] }));
    await assert.rejects(geocoder().geocode("Nirgendwo"), UpstreamResponseError);
  });

  it("gives every attempt, retries included, its own rate-limit slot (injected clock)", async () => {
    let now = 0;
    const clockSleep = async (ms: number) => {
      now += ms;
    };
    const seen: number[] = [];
    fake.setHandler(() => {
      seen.push(now);
      if (seen.length === 1) return { status: 500, body: "busy" };
      if (seen.length === 2) return { status: 429, headers: { "Retry-After": "0" }, json: {} };
      return { json: [{ lat: "52.5", lon: "13.4", display_name: "Berlin", address: {} }] };
    });
    const limiter = new CallSpacer(1000, () => now, clockSleep);
    const g = new NominatimGeocoder(http({ sleep: clockSleep }), new NoCache(), {
      baseUrl: fake.url,
      intervalMs: 1000,
      limiter,
    });
    assert.equal((await g.geocode("Berlin")).lat, 52.5);
    // backoff (~10 ms) and Retry-After: 0 alone would retry at once; the limiter holds each retry back
    assert.deepEqual(seen, [0, 1000, 2000]);
  });

  it("answers the second identical query from the file cache", async () => {
    let calls = 0;
    fake.setHandler(() => {
      calls++;
      return { json: [{ lat: "48.1", lon: "11.5", display_name: "München", address: {} }] };
    });
    const g = geocoder(new FileCache(cacheDir));
    const first = await g.geocode("München");
    const second = await g.geocode("  münchen ");
    assert.equal(calls, 1);
    assert.deepEqual(second, first);
  });
});

describe("cache entries of the wrong shape", () => {
  it("are ignored and fetched again", async () => {
    let calls = 0;
    fake.setHandler(() => {
      calls++;
      return { json: [{ lat: "52.5", lon: "13.4", display_name: "Berlin", address: {} }] };
    });
    const cache = new FileCache(join(cacheDir, "shape"));
    await cache.set("nominatim", "berlin", { lat: "not a number" });
    const g = new NominatimGeocoder(http(), cache, { baseUrl: fake.url, intervalMs: 0 });
    assert.equal((await g.geocode("Berlin")).lat, 52.5);
    assert.equal(calls, 1);
  });
});

describe("FileCache", () => {
  it("expires entries after their TTL and ignores corrupt files", async () => {
    let now = 1_000_000;
    const cache = new FileCache(join(cacheDir, "ttl"), () => now);
    await cache.set("ns", "key", { v: 1 });
    const V = z.object({ v: z.number() });
    assert.deepEqual(await cache.get("ns", "key", 10_000, V), { v: 1 });
    now += 10_001;
    assert.equal(await cache.get("ns", "key", 10_000, V), undefined);
    const [file] = await readdir(join(cacheDir, "ttl", "ns"));
    assert.ok(file);
    assert.doesNotMatch(file, /\.tmp$/, "atomic write leaves no temp file behind");
    await writeFile(join(cacheDir, "ttl", "ns", file), "{ half a fi");
    assert.equal(await cache.get("ns", "key", Infinity, V), undefined);
  });

  it("never fails a request when the cache folder cannot be written", async () => {
    const blocker = join(cacheDir, "blocker");
    await writeFile(blocker, "a file, not a folder");
    const errors: unknown[] = [];
    const cache = new FileCache(join(blocker, "sub"), Date.now, (e) => errors.push(e));
    await cache.set("ns", "k", 1);
    assert.equal(errors.length, 1);
    assert.equal(await cache.get("ns", "k", Infinity, z.number()), undefined);
  });
});

describe("CallSpacer", () => {
  it("spaces calls by the interval, in call order (injected clock)", async () => {
    const { limiter, clock } = spacerOnFakeClock(1000);
    const starts: number[] = [];
    await Promise.all([1, 2, 3].map((i) => limiter.schedule(async () => starts.push(clock.now * 10 + i))));
    assert.deepEqual(starts, [1, 10002, 20003]);
  });

  it("acquire() hands out the same slots without wrapping a task", async () => {
    const { limiter, clock } = spacerOnFakeClock(500);
    const starts: number[] = [];
    await Promise.all([1, 2, 3].map(() => limiter.acquire().then(() => starts.push(clock.now))));
    assert.deepEqual(starts, [0, 500, 1000]);
  });

  it("keeps going after a failing task", async () => {
    const limiter = new CallSpacer(0);
    await assert.rejects(limiter.schedule(async () => Promise.reject(new Error("x"))));
    assert.equal(await limiter.schedule(async () => 42), 42);
  });
});

describe("OpenMeteoClient", () => {
  it("asks the forecast endpoint for the daily fields and maps them per day", async () => {
    fake.setHandler((req) => {
      assert.equal(req.path, "/v1/forecast");
      assert.equal(req.query.get("start_date"), "2025-07-01");
      assert.match(req.query.get("daily") ?? "", /temperature_2m_max/);
      return {
        json: openMeteoDaily(isoDates("2025-07-01", "2025-07-02"), (i) => ({
          tmin: 20 + i,
          tmax: 30 + i,
          precip: i ? 2.5 : 0,
          wind: 12,
          code: i ? 61 : 1,
        })),
      };
    });
    const om = new OpenMeteoClient(http(), new NoCache(), { forecastUrl: fake.url, archiveUrl: fake.url });
    const { days } = await om.forecast(41.39, 2.17, "2025-07-01", "2025-07-02");
    assert.deepEqual(days[1], {
      date: "2025-07-02",
      tmin_c: 21,
      tmax_c: 31,
      precip_mm: 2.5,
      wind_max_kmh: 12,
      weather_code: 61,
    });
  });

  it("rejects daily arrays of different lengths", async () => {
    fake.setHandler(() => {
      const body = openMeteoDaily(["2025-07-01", "2025-07-02"], () => ({
        tmin: 1,
        tmax: 2,
        precip: 0,
        wind: 3,
        code: 0,
      })) as { daily: { weather_code: unknown[] } };
      body.daily.weather_code = [0];
      return { json: body };
    });
    const om = new OpenMeteoClient(http(), new NoCache(), { forecastUrl: fake.url, archiveUrl: fake.url });
    await assert.rejects(om.archive(41.39, 2.17, "2025-07-01", "2025-07-02"), /unterschiedlicher Länge/);
  });
});

describe("OverpassPlaces", () => {
  it("POSTs an around-query and keeps named elements with coordinates", async () => {
    fake.setHandler((req) => {
      assert.equal(req.method, "POST");
      const ql = new URLSearchParams(req.body).get("data") ?? "";
      assert.match(ql, /\[out:json\]/);
      assert.match(ql, /nwr\["leisure"="park"\]\["name"\]\(around:2000,41\.39000,2\.17000\)/);
      return {
        json: {
          elements: [
            {
              type: "way",
              id: 1,
              center: { lat: 41.388, lon: 2.187 },
              tags: { leisure: "park", name: "Parc de la Ciutadella" },
            },
            { type: "node", id: 2, lat: 41.4, lon: 2.15, tags: { leisure: "park" } },
            {
              type: "node",
              id: 3,
              lat: 41.41,
              lon: 2.15,
              tags: { leisure: "park", name: "Park Güell", "name:de": "Park Güell" },
            },
          ],
        },
      };
    });
    const places = new OverpassPlaces(http(), new NoCache(), { overpassUrl: `${fake.url}/api/interpreter` });
    const result = await places.parks({ lat: 41.39, lon: 2.17 }, 2);
    assert.equal(result.source, "overpass");
    assert.deepEqual(
      result.places.map((p) => [p.name, p.kind]),
      [
        ["Parc de la Ciutadella", "leisure=park"],
        ["Park Güell", "leisure=park"],
      ],
    );
  });

  it("reports Overpass overload (HTTP 504) as unavailable", async () => {
    fake.setHandler(() => ({ status: 504, body: "Gateway Timeout" }));
    const places = new OverpassPlaces(http({ retries: 1 }), new NoCache(), {
      overpassUrl: `${fake.url}/api/interpreter`,
    });
    await assert.rejects(places.spots({ lat: 41.39, lon: 2.17 }, 2, "beach"), UpstreamUnavailableError);
  });
});
