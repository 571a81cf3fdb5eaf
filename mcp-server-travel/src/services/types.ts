// The small interfaces the tools depend on. Online (Nominatim, Open-Meteo, Overpass) and offline
// (bundled data) implementations are interchangeable.
import type { Activity } from "../activities.js";
import type { LatLon } from "../geo.js";

export type GeocodeSource = "nominatim" | "offline";
export type WeatherSource = "forecast" | "archive" | "archive+forecast" | "historical_fallback" | "offline";
export type PlacesSource = "overpass" | "offline";

export interface GeoPlace extends LatLon {
  display_name: string;
  country: string | null;
  source: GeocodeSource;
  /** Set when the answer came from a fallback (e.g. offline data because the upstream was down). */
  note?: string;
}

export interface DailyWeather {
  date: string;
  tmin_c: number | null;
  tmax_c: number | null;
  precip_mm: number | null;
  wind_max_kmh: number | null;
  /** WMO weather code (0 clear … 99 thunderstorm with hail). */
  weather_code: number | null;
}

export interface WeatherSeries {
  days: DailyWeather[];
  source: WeatherSource;
  is_estimate: boolean;
  reference_years: number[] | null;
  /** German sentence on where the numbers come from. */
  note: string;
  raw?: unknown;
}

export interface WeatherQuery extends LatLon {
  /** UTC day numbers (see dates.ts). */
  start: number;
  end: number;
  /** "Today" for routing; injected so tests are deterministic. */
  today: number;
  signal?: AbortSignal;
}

export interface Place extends LatLon {
  name: string;
  /** park | hiking | running | beach | sightseeing, or an OSM tag such as "tourism=museum". */
  kind: string;
  description: string | null;
}

export interface PlacesResult {
  places: Place[];
  source: PlacesSource;
  note?: string;
}

export interface GeocodeService {
  geocode(query: string, signal?: AbortSignal): Promise<GeoPlace>;
}

export interface WeatherService {
  daily(query: WeatherQuery): Promise<WeatherSeries>;
}

export interface PlacesService {
  /** Named parks within radius (unsorted, unlimited: the tool sorts and cuts). */
  parks(center: LatLon, radiusKm: number, signal?: AbortSignal): Promise<PlacesResult>;
  spots(center: LatLon, radiusKm: number, activity: Activity, signal?: AbortSignal): Promise<PlacesResult>;
}

export interface TravelServices {
  mode: "online" | "offline";
  geocoder: GeocodeService;
  weather: WeatherService;
  places: PlacesService;
}
