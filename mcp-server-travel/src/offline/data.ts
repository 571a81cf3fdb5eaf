// Loads and validates the bundled offline data (data/travel/cities.json and places.json).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { OfflineDataError } from "../errors.js";

const twelve = (min: number, max: number) => z.array(z.number().min(min).max(max)).length(12);

export const CitySchema = z.object({
  name: z.string().min(1),
  aliases: z.array(z.string()).default([]),
  country: z.string().min(1),
  country_code: z.string().min(2).max(3),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  population: z.number().nonnegative().nullable().optional(),
  climate: z.object({
    tmin_c: twelve(-60, 50),
    tmax_c: twelve(-50, 60),
    precip_mm: twelve(0, 2000),
    rainy_days: twelve(0, 31),
    wind_max_kmh: twelve(0, 200),
  }),
});

export const PLACE_KINDS = ["park", "hiking", "running", "beach", "sightseeing"] as const;

export const PlaceSchema = z.object({
  city: z.string().min(1),
  name: z.string().min(1),
  kind: z.enum(PLACE_KINDS),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  description: z.string().default(""),
});

export type City = z.output<typeof CitySchema>;
export type OfflinePlace = z.output<typeof PlaceSchema>;

export interface OfflineData {
  cities: City[];
  places: OfflinePlace[];
  dir: string;
}

async function loadArray<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new OfflineDataError(
      `Offline-Daten fehlen: ${file} ist nicht lesbar. Ist das Repository vollständig?`,
      file,
      {
        cause: error,
      },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new OfflineDataError(`Offline-Daten kaputt: ${file} ist kein gültiges JSON.`, file, { cause: error });
  }
  const parsed = z.array(schema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OfflineDataError(
      `Offline-Daten ungültig in ${file}: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "unbekannter Fehler"}`,
      file,
      { cause: parsed.error },
    );
  }
  return parsed.data;
}

export async function loadOfflineData(dir: string): Promise<OfflineData> {
  // Both files load at once; when both fail, the error about cities.json wins (same message every run).
  const [citiesResult, placesResult] = await Promise.allSettled([
    loadArray(join(dir, "cities.json"), CitySchema),
    loadArray(join(dir, "places.json"), PlaceSchema),
  ]);
  if (citiesResult.status === "rejected") throw citiesResult.reason;
  if (placesResult.status === "rejected") throw placesResult.reason;
  const [cities, places] = [citiesResult.value, placesResult.value];
  if (cities.length === 0)
    throw new OfflineDataError(`Offline-Daten leer: ${join(dir, "cities.json")} enthält keine Städte.`, dir);
  return { cities, places, dir };
}
