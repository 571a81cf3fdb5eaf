// Online services that fall back to the bundled offline data for one call when the upstream is down
// (network gone mid-workshop); the result says so in its note.
import type { Activity } from "../activities.js";
import { UpstreamUnavailableError } from "../errors.js";
import type { LatLon } from "../geo.js";
import type {
  GeocodeService,
  GeoPlace,
  PlacesResult,
  PlacesService,
  WeatherQuery,
  WeatherSeries,
  WeatherService,
} from "./types.js";

const PREFIX = "Online-Dienst nicht erreichbar, daher Offline-Daten verwendet";

async function withFallback<T>(
  online: () => Promise<T>,
  offline: () => Promise<T>,
  annotate: (value: T, reason: string) => T,
): Promise<T> {
  try {
    return await online();
  } catch (error) {
    if (!(error instanceof UpstreamUnavailableError)) throw error;
    let value: T;
    try {
      value = await offline();
    } catch {
      throw error; // the upstream problem is the more useful message
    }
    return annotate(value, `${PREFIX} (${error.message})`);
  }
}

export class FallbackGeocoder implements GeocodeService {
  constructor(
    private readonly online: GeocodeService,
    private readonly offline: GeocodeService,
  ) {}
  geocode(query: string, signal?: AbortSignal): Promise<GeoPlace> {
    return withFallback(
      () => this.online.geocode(query, signal),
      () => this.offline.geocode(query),
      (v, reason) => ({ ...v, note: reason }),
    );
  }
}

export class FallbackWeather implements WeatherService {
  constructor(
    private readonly online: WeatherService,
    private readonly offline: WeatherService,
  ) {}
  daily(q: WeatherQuery): Promise<WeatherSeries> {
    return withFallback(
      () => this.online.daily(q),
      () => this.offline.daily(q),
      (v, reason) => ({ ...v, note: `${reason}. ${v.note}` }),
    );
  }
}

export class FallbackPlaces implements PlacesService {
  constructor(
    private readonly online: PlacesService,
    private readonly offline: PlacesService,
  ) {}
  parks(center: LatLon, radiusKm: number, signal?: AbortSignal): Promise<PlacesResult> {
    return withFallback(
      () => this.online.parks(center, radiusKm, signal),
      () => this.offline.parks(center, radiusKm),
      (v, reason) => ({ ...v, note: `${reason}. ${v.note ?? ""}`.trim() }),
    );
  }
  spots(center: LatLon, radiusKm: number, activity: Activity, signal?: AbortSignal): Promise<PlacesResult> {
    return withFallback(
      () => this.online.spots(center, radiusKm, activity, signal),
      () => this.offline.spots(center, radiusKm, activity),
      (v, reason) => ({ ...v, note: `${reason}. ${v.note ?? ""}`.trim() }),
    );
  }
}
