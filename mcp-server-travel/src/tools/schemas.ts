// Input and output schemas of the five tools (zod 4). Descriptions are German: the model reads them
// from tools/list. One source of truth: the SDK derives the JSON Schemas and validates with these.
import { z } from "zod";
import { DEFAULT_RADIUS_KM } from "../activities.js";

export const MAX_RADIUS_KM = 50;
export const MAX_RANGE_DAYS = 92;

const lat = z
  .number({ error: "lat fehlt oder ist keine Zahl (Breitengrad in Grad, -90 bis 90)." })
  .min(-90, "lat muss zwischen -90 und 90 liegen (Breitengrad in Grad).")
  .max(90, "lat muss zwischen -90 und 90 liegen (Breitengrad in Grad).")
  .describe("Breitengrad in Dezimalgrad (WGS84), -90 bis 90, z. B. 41.39");

const lon = z
  .number({ error: "lon fehlt oder ist keine Zahl (Längengrad in Grad, -180 bis 180)." })
  .min(-180, "lon muss zwischen -180 und 180 liegen (Längengrad in Grad).")
  .max(180, "lon muss zwischen -180 und 180 liegen (Längengrad in Grad).")
  .describe("Längengrad in Dezimalgrad (WGS84), -180 bis 180, z. B. 2.17");

