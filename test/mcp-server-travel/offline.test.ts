// Offline mode in-process: data loader, gazetteer, weather estimates from climate normals, curated places,
// and the tool handlers on top (values and provenance).
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { DEFAULT_RADIUS_KM, resolveActivity } from "../../mcp-server-travel/src/activities.js";
import { dataConfigFromEnv } from "../../mcp-server-travel/src/config.js";
import { parseIsoDate } from "../../mcp-server-travel/src/dates.js";
import { distanceKm } from "../../mcp-server-travel/src/geo.js";
import { InvalidArgumentError, NotFoundError, OfflineDataError } from "../../mcp-server-travel/src/errors.js";
import { loadOfflineData, type City, type OfflineData } from "../../mcp-server-travel/src/offline/data.js";
import { Gazetteer, placeKeys } from "../../mcp-server-travel/src/offline/gazetteer.js";
import { estimateDay } from "../../mcp-server-travel/src/offline/weather-offline.js";
import { offlineServices } from "../../mcp-server-travel/src/services/create.js";
import type { TravelServices } from "../../mcp-server-travel/src/services/types.js";
import * as tools from "../../mcp-server-travel/src/tools/handlers.js";

const day = (s: string) => parseIsoDate(s)!;
const ctx = { today: day("2025-06-10") };
let data: OfflineData;
let services: TravelServices;
let gazetteer: Gazetteer;
const city = (name: string): City => data.cities.find((c) => c.name === name)!;

before(async () => {
  data = await loadOfflineData(dataConfigFromEnv({}).dataDir);
  services = offlineServices(data);
  gazetteer = new Gazetteer(data.cities);
});

describe("bundled data", () => {
  it("has at least 100 cities, including the demo cities, and places for them", () => {
    assert.ok(data.cities.length >= 100, `${data.cities.length} cities`);
    for (const name of ["Barcelona", "Berlin", "München", "Paris", "Rom", "Wien"]) assert.ok(city(name), name);
    assert.ok(data.places.some((p) => p.city === "Barcelona" && p.kind === "park"));
  });

  describe("loader errors", () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), "travel-data-"));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it("names a missing file", async () => {
      await assert.rejects(
        loadOfflineData(join(dir, "nope")),
        (e: unknown) => e instanceof OfflineDataError && /cities\.json ist nicht lesbar/.test(e.message),
      );
    });
    it("names the offending field of an invalid entry", async () => {
      const bad = { ...data.cities[0]!, climate: { ...data.cities[0]!.climate, tmax_c: [1, 2, 3] } };
      await writeFile(join(dir, "cities.json"), JSON.stringify([bad]));
      await writeFile(join(dir, "places.json"), "[]");
      await assert.rejects(
        loadOfflineData(dir),
        (e: unknown) => e instanceof OfflineDataError && /0\.climate\.tmax_c/.test(e.message),
      );
    });
    it("rejects malformed JSON", async () => {
      await writeFile(join(dir, "cities.json"), "[{");
      await assert.rejects(loadOfflineData(dir), /kein gültiges JSON/);
    });
  });
});

