// The tools' logic over the injected services: argument checks beyond the schema, sorting, scoring.
import { ACTIVITY_LABEL_DE, DEFAULT_RADIUS_KM, resolveActivity } from "../activities.js";
import { formatDay, parseIsoDate } from "../dates.js";
import { InvalidArgumentError } from "../errors.js";
import { distanceKm, round, travelEstimate, type LatLon } from "../geo.js";
import type { Place, TravelServices } from "../services/types.js";
import {
  MAX_RADIUS_KM,
  MAX_RANGE_DAYS,
  type GeocodeOutput,
  type ParksOutput,
  type PlaceWithDistance,
  type RankOutput,
  type SpotsOutput,
  type WeatherOutput,
} from "./schemas.js";
import { WEIGHTS, scoreSpot } from "./scoring.js";
import { aggregate, weatherText } from "./weather-summary.js";

export interface ToolContext {
  /** UTC day number of "today" (injectable for deterministic routing). */
  today: number;
  signal?: AbortSignal;
}

/** Earliest day of the Open-Meteo archive and the farthest future we estimate for. */
const EARLIEST = parseIsoDate("1940-01-01")!;
const MAX_DAYS_AHEAD = 730;

export function checkDates(startText: string, endText: string, today: number): { start: number; end: number } {
  const start = parseIsoDate(startText);
  const end = parseIsoDate(endText);
  if (start === undefined)
    throw new InvalidArgumentError(`start_date "${startText}" ist kein gültiges Datum (Format JJJJ-MM-TT).`, startText);
  if (end === undefined)
    throw new InvalidArgumentError(`end_date "${endText}" ist kein gültiges Datum (Format JJJJ-MM-TT).`, endText);
  if (end < start) {
    throw new InvalidArgumentError(
      `end_date (${endText}) liegt vor start_date (${startText}). Das Ende des Zeitraums darf nicht vor dem Anfang liegen.`,
      { start_date: startText, end_date: endText },
    );
  }
  if (end - start + 1 > MAX_RANGE_DAYS) {
    throw new InvalidArgumentError(
      `Der Zeitraum umfasst ${end - start + 1} Tage; erlaubt sind höchstens ${MAX_RANGE_DAYS}. Teile ihn in kürzere Abschnitte.`,
      { start_date: startText, end_date: endText },
    );
  }
  if (start < EARLIEST)
    throw new InvalidArgumentError(`Wetterdaten gibt es erst ab 1940-01-01 (angefragt: ${startText}).`, startText);
  if (end > today + MAX_DAYS_AHEAD) {
    throw new InvalidArgumentError(
      `end_date ${endText} liegt mehr als zwei Jahre in der Zukunft (heute: ${formatDay(today)}); dafür gibt es keine sinnvolle Schätzung.`,
      endText,
    );
  }
  return { start, end };
}

