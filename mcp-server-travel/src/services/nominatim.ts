// Geocoding with OpenStreetMap Nominatim (no token; at most one request per second, identifying User-Agent).
import { z } from "zod";
import { NotFoundError, UpstreamResponseError } from "../errors.js";
import type { JsonCache } from "./cache.js";
import type { HttpJsonClient } from "./http.js";
import { geocodeOutput } from "../tools/schemas.js";
import { InFlight } from "./in-flight.js";
import { CallSpacer } from "./rate-limit.js";
import type { GeoPlace, GeocodeService } from "./types.js";

const coordinate = z.union([z.string(), z.number()]).transform((v) => Number(v));

const SearchResponse = z.array(
  z.looseObject({
    lat: coordinate,
    lon: coordinate,
    display_name: z.string(),
    address: z.looseObject({ country: z.string().optional() }).optional(),
  }),
);

/** What the cache holds: the geocode tool's output fields (checked on every read). */
const CachedPlace = z
  .object(geocodeOutput)
  .omit({ query: true, note: true })
  .extend({ source: z.literal("nominatim") });

const GEOCODE_TTL_MS = 30 * 86_400_000;

export interface NominatimOptions {
  baseUrl: string;
  intervalMs: number;
  limiter?: CallSpacer;
}

export class NominatimGeocoder implements GeocodeService {
  private readonly limiter: CallSpacer;

  constructor(
    private readonly http: HttpJsonClient,
    private readonly cache: JsonCache,
    private readonly options: NominatimOptions,
  ) {
    this.limiter = options.limiter ?? new CallSpacer(options.intervalMs);
  }

  /** Identical concurrent lookups share one (cache check, request, cache write). */
  private readonly inFlight = new InFlight<GeoPlace>();

  geocode(query: string, signal?: AbortSignal): Promise<GeoPlace> {
    const q = query.trim();
    const key = q.toLowerCase();
    return this.inFlight.run(key, signal, (shared) => this.lookup(query, q, key, shared));
  }

  private async lookup(query: string, q: string, key: string, signal: AbortSignal): Promise<GeoPlace> {
    const cached = await this.cache.get("nominatim", key, GEOCODE_TTL_MS, CachedPlace);
    if (cached) return cached;

    const params = new URLSearchParams({
      q,
      format: "jsonv2",
      limit: "1",
      addressdetails: "1",
      "accept-language": "de",
    });
    const url = `${this.options.baseUrl}/search?${params}`;
    // Every attempt (retries too) waits for its own slot: at most one request per second reaches Nominatim.
    const hits = await this.http.json({ service: "Nominatim", url, signal, rateLimit: this.limiter }, SearchResponse);
    const first = hits[0];
    if (!first) {
      throw new NotFoundError(
        `Kein Ort gefunden für "${q}". Prüfe die Schreibweise oder ergänze das Land, z. B. "Valencia, Spanien".`,
        query,
      );
    }
    if (!(Math.abs(first.lat) <= 90 && Math.abs(first.lon) <= 180)) {
      throw new UpstreamResponseError(`Nominatim lieferte ungültige Koordinaten für "${q}".`, { url });
    }
    const place: GeoPlace = {
      lat: first.lat,
      lon: first.lon,
      display_name: first.display_name,
      country: first.address?.country ?? null,
      source: "nominatim",
    };
    await this.cache.set("nominatim", key, place, GEOCODE_TTL_MS);
    return place;
  }
}