describe("Gazetteer", () => {
  it("ignores case, accents and umlaut spelling", () => {
    for (const q of ["München", "münchen", "MUENCHEN", "Munchen"]) assert.equal(gazetteer.lookup(q).name, "München", q);
    assert.equal(gazetteer.lookup("malaga").name, "Málaga");
    assert.equal(gazetteer.lookup("  zürich ").name, "Zürich");
  });
  it("keeps non-Latin words whole: a mark that makes another letter is no accent", () => {
    assert.deepEqual(placeKeys("ぎふ"), ["ぎふ"], "the dakuten does not split the word");
    assert.deepEqual(placeKeys("Йошкар-Ола"), ["йошкар ола"]);
    assert.deepEqual(placeKeys("Αθήνα"), ["αθηνα"], "Greek accents fold like Latin ones");
    assert.deepEqual(placeKeys("Ko\u0308ln"), ["koeln", "koln"], "a decomposed umlaut too");
    // Each pair differs in one such letter; with a shared key one city could be found under the other's name.
    const pairs = [
      ["ぎふ", "きふ"],
      ["Мой", "Мои"],
      ["ばす", "はす"],
    ];
    for (const [a, b] of pairs) {
      const shared = placeKeys(a!).filter((k) => placeKeys(b!).includes(k));
      assert.deepEqual(shared, [], `${a} / ${b}`);
    }
    const cities = [
      { ...city("Berlin"), name: "ぎふ", aliases: [] },
      { ...city("Rom"), name: "きふ", aliases: [] },
    ];
    assert.equal(new Gazetteer(cities).lookup("ぎふ").name, "ぎふ");
    assert.equal(new Gazetteer(cities).lookup("きふ").name, "きふ");
  });
  it("understands 'City, Country' in German and English", () => {
    assert.equal(gazetteer.lookup("Barcelona, Spanien").name, "Barcelona");
    assert.equal(gazetteer.lookup("Barcelona, Spain").name, "Barcelona");
    assert.equal(gazetteer.lookup("Valencia, ES").name, "Valencia");
    assert.equal(gazetteer.lookup("Barcelona Spanien").name, "Barcelona");
  });
  it("accepts a part of a longer city name and says how it read the query", async () => {
    const r = await services.geocoder.geocode("Gran Canaria");
    assert.equal(r.display_name.startsWith("Las Palmas de Gran Canaria"), true);
    assert.match(r.note ?? "", /"Gran Canaria" als Las Palmas de Gran Canaria verstanden/);
    assert.equal((await services.geocoder.geocode("Barcelona")).note, undefined);
  });
  it("finds every city by each of its aliases", () => {
    const pairs = data.cities.flatMap((c) => c.aliases.map((alias) => [alias, c.name] as const));
    assert.ok(pairs.length >= 10, `the data has aliases (${pairs.length})`);
    const wrong = pairs.filter(([alias, name]) => {
      try {
        return gazetteer.lookup(alias).name !== name;
      } catch {
        return true;
      }
    });
    assert.deepEqual(wrong, [], "aliases that do not lead to their city");
    assert.throws(() => gazetteer.lookup("?!"), NotFoundError, "no letters → no city (not the largest non-Latin one)");
  });
  it("rejects unknown places with suggestions", async () => {
    assert.throws(
      () => gazetteer.lookup("Barcelonna"),
      (e: unknown) =>
        e instanceof NotFoundError && e.input === "Barcelonna" && /Meintest du: Barcelona/.test(e.message),
    );
    await assert.rejects(services.geocoder.geocode("Atlantis"), /nicht enthalten/);
  });
});

describe("offline weather", () => {
  it("estimates each day from the normals, deterministically", () => {
    const bcn = city("Barcelona");
    const a = estimateDay(bcn, day("2025-07-15"));
    assert.deepEqual(estimateDay(bcn, day("2025-07-15")), a);
    // mid-month equals the monthly normal
    assert.ok(Math.abs(a.tmax_c! - bcn.climate.tmax_c[6]!) <= 0.2, `${a.tmax_c} vs ${bcn.climate.tmax_c[6]}`);
    assert.ok(Math.abs(a.tmin_c! - bcn.climate.tmin_c[6]!) <= 0.2);
  });

  it("spreads exactly the month's rainy days and its precipitation over a full month", () => {
    const ber = city("Berlin");
    for (const month of [1, 7, 11]) {
      const mm = String(month).padStart(2, "0");
      const n = new Date(Date.UTC(2025, month, 0)).getUTCDate();
      const days = Array.from({ length: n }, (_, i) =>
        estimateDay(ber, day(`2025-${mm}-${String(i + 1).padStart(2, "0")}`)),
      );
      const rainy = days.filter((d) => d.precip_mm! > 0).length;
      assert.equal(rainy, Math.round(ber.climate.rainy_days[month - 1]!), `month ${month}`);
      const total = days.reduce((s, d) => s + d.precip_mm!, 0);
      assert.ok(Math.abs(total - ber.climate.precip_mm[month - 1]!) < 1, `month ${month}: ${total}`);
    }
  });

  it("marks results as offline estimates via get_weather", async () => {
    const r = await tools.getWeather(
      services,
      { lat: 41.39, lon: 2.17, start_date: "2025-07-01", end_date: "2025-07-07", include_raw: true },
      ctx,
    );
    assert.equal(r.source, "offline");
    assert.equal(r.is_estimate, true);
    assert.equal(r.reference_years, null);
    assert.equal(r.days.length, 7);
    assert.equal(r.aggregates.days, 7);
    assert.equal(r.aggregates.tmax_c, Math.max(...r.days.map((d) => d.tmax_c!)));
    assert.equal(r.aggregates.rainy_days, r.days.filter((d) => d.precip_mm! >= 1).length);
    assert.match(r.note, /Offline-Schätzung.*Barcelona/);
    assert.equal((r.raw as { city: string }).city, "Barcelona");
  });

  it("refuses coordinates far from every bundled city", async () => {
    await assert.rejects(
      tools.getWeather(services, { lat: -45, lon: -140, start_date: "2025-07-01", end_date: "2025-07-02" }, ctx),
      (e: unknown) => e instanceof NotFoundError && /Keine Offline-Klimadaten/.test(e.message),
    );
  });
});

