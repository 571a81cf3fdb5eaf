// Daily weather from Open-Meteo: forecast API (today … +15 days, also recent past) and archive API (ERA5).
import { z } from "zod";
import { UpstreamResponseError } from "../errors.js";
import type { JsonCache } from "./cache.js";
import type { HttpJsonClient } from "./http.js";
import { InFlight } from "./in-flight.js";
import type { DailyWeather } from "./types.js";

const DAILY_FIELDS = [
  "temperature_2m_min",
  "temperature_2m_max",
  "precipitation_sum",
  "wind_speed_10m_max",
  "weather_code",
] as const;

const series = z.array(z.number().nullable());

const DailyResponse = z.looseObject({
  latitude: z.number(),
  longitude: z.number(),
  daily: z.looseObject({
    time: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
    temperature_2m_min: series,
    temperature_2m_max: series,
    precipitation_sum: series,
    wind_speed_10m_max: series,
    weather_code: series,
  }),
});

/** A cached response: the same shape, and every series as long as the list of days. */
const CachedDaily = DailyResponse.refine((r) => DAILY_FIELDS.every((f) => r.daily[f].length === r.daily.time.length));

export type OpenMeteoDaily = z.output<typeof DailyResponse>;

export interface OpenMeteoOptions {
  forecastUrl: string;
  archiveUrl: string;
}

const TTL_MS = { forecast: 3_600_000, archive: 30 * 86_400_000 } as const;

export class OpenMeteoClient {
  constructor(
    private readonly http: HttpJsonClient,
    private readonly cache: JsonCache,
    private readonly options: OpenMeteoOptions,
  ) {}

  /** Identical concurrent requests share one (cache check, request, cache write). */
  private readonly inFlight = new InFlight<{ days: DailyWeather[]; raw: OpenMeteoDaily }>();

  forecast(lat: number, lon: number, startDate: string, endDate: string, signal?: AbortSignal) {
    return this.fetchDaily("forecast", `${this.options.forecastUrl}/v1/forecast`, lat, lon, startDate, endDate, signal);
  }

  archive(lat: number, lon: number, startDate: string, endDate: string, signal?: AbortSignal) {
    return this.fetchDaily("archive", `${this.options.archiveUrl}/v1/archive`, lat, lon, startDate, endDate, signal);
  }

  private async fetchDaily(
    kind: "forecast" | "archive",
    endpoint: string,
    lat: number,
    lon: number,
    startDate: string,
    endDate: string,
    signal?: AbortSignal,
  ): Promise<{ days: DailyWeather[]; raw: OpenMeteoDaily }> {
    const params = new URLSearchParams({
      latitude: lat.toFixed(4),
      longitude: lon.toFixed(4),
      start_date: startDate,
      end_date: endDate,
      daily: DAILY_FIELDS.join(","),
      timezone: "auto",
      wind_speed_unit: "kmh",
    });
    const url = `${endpoint}?${params}`;
    return this.inFlight.run(url, signal, (shared) => this.load(kind, url, shared));
  }

  private async load(
    kind: "forecast" | "archive",
    url: string,
    signal: AbortSignal,
  ): Promise<{ days: DailyWeather[]; raw: OpenMeteoDaily }> {
    const cached = await this.cache.get(`open-meteo-${kind}`, url, TTL_MS[kind], CachedDaily);
    if (cached) return { days: toDays(cached, url), raw: cached };
    const raw = await this.http.json({ service: "Open-Meteo", url, signal }, DailyResponse);
    const days = toDays(raw, url); // validate before caching
    await this.cache.set(`open-meteo-${kind}`, url, raw, TTL_MS[kind]);
    return { days, raw };
  }
}

function toDays(raw: OpenMeteoDaily, url: string): DailyWeather[] {
  const d = raw.daily;
  const n = d.time.length;
  if (DAILY_FIELDS.some((f) => d[f].length !== n)) {
    throw new UpstreamResponseError("Open-Meteo lieferte Tageswerte unterschiedlicher Länge.", { url });
  }
  return d.time.map((date, i) => ({
    date,
    tmin_c: d.temperature_2m_min[i] ?? null,
    tmax_c: d.temperature_2m_max[i] ?? null,
    precip_mm: d.precipitation_sum[i] ?? null,
    wind_max_kmh: d.wind_speed_10m_max[i] ?? null,
    weather_code: d.weather_code[i] ?? null,
  }));
}