const isoDate = (what: string) =>
  z
    .string({ error: `${what} fehlt oder ist kein Text (Format JJJJ-MM-TT).` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${what} muss im Format JJJJ-MM-TT angegeben werden, z. B. 2025-07-14.`);

const radius = z
  .number({ error: "radius_km fehlt oder ist keine Zahl (Umkreis in Kilometern)." })
  .gt(0, `radius_km muss größer als 0 sein (höchstens ${MAX_RADIUS_KM} km).`)
  .max(MAX_RADIUS_KM, `radius_km darf höchstens ${MAX_RADIUS_KM} km betragen; wähle einen kleineren Umkreis.`);

const activity = z
  .string({ error: 'activity fehlt oder ist kein Text, z. B. "wandern" oder "strand".' })
  .trim()
  .min(1, 'activity darf nicht leer sein, z. B. "wandern", "joggen", "strand" oder "kultur".')
  .max(60, "activity ist zu lang (höchstens 60 Zeichen).")
  .describe(
    "Aktivität auf Deutsch oder Englisch: wandern/hiking, joggen/laufen/running, strand/beach, kultur/museum/sightseeing",
  );

// ---------- inputs ----------

export const geocodeInput = {
  destination: z
    .string({ error: 'destination fehlt oder ist kein Text, z. B. "Barcelona".' })
    .trim()
    .min(1, 'destination darf nicht leer sein, z. B. "Barcelona" oder "Valencia, Spanien".')
    .max(200, "destination ist zu lang (höchstens 200 Zeichen).")
    .describe('Reiseziel als Text: Stadt oder Ort, optional mit Land, z. B. "Barcelona" oder "Valencia, Spanien"'),
};

export const weatherInput = {
  lat,
  lon,
  start_date: isoDate("start_date").describe("Erster Tag des Zeitraums, Format JJJJ-MM-TT"),
  end_date: isoDate("end_date").describe(
    `Letzter Tag des Zeitraums (einschließlich), Format JJJJ-MM-TT; nicht vor start_date, höchstens ${MAX_RANGE_DAYS} Tage insgesamt`,
  ),
  include_raw: z
    .boolean({ error: "include_raw muss true oder false sein." })
    .default(false)
    .describe("true: zusätzlich die Rohdaten der Quelle mitliefern (nur für Fehlersuche nötig)"),
};

export const parksInput = {
  lat,
  lon,
  radius_km: radius.describe(`Suchradius in Kilometern um die Koordinaten (größer als 0, höchstens ${MAX_RADIUS_KM})`),
  max_elements: z
    .number({ error: "max_elements muss eine ganze Zahl sein." })
    .int("max_elements muss eine ganze Zahl sein.")
    .min(1, "max_elements muss mindestens 1 sein.")
    .max(100, "max_elements darf höchstens 100 sein.")
    .default(20)
    .describe("Höchstzahl der gelieferten Parks (1 bis 100, Standard 20)"),
};

export const spotsInput = {
  lat,
  lon,
  radius_km: radius.describe(`Suchradius in Kilometern um die Koordinaten (größer als 0, höchstens ${MAX_RADIUS_KM})`),
  activity,
};

export const rankInput = {
  lat,
  lon,
  start_date: isoDate("start_date").describe("Erster Tag des Zeitraums, Format JJJJ-MM-TT"),
  end_date: isoDate("end_date").describe("Letzter Tag des Zeitraums (einschließlich), Format JJJJ-MM-TT"),
  activity,
  radius_km: radius
    .optional()
    .describe(
      `Suchradius in Kilometern (höchstens ${MAX_RADIUS_KM}); ohne Angabe je nach Aktivität: ` +
        `wandern ${DEFAULT_RADIUS_KM.hiking}, strand ${DEFAULT_RADIUS_KM.beach}, joggen ${DEFAULT_RADIUS_KM.running}, kultur ${DEFAULT_RADIUS_KM.sightseeing} km`,
    ),
  top_k: z
    .number({ error: "top_k muss eine ganze Zahl sein." })
    .int("top_k muss eine ganze Zahl sein.")
    .min(1, "top_k muss mindestens 1 sein.")
    .max(20, "top_k darf höchstens 20 sein.")
    .default(5)
    .describe("Wie viele der bestbewerteten Orte geliefert werden (1 bis 20, Standard 5)"),
};

// ---------- outputs ----------

const center = z.object({ lat: z.number(), lon: z.number() }).describe("Mittelpunkt der Suche");
const note = z.string().optional().describe("Hinweis zur Herkunft oder Vollständigkeit der Daten");

export const geocodeOutput = {
  query: z.string().describe("Die Anfrage, wie sie gestellt wurde"),
  lat: z.number().min(-90).max(90).describe("Breitengrad in Dezimalgrad (WGS84)"),
  lon: z.number().min(-180).max(180).describe("Längengrad in Dezimalgrad (WGS84)"),
  display_name: z.string().describe("Vollständiger Ortsname"),
  country: z.string().nullable().describe("Land, falls bekannt"),
  source: z
    .enum(["nominatim", "offline"])
    .describe("Datenquelle: nominatim (OpenStreetMap) oder offline (mitgelieferte Daten)"),
  note,
};

const dailyWeather = z.object({
  date: z.string().describe("Tag, JJJJ-MM-TT"),
  tmin_c: z.number().nullable().describe("Tiefsttemperatur in °C"),
  tmax_c: z.number().nullable().describe("Höchsttemperatur in °C"),
  precip_mm: z.number().nullable().describe("Niederschlag in mm"),
  wind_max_kmh: z.number().nullable().describe("Stärkster Wind in km/h"),
  weather_code: z.number().nullable().describe("WMO-Wettercode"),
  weather: z.string().describe("Wettercode in Worten"),
});

export const weatherAggregates = z.object({
  days: z.number().describe("Anzahl der Tage"),
  tmin_c: z.number().nullable().describe("Niedrigste Tiefsttemperatur im Zeitraum, °C"),
  tmax_c: z.number().nullable().describe("Höchste Höchsttemperatur im Zeitraum, °C"),
  tmax_mean_c: z.number().nullable().describe("Mittlere Höchsttemperatur, °C"),
  precip_total_mm: z.number().nullable().describe("Niederschlagssumme in mm"),
  rainy_days: z.number().describe("Tage mit mindestens 1 mm Niederschlag"),
  wind_max_kmh: z.number().nullable().describe("Stärkster Wind im Zeitraum, km/h"),
});

const weatherSource = z
  .enum(["forecast", "archive", "archive+forecast", "historical_fallback", "offline"])
  .describe(
    "forecast = Vorhersage, archive = Messwerte, archive+forecast = Messwerte, die letzten Tage aus der Vorhersage-API, " +
      "historical_fallback = Mittel vergangener Jahre, offline = Schätzung aus Klimadaten",
  );

export const weatherOutput = {
  lat: z.number(),
  lon: z.number(),
  start_date: z.string(),
  end_date: z.string(),
  source: weatherSource,
  is_estimate: z.boolean().describe("true, wenn die Werte geschätzt und nicht vorhergesagt oder gemessen sind"),
  reference_years: z.array(z.number()).nullable().describe("Jahre, aus denen eine Schätzung gemittelt wurde"),
  note: z.string().describe("Herkunft der Werte in einem Satz"),
  days: z.array(dailyWeather).describe("Werte pro Tag"),
  aggregates: weatherAggregates,
  raw: z.unknown().optional().describe("Rohdaten der Quelle (nur mit include_raw=true)"),
};

const placeWithDistance = z.object({
  name: z.string(),
  lat: z.number(),
  lon: z.number(),
  kind: z.string().describe("Art des Ortes"),
  description: z.string().nullable(),
  distance_km: z.number().describe("Luftlinie zum Mittelpunkt in km"),
});

const placesSource = z
  .enum(["overpass", "offline"])
  .describe("overpass (OpenStreetMap) oder offline (mitgelieferte Daten)");

export const parksOutput = {
  center,
  radius_km: z.number(),
  source: placesSource,
  count: z.number(),
  parks: z.array(placeWithDistance).describe("Parks, nächstgelegener zuerst"),
  note,
};

const activityFields = {
  activity: z.enum(["hiking", "running", "beach", "sightseeing"]).describe("Erkannte Aktivität"),
  activity_input: z.string().describe("Aktivität, wie angefragt"),
  activity_note: z.string().optional().describe("Hinweis, falls die Aktivität nicht erkannt wurde"),
};

export const spotsOutput = {
  center,
  radius_km: z.number(),
  ...activityFields,
  source: placesSource,
  count: z.number(),
  spots: z.array(placeWithDistance).describe("Orte, nächstgelegener zuerst"),
  note,
};

const scoreParts = z
  .object({
    distance: z.number().describe("0 bis 1, näher ist besser"),
    rain: z.number().describe("0 bis 1, weniger Regentage ist besser"),
    temperature: z.number().describe("0 bis 1, 1 = angenehm für die Aktivität"),
    wind: z.number().describe("0 bis 1, weniger Wind ist besser"),
  })
  .describe("Teilwerte der Bewertung");

export const rankOutput = {
  center,
  radius_km: z.number(),
  ...activityFields,
  start_date: z.string(),
  end_date: z.string(),
  source: z.string().describe('Herkunft, z. B. "offline" oder "overpass + forecast"'),
  sources: z.object({ spots: placesSource, weather: weatherSource }),
  weather: z.object({
    source: weatherSource,
    is_estimate: z.boolean(),
    reference_years: z.array(z.number()).nullable(),
    aggregates: weatherAggregates,
    note: z.string(),
  }),
  weights: scoreParts.describe("Gewichte der Teilwerte (Summe 1)"),
  count: z.number(),
  ranking: z
    .array(
      placeWithDistance.extend({
        rank: z.number(),
        travel_time_min: z.number().describe("Geschätzte Anreisezeit in Minuten"),
        travel_mode: z.string().describe("Angenommenes Verkehrsmittel"),
        score: z.number().describe("Punktzahl 0 bis 100"),
        score_parts: scoreParts,
        explanation: z.string().describe("Wie die Punktzahl zustande kommt"),
      }),
    )
    .describe("Beste Orte zuerst"),
  note,
};

export type GeocodeOutput = z.output<z.ZodObject<typeof geocodeOutput>>;
export type WeatherOutput = z.output<z.ZodObject<typeof weatherOutput>>;
export type WeatherAggregates = z.output<typeof weatherAggregates>;
export type ParksOutput = z.output<z.ZodObject<typeof parksOutput>>;
export type SpotsOutput = z.output<z.ZodObject<typeof spotsOutput>>;
export type RankOutput = z.output<z.ZodObject<typeof rankOutput>>;
export type PlaceWithDistance = z.output<typeof placeWithDistance>;
export type ScoreParts = z.output<typeof scoreParts>;