describe("tool handlers on offline services", () => {
  it("geocode returns coordinates with source offline", async () => {
    const r = await tools.geocode(services, { destination: "Rom" }, ctx);
    assert.equal(r.source, "offline");
    assert.equal(r.lat, city("Rom").lat);
    assert.equal(r.display_name, `Rom, ${city("Rom").country}`);
  });

  it("get_parks lists only parks within the radius, nearest first, capped by max_elements", async () => {
    const bcn = city("Barcelona");
    const r = await tools.getParks(services, { lat: bcn.lat, lon: bcn.lon, radius_km: 20, max_elements: 3 }, ctx);
    assert.equal(r.source, "offline");
    assert.ok(r.count > 0 && r.count <= 3);
    assert.ok(r.parks.every((p) => p.kind === "park" && p.distance_km <= 20));
    const d = r.parks.map((p) => p.distance_km);
    assert.deepEqual(
      d,
      [...d].sort((a, b) => a - b),
    );
  });

  it("get_spots understands German and English activity words and says when it guessed", async () => {
    const bcn = city("Barcelona");
    const at = { lat: bcn.lat, lon: bcn.lon, radius_km: 20 };
    const strand = await tools.getSpots(services, { ...at, activity: "Strand" }, ctx);
    assert.equal(strand.activity, "beach");
    assert.ok(strand.count > 0 && strand.spots.every((s) => s.kind === "beach"));
    assert.equal(strand.activity_note, undefined);
    const beach = await tools.getSpots(services, { ...at, activity: "beach" }, ctx);
    assert.deepEqual(beach.spots, strand.spots);
    const unknown = await tools.getSpots(services, { ...at, activity: "Tauchen" }, ctx);
    assert.equal(unknown.activity, "sightseeing");
    assert.match(unknown.activity_note ?? "", /"Tauchen" ist unbekannt/);
  });

  it("rank_spots scores explainably and sorts best first", async () => {
    const bcn = city("Barcelona");
    const r = await tools.rankSpots(
      services,
      {
        lat: bcn.lat,
        lon: bcn.lon,
        start_date: "2025-07-01",
        end_date: "2025-07-05",
        activity: "joggen",
        radius_km: 15,
        top_k: 3,
      },
      ctx,
    );
    assert.equal(r.source, "offline");
    assert.deepEqual(r.sources, { spots: "offline", weather: "offline" });
    assert.ok(r.count > 0 && r.count <= 3);
    for (const s of r.ranking) {
      const p = s.score_parts;
      const expected =
        100 *
        (r.weights.distance * p.distance +
          r.weights.rain * p.rain +
          r.weights.temperature * p.temperature +
          r.weights.wind * p.wind);
      assert.ok(Math.abs(s.score - expected) < 0.1, `${s.score} vs ${expected}`);
      assert.ok(s.travel_time_min > 0);
      assert.match(s.explanation, /Punkte = 100 ×/);
    }
    const scores = r.ranking.map((s) => s.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
    assert.deepEqual(
      r.ranking.map((s) => s.rank),
      r.ranking.map((_, i) => i + 1),
    );
  });

  it("get_spots names the nearest curated place when none lies inside the radius (Berlin, wandern)", async () => {
    const ber = city("Berlin");
    const at = { lat: ber.lat, lon: ber.lon, activity: "wandern" };
    const hiking = data.places.filter((p) => p.city === "Berlin" && p.kind === "hiking");
    const nearest = Math.min(...hiking.map((p) => distanceKm(ber, p)));
    assert.ok(nearest > 10, "premise: Berlin's curated hiking places all lie beyond 10 km");
    const r = await tools.getSpots(services, { ...at, radius_km: 10 }, ctx);
    assert.equal(r.count, 0);
    assert.match(r.note ?? "", /Im Umkreis von 10 km liegt kein mitgelieferter Ort für Wandern/);
    assert.match(r.note ?? "", new RegExp(`${String(Math.round(nearest * 10) / 10).replace(".", ",")} km entfernt`));
    assert.doesNotMatch(r.note ?? "", /keine .*mitgeliefert|nur .*Demo-Städte/, "Berlin has curated hiking places");
    const suggested = Number(/radius_km: (\d+)/.exec(r.note ?? "")?.[1]);
    assert.equal(suggested, Math.ceil(nearest));
    const wider = await tools.getSpots(services, { ...at, radius_km: suggested }, ctx);
    assert.ok(wider.count >= 1, "the suggested radius finds the place");
    assert.match(r.note ?? "", new RegExp(`„${wider.spots[0]!.name}“`));
  });

  it("get_spots far from every demo city says which cities have curated places", async () => {
    const r = await tools.getSpots(services, { lat: -45, lon: -140, radius_km: 50, activity: "wandern" }, ctx);
    assert.equal(r.count, 0);
    assert.match(r.note ?? "", /Für diese Gegend sind keine Orte für Wandern mitgeliefert/);
    assert.match(r.note ?? "", /Demo-Städte: .*Berlin/);
  });

  it("rank_spots without radius_km uses an activity-dependent default that reaches every demo city's places", async () => {
    const demo = (kind: string) => [...new Set(data.places.filter((p) => p.kind === kind).map((p) => p.city))];
    for (const [activity, kind] of [
      ["wandern", "hiking"],
      ["strand", "beach"],
      ["joggen", "running"],
      ["kultur", "sightseeing"],
    ] as const) {
      for (const name of demo(kind)) {
        const c = city(name);
        const r = await tools.rankSpots(
          services,
          { lat: c.lat, lon: c.lon, start_date: "2025-07-01", end_date: "2025-07-03", activity },
          ctx,
        );
        assert.equal(r.radius_km, DEFAULT_RADIUS_KM[r.activity], `${name} ${activity}`);
        assert.ok(r.count >= 1, `${name} ${activity}: nothing within ${r.radius_km} km`);
        assert.match(r.note ?? "", new RegExp(`Ohne radius_km gilt für .* ein Umkreis von ${r.radius_km} km`));
      }
    }
    const ber = city("Berlin");
    const berlin = await tools.rankSpots(
      services,
      { lat: ber.lat, lon: ber.lon, start_date: "2025-07-01", end_date: "2025-07-03", activity: "wandern" },
      ctx,
    );
    assert.ok(berlin.ranking.every((s) => s.kind === "hiking" && s.distance_km <= berlin.radius_km));
    const explicit = await tools.rankSpots(
      services,
      {
        lat: ber.lat,
        lon: ber.lon,
        start_date: "2025-07-01",
        end_date: "2025-07-03",
        activity: "wandern",
        radius_km: 10,
      },
      ctx,
    );
    assert.equal(explicit.count, 0);
    assert.match(explicit.note ?? "", /kein mitgelieferter Ort für Wandern.*radius_km: 12/);
  });

  it("an empty online result (no note from the service) suggests a larger radius", async () => {
    const empty = {
      ...services,
      places: {
        parks: async () => ({ places: [], source: "overpass" as const }),
        spots: async () => ({ places: [], source: "overpass" as const }),
      },
    };
    const spots = await tools.getSpots(empty, { lat: 52.5, lon: 13.4, radius_km: 10, activity: "wandern" }, ctx);
    assert.equal(
      spots.note,
      "Keine Orte für Wandern im Umkreis von 10 km gefunden. Ein größerer Umkreis (radius_km bis 50) findet vielleicht welche.",
    );
    const parks = await tools.getParks(empty, { lat: 52.5, lon: 13.4, radius_km: 50 }, ctx);
    assert.equal(parks.note, "Keine Parks im Umkreis von 50 km gefunden.");
  });

  it("rejects end before start, too long ranges, impossible dates and far-future ends", async () => {
    const at = { lat: 41.39, lon: 2.17 };
    const cases: [string, string, RegExp][] = [
      ["2025-07-05", "2025-07-01", /liegt vor start_date/],
      ["2025-01-01", "2025-06-01", /höchstens 92/],
      ["2025-02-30", "2025-03-01", /kein gültiges Datum/],
      ["1900-01-01", "1900-01-02", /erst ab 1940/],
      ["2030-01-01", "2030-01-02", /mehr als zwei Jahre/],
    ];
    for (const [start_date, end_date, msg] of cases) {
      await assert.rejects(
        tools.getWeather(services, { ...at, start_date, end_date }, ctx),
        (e: unknown) => e instanceof InvalidArgumentError && msg.test(e.message),
      );
    }
  });
});

describe("resolveActivity", () => {
  it("maps the words of the issue", () => {
    const cases: Record<string, string> = {
      wandern: "hiking",
      hiking: "hiking",
      joggen: "running",
      laufen: "running",
      running: "running",
      strand: "beach",
      beach: "beach",
      kultur: "sightseeing",
      museum: "sightseeing",
      sightseeing: "sightseeing",
      Sehenswürdigkeiten: "sightseeing",
    };
    for (const [word, activity] of Object.entries(cases)) {
      assert.equal(resolveActivity(word).activity, activity, word);
      assert.equal(resolveActivity(word).note, undefined, word);
    }
    assert.match(resolveActivity("Kitesurfen").note ?? "", /unbekannt/);
  });
});
