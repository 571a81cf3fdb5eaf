// Parks and activity spots from OpenStreetMap via the Overpass API.
import { z } from "zod";
import type { Activity } from "../activities.js";
import type { LatLon } from "../geo.js";
import type { JsonCache } from "./cache.js";
import type { HttpJsonClient } from "./http.js";
import { InFlight } from "./in-flight.js";
import { ConcurrencyLimit } from "./rate-limit.js";
import type { Place, PlacesResult, PlacesService } from "./types.js";

const point = z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) });

const OverpassResponse = z.looseObject({
  elements: z.array(
    z.looseObject({
      type: z.string(),
      id: z.number(),
      lat: z.number().optional(),
      lon: z.number().optional(),
      center: point.optional(),
      tags: z.record(z.string(), z.string()).optional(),
    }),
  ),
});

/** Overpass filters per activity; every selector also requires a name. */
const SELECTORS: Record<Activity | "park", string[]> = {
  park: ['nwr["leisure"="park"]["name"]'],
  hiking: [
    'relation["route"="hiking"]["name"]',
    'nwr["leisure"="nature_reserve"]["name"]',
    'node["natural"="peak"]["name"]',
  ],
  running: ['nwr["leisure"="park"]["name"]', 'nwr["leisure"="track"]["name"]'],
  beach: ['nwr["natural"="beach"]["name"]', 'nwr["leisure"="beach_resort"]["name"]'],
  sightseeing: [
    'nwr["tourism"~"^(attraction|museum|viewpoint|gallery)$"]["name"]',
    'nwr["historic"~"^(monument|castle|memorial|ruins)$"]["name"]',
  ],
};

const CachedPlaces = z.array(point.extend({ name: z.string(), kind: z.string(), description: z.string().nullable() }));

const KIND_TAGS = ["leisure", "route", "natural", "tourism", "historic"] as const;
const TTL_MS = 7 * 86_400_000;
const MAX_ELEMENTS = 300;

export function overpassQuery(kind: Activity | "park", center: LatLon, radiusKm: number): string {
  const around = `(around:${Math.round(radiusKm * 1000)},${center.lat.toFixed(5)},${center.lon.toFixed(5)})`;
  const body = SELECTORS[kind].map((s) => `  ${s}${around};`).join("\n");
  return `[out:json][timeout:25];\n(\n${body}\n);\nout center ${MAX_ELEMENTS};`;
}

export class OverpassPlaces implements PlacesService {
  /** Overpass asks for few parallel queries per client; more only queue up there (and then time out). */
  private readonly slots: ConcurrencyLimit;

  constructor(
    private readonly http: HttpJsonClient,
    private readonly cache: JsonCache,
    private readonly options: { overpassUrl: string; concurrency?: number },
  ) {
    this.slots = new ConcurrencyLimit(options.concurrency ?? 2);
  }

  parks(center: LatLon, radiusKm: number, signal?: AbortSignal): Promise<PlacesResult> {
    return this.query("park", center, radiusKm, signal);
  }

  spots(center: LatLon, radiusKm: number, activity: Activity, signal?: AbortSignal): Promise<PlacesResult> {
    return this.query(activity, center, radiusKm, signal);
  }

  /** Identical concurrent queries share one (cache check, request, cache write). */
  private readonly inFlight = new InFlight<PlacesResult>();

  private query(
    kind: Activity | "park",
    center: LatLon,
    radiusKm: number,
    signal?: AbortSignal,
  ): Promise<PlacesResult> {
    const ql = overpassQuery(kind, center, radiusKm);
    return this.inFlight.run(ql, signal, (shared) => this.load(ql, shared));
  }

  private async load(ql: string, signal: AbortSignal): Promise<PlacesResult> {
    let places: Place[] | undefined = await this.cache.get("overpass", ql, TTL_MS, CachedPlaces);
    if (!places) {
      const response = await this.http.json(
        {
          service: "Overpass",
          url: this.options.overpassUrl,
          method: "POST",
          body: new URLSearchParams({ data: ql }).toString(),
          contentType: "application/x-www-form-urlencoded",
          signal,
          concurrency: this.slots,
        },
        OverpassResponse,
      );
      places = toPlaces(response.elements);
      await this.cache.set("overpass", ql, places, TTL_MS);
    }
    return { places, source: "overpass" };
  }
}

function toPlaces(elements: z.output<typeof OverpassResponse>["elements"]): Place[] {
  const seen = new Set<string>();
  const out: Place[] = [];
  for (const e of elements) {
    const pos = e.center ?? (e.lat !== undefined && e.lon !== undefined ? { lat: e.lat, lon: e.lon } : undefined);
    const name = e.tags?.["name:de"] ?? e.tags?.name;
    if (!pos || !name || !(Math.abs(pos.lat) <= 90 && Math.abs(pos.lon) <= 180)) continue;
    const key = `${name}|${pos.lat.toFixed(3)}|${pos.lon.toFixed(3)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const tag = KIND_TAGS.find((t) => e.tags?.[t]);
    out.push({
      name,
      lat: pos.lat,
      lon: pos.lon,
      kind: tag ? `${tag}=${e.tags?.[tag]}` : e.type,
      description: e.tags?.description ?? null,
    });
  }
  return out;
}
