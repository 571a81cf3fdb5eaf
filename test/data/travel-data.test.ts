// Validates the bundled offline travel data (data/travel/*.json) used when there is no network.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const dataDir = fileURLToPath(new URL("../../data/travel/", import.meta.url));

const DEMO_CITIES = [
  "Barcelona", "Berlin", "München", "Hamburg", "Köln", "Wien",
  "Zürich", "Madrid", "Paris", "Rom", "Lissabon", "Amsterdam",
] as const;
const BEACH_CITIES = ["Barcelona", "Berlin", "Hamburg", "Lissabon"] as const;
const REQUIRED_KINDS: Record<string, number> = { park: 3, running: 2, sightseeing: 2, hiking: 1 };
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const monthly = (min: number, max: number) => z.array(z.number().min(min).max(max)).length(12);

const citySchema = z.strictObject({
  name: z.string().trim().min(1),
  aliases: z.array(z.string().trim().min(1)),
  country: z.string().min(1),
  country_code: z.string().regex(/^[A-Z]{2}$/),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  population: z.number().int().positive(),
  climate: z.strictObject({
    tmin_c: monthly(-60, 50),
    tmax_c: monthly(-50, 60),
    precip_mm: monthly(0, 1500),
    rainy_days: z.array(z.number().int().min(0).max(31)).length(12),
    wind_max_kmh: monthly(0, 200),
  }),
});

const placeSchema = z.strictObject({
  city: z.string().min(1),
  name: z.string().trim().min(1),
  kind: z.enum(["park", "hiking", "running", "beach", "sightseeing"]),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  description: z.string().trim().min(10),
});

type City = z.infer<typeof citySchema>;
type Place = z.infer<typeof placeSchema>;

function load<T>(file: string, schema: z.ZodType<T>): T {
  const result = schema.safeParse(JSON.parse(readFileSync(dataDir + file, "utf8")));
  if (!result.success) throw new Error(`${file} does not match its schema:\n${z.prettifyError(result.error)}`);
  return result.data;
}

function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

const cities: City[] = load("cities.json", z.array(citySchema));
const places: Place[] = load("places.json", z.array(placeSchema));
const cityByName = new Map(cities.map((c) => [c.name, c]));