function withDistances(center: LatLon, places: Place[], limit: number): PlaceWithDistance[] {
  return places
    .map((p) => ({
      name: p.name,
      lat: p.lat,
      lon: p.lon,
      kind: p.kind,
      description: p.description,
      distance_km: round(distanceKm(center, p), 2),
    }))
    .sort((a, b) => a.distance_km - b.distance_km || a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** Note for an empty result without an explanation from the service (the offline data gives its own). */
function nothingFound(what: string, radiusKm: number): string {
  const wider =
    radiusKm < MAX_RADIUS_KM ? ` Ein größerer Umkreis (radius_km bis ${MAX_RADIUS_KM}) findet vielleicht welche.` : "";
  return `Keine ${what} im Umkreis von ${radiusKm} km gefunden.${wider}`;
}

export async function geocode(
  s: TravelServices,
  args: { destination: string },
  ctx: ToolContext,
): Promise<GeocodeOutput> {
  const place = await s.geocoder.geocode(args.destination, ctx.signal);
  return {
    query: args.destination,
    lat: place.lat,
    lon: place.lon,
    display_name: place.display_name,
    country: place.country,
    source: place.source,
    ...(place.note ? { note: place.note } : {}),
  };
}

export async function getWeather(
  s: TravelServices,
  args: { lat: number; lon: number; start_date: string; end_date: string; include_raw?: boolean },
  ctx: ToolContext,
): Promise<WeatherOutput> {
  const { start, end } = checkDates(args.start_date, args.end_date, ctx.today);
  const series = await s.weather.daily({
    lat: args.lat,
    lon: args.lon,
    start,
    end,
    today: ctx.today,
    signal: ctx.signal,
  });
  const days = series.days.map((d) => ({ ...d, weather: weatherText(d.weather_code) }));
  return {
    lat: args.lat,
    lon: args.lon,
    start_date: args.start_date,
    end_date: args.end_date,
    source: series.source,
    is_estimate: series.is_estimate,
    reference_years: series.reference_years,
    note: series.note,
    days,
    aggregates: aggregate(series.days),
    ...(args.include_raw ? { raw: series.raw ?? null } : {}),
  };
}

export async function getParks(
  s: TravelServices,
  args: { lat: number; lon: number; radius_km: number; max_elements?: number },
  ctx: ToolContext,
): Promise<ParksOutput> {
  const center = { lat: args.lat, lon: args.lon };
  const result = await s.places.parks(center, args.radius_km, ctx.signal);
  const parks = withDistances(center, result.places, args.max_elements ?? 20).filter(
    (p) => p.distance_km <= args.radius_km,
  );
  const note = result.note ?? (parks.length === 0 ? nothingFound("Parks", args.radius_km) : undefined);
  return {
    center,
    radius_km: args.radius_km,
    source: result.source,
    count: parks.length,
    parks,
    ...(note ? { note } : {}),
  };
}

export async function getSpots(
  s: TravelServices,
  args: { lat: number; lon: number; radius_km: number; activity: string },
  ctx: ToolContext,
  limit = 30,
): Promise<SpotsOutput> {
  const center = { lat: args.lat, lon: args.lon };
  const { activity, note: activityNote } = resolveActivity(args.activity);
  const result = await s.places.spots(center, args.radius_km, activity, ctx.signal);
  const spots = withDistances(center, result.places, limit).filter((p) => p.distance_km <= args.radius_km);
  const note =
    result.note ??
    (spots.length === 0 ? nothingFound(`Orte für ${ACTIVITY_LABEL_DE[activity]}`, args.radius_km) : undefined);
  return {
    center,
    radius_km: args.radius_km,
    activity,
    activity_input: args.activity,
    ...(activityNote ? { activity_note: activityNote } : {}),
    source: result.source,
    count: spots.length,
    spots,
    ...(note ? { note } : {}),
  };
}

export async function rankSpots(
  s: TravelServices,
  args: {
    lat: number;
    lon: number;
    start_date: string;
    end_date: string;
    activity: string;
    radius_km?: number;
    top_k?: number;
  },
  ctx: ToolContext,
): Promise<RankOutput> {
  const radius = args.radius_km ?? DEFAULT_RADIUS_KM[resolveActivity(args.activity).activity];
  checkDates(args.start_date, args.end_date, ctx.today);
  const [spots, weather] = await Promise.all([
    getSpots(s, { lat: args.lat, lon: args.lon, radius_km: radius, activity: args.activity }, ctx, 200),
    getWeather(s, { lat: args.lat, lon: args.lon, start_date: args.start_date, end_date: args.end_date }, ctx),
  ]);
  const ranking = spots.spots
    .map((spot) => {
      const { score, parts, explanation } = scoreSpot(spot.distance_km, radius, spots.activity, weather.aggregates);
      const travel = travelEstimate(spot.distance_km);
      return {
        ...spot,
        travel_time_min: travel.minutes,
        travel_mode: travel.mode,
        score,
        score_parts: parts,
        explanation,
      };
    })
    .sort((a, b) => b.score - a.score || a.distance_km - b.distance_km || a.name.localeCompare(b.name))
    .slice(0, args.top_k ?? 5)
    .map((r, i) => ({ rank: i + 1, ...r }));
  const source =
    spots.source === "offline" && weather.source === "offline" ? "offline" : `${spots.source} + ${weather.source}`;
  const notes = [
    spots.note,
    args.radius_km === undefined
      ? `Ohne radius_km gilt für ${ACTIVITY_LABEL_DE[spots.activity]} ein Umkreis von ${radius} km.`
      : undefined,
    "Das Wetter gilt für den Mittelpunkt der Suche und damit für alle Orte gleich; die Reihenfolge innerhalb eines Zeitraums bestimmt vor allem die Entfernung.",
  ].filter(Boolean);
  return {
    center: spots.center,
    radius_km: radius,
    activity: spots.activity,
    activity_input: args.activity,
    ...(spots.activity_note ? { activity_note: spots.activity_note } : {}),
    start_date: args.start_date,
    end_date: args.end_date,
    source,
    sources: { spots: spots.source, weather: weather.source },
    weather: {
      source: weather.source,
      is_estimate: weather.is_estimate,
      reference_years: weather.reference_years,
      aggregates: weather.aggregates,
      note: weather.note,
    },
    weights: WEIGHTS,
    count: ranking.length,
    ranking,
    note: notes.join(" "),
  };
}
