// The explainable score of rank_spots: four parts between 0 and 1, weighted, times 100.
import type { Activity } from "../activities.js";
import { round } from "../geo.js";
import type { ScoreParts, WeatherAggregates } from "./schemas.js";

export const WEIGHTS: ScoreParts = { distance: 0.4, rain: 0.25, temperature: 0.2, wind: 0.15 };

/** Comfortable mean daily maximum temperature per activity, °C. */
export const COMFORT_C: Record<Activity, [number, number]> = {
  hiking: [12, 24],
  running: [8, 20],
  beach: [24, 32],
  sightseeing: [15, 26],
};

/** Wind up to CALM is fine, from STORMY on it spoils any outdoor plan (daily maximum, km/h). */
const CALM_KMH = 20;
const STORMY_KMH = 60;
/** Temperature part loses 0.1 per degree outside the comfortable range. */
const PER_DEGREE = 0.1;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const de = (x: number, digits = 1) => String(round(x, digits)).replace(".", ",");

export function weatherParts(activity: Activity, w: WeatherAggregates): Omit<ScoreParts, "distance"> {
  const rain = w.days > 0 ? 1 - w.rainy_days / w.days : 0.5;
  const [low, high] = COMFORT_C[activity];
  const t = w.tmax_mean_c;
  const temperature = t === null ? 0.5 : clamp01(1 - PER_DEGREE * Math.max(0, low - t, t - high));
  const wind = w.wind_max_kmh === null ? 0.5 : clamp01(1 - (w.wind_max_kmh - CALM_KMH) / (STORMY_KMH - CALM_KMH));
  return { rain: round(rain, 3), temperature: round(temperature, 3), wind: round(wind, 3) };
}

export function scoreSpot(
  distanceKm: number,
  radiusKm: number,
  activity: Activity,
  w: WeatherAggregates,
): { score: number; parts: ScoreParts; explanation: string } {
  const parts: ScoreParts = { distance: round(clamp01(1 - distanceKm / radiusKm), 3), ...weatherParts(activity, w) };
  const score = round(
    100 *
      (WEIGHTS.distance * parts.distance +
        WEIGHTS.rain * parts.rain +
        WEIGHTS.temperature * parts.temperature +
        WEIGHTS.wind * parts.wind),
  );
  const [low, high] = COMFORT_C[activity];
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  const explanation = [
    `Entfernung ${de(distanceKm)} km → ${de(parts.distance, 2)} × ${pct(WEIGHTS.distance)}`,
    `Regentage ${w.rainy_days} von ${w.days} → ${de(parts.rain, 2)} × ${pct(WEIGHTS.rain)}`,
    w.tmax_mean_c === null
      ? `Temperatur unbekannt → ${de(parts.temperature, 2)} × ${pct(WEIGHTS.temperature)}`
      : `Ø Höchsttemperatur ${de(w.tmax_mean_c)} °C (angenehm ${low}–${high} °C) → ${de(parts.temperature, 2)} × ${pct(WEIGHTS.temperature)}`,
    w.wind_max_kmh === null
      ? `Wind unbekannt → ${de(parts.wind, 2)} × ${pct(WEIGHTS.wind)}`
      : `Wind bis ${de(w.wind_max_kmh)} km/h → ${de(parts.wind, 2)} × ${pct(WEIGHTS.wind)}`,
  ].join("; ");
  return { score, parts, explanation: `${de(score)} Punkte = 100 × (${explanation})` };
}
