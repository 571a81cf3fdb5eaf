// German text renderings of the tool results (the `content` next to `structuredContent`).
import { ACTIVITY_LABEL_DE } from "../activities.js";
import type {
  GeocodeOutput,
  ParksOutput,
  PlaceWithDistance,
  RankOutput,
  SpotsOutput,
  WeatherOutput,
} from "./schemas.js";

const SOURCE_DE: Record<string, string> = {
  nominatim: "OpenStreetMap Nominatim",
  overpass: "OpenStreetMap Overpass",
  forecast: "Open-Meteo-Vorhersage",
  archive: "Open-Meteo-Archiv (Messwerte)",
  "archive+forecast": "Open-Meteo-Archiv (Messwerte), die letzten Tage aus der Open-Meteo-Vorhersage",
  historical_fallback: "Mittelwerte vergangener Jahre (Schätzung)",
  offline: "mitgelieferte Offline-Daten",
};

const n = (x: number | null, unit: string) => (x === null ? "?" : `${String(x).replace(".", ",")} ${unit}`);

function withNote(lines: string[], note: string | undefined): string {
  return (note ? [...lines, `Hinweis: ${note}`] : lines).join("\n");
}

export function renderGeocode(r: GeocodeOutput): string {
  return withNote([`${r.display_name}: lat ${r.lat}, lon ${r.lon} (Quelle: ${SOURCE_DE[r.source]})`], r.note);
}

export function renderWeather(r: WeatherOutput): string {
  const a = r.aggregates;
  const lines = [
    `Wetter ${r.start_date} bis ${r.end_date} bei (${r.lat}, ${r.lon}) – Quelle: ${SOURCE_DE[r.source]}${r.is_estimate ? ", geschätzt" : ""}`,
    `Zusammenfassung: ${a.days} Tage, Tiefstwert ${n(a.tmin_c, "°C")}, Höchstwert ${n(a.tmax_c, "°C")}, ` +
      `Niederschlag gesamt ${n(a.precip_total_mm, "mm")}, Regentage ${a.rainy_days}, Wind bis ${n(a.wind_max_kmh, "km/h")}`,
    ...r.days.map(
      (d) =>
        `- ${d.date}: ${n(d.tmin_c, "°C")} bis ${n(d.tmax_c, "°C")}, ${n(d.precip_mm, "mm")}, Wind ${n(d.wind_max_kmh, "km/h")}, ${d.weather}`,
    ),
  ];
  return withNote(lines, r.note);
}

function placeLine(p: PlaceWithDistance, i: number): string {
  return `${i + 1}. ${p.name} – ${String(p.distance_km).replace(".", ",")} km (${p.kind})`;
}

export function renderParks(r: ParksOutput): string {
  const head = `${r.count} Parks im Umkreis von ${r.radius_km} km (Quelle: ${SOURCE_DE[r.source]})`;
  return withNote([head, ...r.parks.map(placeLine)], r.note);
}

export function renderSpots(r: SpotsOutput): string {
  const head = `${r.count} Orte für ${ACTIVITY_LABEL_DE[r.activity]} im Umkreis von ${r.radius_km} km (Quelle: ${SOURCE_DE[r.source]})`;
  return withNote([...(r.activity_note ? [r.activity_note] : []), head, ...r.spots.map(placeLine)], r.note);
}

export function renderRank(r: RankOutput): string {
  const head =
    `Rangliste für ${ACTIVITY_LABEL_DE[r.activity]}, ${r.start_date} bis ${r.end_date}, Umkreis ${r.radius_km} km ` +
    `(Orte: ${SOURCE_DE[r.sources.spots]}, Wetter: ${SOURCE_DE[r.sources.weather]})`;
  const lines = r.ranking.map(
    (s) =>
      `${s.rank}. ${s.name} – ${String(s.score).replace(".", ",")} Punkte, ${String(s.distance_km).replace(".", ",")} km, ca. ${s.travel_time_min} min ${s.travel_mode}`,
  );
  return withNote([...(r.activity_note ? [r.activity_note] : []), head, ...lines], r.note);
}