describe("data/travel/cities.json", () => {
  it("has at least 120 cities", () => {
    assert.ok(cities.length >= 120, `only ${cities.length} cities`);
  });

  it("has no duplicate names or aliases (case-insensitive, across all cities)", () => {
    const seen = new Map<string, string>();
    for (const c of cities) {
      for (const label of [c.name, ...c.aliases]) {
        const key = label.toLocaleLowerCase("de");
        assert.ok(!seen.has(key), `"${label}" of ${c.name} already used by ${seen.get(key)}`);
        seen.set(key, c.name);
      }
    }
  });

  it("has tmin <= tmax and at most as many rainy days as days and millimetres each month", () => {
    for (const c of cities) {
      const { tmin_c, tmax_c, precip_mm, rainy_days } = c.climate;
      for (let m = 0; m < 12; m++) {
        assert.ok(tmin_c[m]! <= tmax_c[m]!, `${c.name} month ${m + 1}: tmin > tmax`);
        assert.ok(rainy_days[m]! <= DAYS_IN_MONTH[m]!, `${c.name} month ${m + 1}: too many rainy days`);
        // every rainy day brings at least 1 mm
        assert.ok(precip_mm[m]! >= rainy_days[m]!, `${c.name} month ${m + 1}: precip below rainy days`);
      }
    }
  });

  it("places the cities roughly where they are", () => {
    const expect: [string, number, number][] = [
      ["Berlin", 52.52, 13.4], ["Barcelona", 41.39, 2.17], ["New York", 40.71, -74.0], ["Tokio", 35.68, 139.65],
    ];
    for (const [name, lat, lon] of expect) {
      const c = cityByName.get(name);
      assert.ok(c, `${name} missing`);
      assert.ok(haversineKm(c.lat, c.lon, lat, lon) < 20, `${name} is misplaced`);
    }
  });

  it("contains all German state capitals and the 30 largest German cities", () => {
    const stateCapitals = [
      "Berlin", "Hamburg", "Bremen", "Hannover", "Kiel", "Schwerin", "Potsdam", "Magdeburg", "Dresden",
      "Erfurt", "Düsseldorf", "Mainz", "Wiesbaden", "Saarbrücken", "Stuttgart", "München",
    ];
    const largest30 = [
      "Berlin", "Hamburg", "München", "Köln", "Frankfurt am Main", "Stuttgart", "Düsseldorf", "Leipzig",
      "Dortmund", "Essen", "Bremen", "Dresden", "Hannover", "Nürnberg", "Duisburg", "Bochum", "Wuppertal",
      "Bielefeld", "Bonn", "Münster", "Mannheim", "Karlsruhe", "Augsburg", "Wiesbaden", "Mönchengladbach",
      "Gelsenkirchen", "Aachen", "Braunschweig", "Kiel", "Chemnitz",
    ];
    assert.equal(stateCapitals.length, 16);
    assert.equal(largest30.length, 30);
    for (const name of [...stateCapitals, ...largest30]) {
      assert.equal(cityByName.get(name)?.country_code, "DE", `${name} missing or not in DE`);
    }
  });

  it("contains the tourist and mountain destinations, findable by alias", () => {
    const required = [
      "Wien", "Graz", "Salzburg", "Innsbruck", "Zürich", "Genf", "Basel", "Bern", "Zermatt", "Bozen",
      "Konstanz", "Garmisch-Partenkirchen", "Berchtesgaden", "London", "Edinburgh", "Dublin", "Oslo",
      "Stockholm", "Helsinki", "Reykjavik", "Istanbul", "New York", "Tokio", "Dubrovnik", "Split", "Athen",
      "Lissabon", "Porto", "Paris", "Nizza", "Marseille", "Lyon", "Rom", "Mailand", "Venedig", "Neapel",
      "Florenz", "Barcelona", "Madrid", "Sevilla", "Málaga", "Palma", "Valencia",
    ];
    for (const name of required) assert.ok(cityByName.has(name), `${name} missing`);
    const byAlias = new Map(cities.flatMap((c) => c.aliases.map((a) => [a.toLowerCase(), c.name] as const)));
    assert.equal(byAlias.get("munich"), "München");
    assert.equal(byAlias.get("rome"), "Rom");
    assert.equal(byAlias.get("lisbon"), "Lissabon");
    assert.equal(byAlias.get("milano"), "Mailand");
    assert.equal(byAlias.get("cologne"), "Köln");
    assert.equal(byAlias.get("vienna"), "Wien");
  });

  it("contains all 27 EU capitals", () => {
    const capitals = [
      "Wien", "Brüssel", "Sofia", "Zagreb", "Nikosia", "Prag", "Kopenhagen", "Tallinn", "Helsinki", "Paris",
      "Berlin", "Athen", "Budapest", "Dublin", "Rom", "Riga", "Vilnius", "Luxemburg", "Valletta", "Amsterdam",
      "Warschau", "Lissabon", "Bukarest", "Bratislava", "Ljubljana", "Madrid", "Stockholm",
    ];
    assert.equal(capitals.length, 27);
    for (const name of capitals) assert.ok(cityByName.has(name), `${name} missing`);
  });
});

describe("data/travel/places.json", () => {
  it("refers only to cities in cities.json", () => {
    for (const p of places) assert.ok(cityByName.has(p.city), `${p.name}: unknown city ${p.city}`);
  });

  it("keeps every place within 60 km of its city", () => {
    for (const p of places) {
      const c = cityByName.get(p.city)!;
      const km = haversineKm(c.lat, c.lon, p.lat, p.lon);
      assert.ok(km <= 60, `${p.name} is ${km.toFixed(1)} km from ${p.city}`);
    }
  });

  it("has no duplicate place names within a city", () => {
    const keys = places.map((p) => `${p.city}|${p.name.toLowerCase()}`);
    assert.equal(new Set(keys).size, keys.length);
  });

  it("covers the required kinds for every demo city", () => {
    for (const city of DEMO_CITIES) {
      const own = places.filter((p) => p.city === city);
      for (const [kind, min] of Object.entries(REQUIRED_KINDS)) {
        const n = own.filter((p) => p.kind === kind).length;
        assert.ok(n >= min, `${city}: ${n} × ${kind}, need ${min}`);
      }
    }
    for (const city of BEACH_CITIES) {
      assert.ok(places.some((p) => p.city === city && p.kind === "beach"), `${city}: no beach`);
    }
  });
});
