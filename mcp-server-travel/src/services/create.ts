// Builds the services for one server process: online (with per-call offline fallback) or offline.
import { loadOfflineData, type OfflineData } from "../offline/data.js";
import { Gazetteer } from "../offline/gazetteer.js";
import { OfflinePlaces } from "../offline/places-offline.js";
import { OfflineWeather } from "../offline/weather-offline.js";
import type { UpstreamConfig } from "../config.js";
import { errorText } from "../../../lib/util.js";
import { FileCache, NoCache, type JsonCache } from "./cache.js";
import { FallbackGeocoder, FallbackPlaces, FallbackWeather } from "./fallback.js";
import { HttpJsonClient } from "./http.js";
import { NominatimGeocoder } from "./nominatim.js";
import { OpenMeteoClient } from "./open-meteo.js";
import { OverpassPlaces } from "./overpass.js";
import type { TravelServices } from "./types.js";
import { OnlineWeather } from "./weather-online.js";

export function offlineServices(data: OfflineData): TravelServices {
  const gazetteer = new Gazetteer(data.cities);
  return {
    mode: "offline",
    geocoder: gazetteer,
    weather: new OfflineWeather(gazetteer),
    places: new OfflinePlaces(data.places),
  };
}

export function onlineServices(
  config: UpstreamConfig,
  offline?: TravelServices,
  cache: JsonCache = config.cacheDir ? new FileCache(config.cacheDir) : new NoCache(),
): TravelServices {
  const http = new HttpJsonClient(config);
  const geocoder = new NominatimGeocoder(http, cache, {
    baseUrl: config.nominatimUrl,
    intervalMs: config.nominatimIntervalMs,
  });
  const weather = new OnlineWeather(
    new OpenMeteoClient(http, cache, { forecastUrl: config.forecastUrl, archiveUrl: config.archiveUrl }),
  );
  const places = new OverpassPlaces(http, cache, {
    overpassUrl: config.overpassUrl,
    concurrency: config.overpassConcurrency,
  });
  if (!offline) return { mode: "online", geocoder, weather, places };
  return {
    mode: "online",
    geocoder: new FallbackGeocoder(geocoder, offline.geocoder),
    weather: new FallbackWeather(weather, offline.weather),
    places: new FallbackPlaces(places, offline.places),
  };
}

/** Online services backed by offline data when it loads; offline mode requires the data. */
export async function createServices(options: {
  offline: boolean;
  upstream: UpstreamConfig;
  dataDir: string;
  log: (line: string) => void;
}): Promise<TravelServices> {
  if (options.offline) return offlineServices(await loadOfflineData(options.dataDir));
  const cache = options.upstream.cacheDir ? new FileCache(options.upstream.cacheDir) : new NoCache();
  if (cache instanceof FileCache) {
    const swept = await cache.sweep();
    if (swept.tempFiles + swept.expired > 0) {
      options.log(
        `Cache aufgeräumt: ${swept.tempFiles} Reste abgebrochener Schreibvorgänge, ${swept.expired} abgelaufene Einträge entfernt.`,
      );
    }
  }
  let fallback: TravelServices | undefined;
  try {
    fallback = offlineServices(await loadOfflineData(options.dataDir));
  } catch (error) {
    options.log(`Offline-Daten nicht geladen, daher kein Offline-Ersatz bei Netzproblemen: ${errorText(error)}`);
  }
  return onlineServices(options.upstream, fallback, cache);
}
