// Aggregates over daily weather and German words for WMO weather codes.
import { round } from "../geo.js";
import type { DailyWeather } from "../services/types.js";
import type { WeatherAggregates } from "./schemas.js";

/** A day counts as rainy from this much precipitation on (the usual climatological threshold). */
export const RAINY_DAY_MM = 1;

const WMO_DE: [number[], string][] = [
  [[0], "klar"],
  [[1], "überwiegend klar"],
  [[2], "teilweise bewölkt"],
  [[3], "bedeckt"],
  [[45, 48], "Nebel"],
  [[51, 53, 55, 56, 57], "Nieselregen"],
  [[61, 80], "leichter Regen"],
  [[63, 81], "Regen"],
  [[65, 82], "starker Regen"],
  [[66, 67], "gefrierender Regen"],
  [[71, 73, 75, 77, 85, 86], "Schnee"],
  [[95], "Gewitter"],
  [[96, 99], "Gewitter mit Hagel"],
];

export function weatherText(code: number | null): string {
  if (code === null) return "unbekannt";
  return WMO_DE.find(([codes]) => codes.includes(code))?.[1] ?? `Wettercode ${code}`;
}

function values(days: DailyWeather[], field: keyof Omit<DailyWeather, "date">): number[] {
  return days.map((d) => d[field]).filter((v): v is number => v !== null);
}

export function aggregate(days: DailyWeather[]): WeatherAggregates {
  const tmin = values(days, "tmin_c");
  const tmax = values(days, "tmax_c");
  const precip = values(days, "precip_mm");
  const wind = values(days, "wind_max_kmh");
  return {
    days: days.length,
    tmin_c: tmin.length ? Math.min(...tmin) : null,
    tmax_c: tmax.length ? Math.max(...tmax) : null,
    tmax_mean_c: tmax.length ? round(tmax.reduce((a, b) => a + b, 0) / tmax.length) : null,
    precip_total_mm: precip.length ? round(precip.reduce((a, b) => a + b, 0)) : null,
    rainy_days: precip.filter((p) => p >= RAINY_DAY_MM).length,
    wind_max_kmh: wind.length ? Math.max(...wind) : null,
  };
}
