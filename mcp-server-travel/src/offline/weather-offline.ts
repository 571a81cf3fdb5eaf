// Offline weather: deterministic daily estimates from the monthly climate normals of the nearest city.
//   temperatures and wind: linear interpolation between month midpoints;
//   rain: the month's rainy days spread evenly over the month, each getting precip_mm / rainy_days.
import { NotFoundError } from "../errors.js";
import { dayParts, dayRange, daysInMonth, formatDay } from "../dates.js";
import { round } from "../geo.js";
import type { DailyWeather, WeatherQuery, WeatherSeries, WeatherService } from "../services/types.js";
import type { City } from "./data.js";
import type { Gazetteer } from "./gazetteer.js";

/** Farther than this from every bundled city, offline estimates would be fiction. */
export const MAX_CLIMATE_DISTANCE_KM = 300;

type Monthly = readonly number[];

function interpolate(values: Monthly, month: number, date: number, monthDays: number): number {
  const i = month - 1;
  const t = (date - 0.5) / monthDays; // 0 … 1 within the month, 0.5 = middle
  const here = values[i]!;
  const neighbour = t < 0.5 ? values[(i + 11) % 12]! : values[(i + 1) % 12]!;
  return here + (neighbour - here) * Math.abs(t - 0.5);
}

function isRainy(rainyDays: number, date: number, monthDays: number): boolean {
  const r = Math.min(rainyDays, monthDays);
  return Math.floor((date * r) / monthDays + 0.5) > Math.floor(((date - 1) * r) / monthDays + 0.5);
}

export function estimateDay(city: City, day: number): DailyWeather {
  const { year, month, date } = dayParts(day);
  const n = daysInMonth(year, month);
  const c = city.climate;
  const m = month - 1;
  const rainyDays = c.rainy_days[m]!;
  const rainy = isRainy(rainyDays, date, n);
  const tmax = interpolate(c.tmax_c, month, date, n);
  const precip = rainy ? c.precip_mm[m]! / Math.max(1, Math.round(Math.min(rainyDays, n))) : 0;
  const share = rainyDays / n;
  let code: number;
  if (rainy) code = tmax <= 1 ? 71 : precip >= 10 ? 63 : 61;
  else code = share > 0.35 ? 3 : share > 0.2 ? 2 : 1;
  return {
    date: formatDay(day),
    tmin_c: round(interpolate(c.tmin_c, month, date, n)),
    tmax_c: round(tmax),
    precip_mm: round(precip),
    wind_max_kmh: round(interpolate(c.wind_max_kmh, month, date, n)),
    weather_code: code,
  };
}

export class OfflineWeather implements WeatherService {
  constructor(private readonly gazetteer: Gazetteer) {}

  async daily(q: WeatherQuery): Promise<WeatherSeries> {
    const { city, distanceKm } = this.gazetteer.nearest(q.lat, q.lon);
    if (distanceKm > MAX_CLIMATE_DISTANCE_KM) {
      throw new NotFoundError(
        `Keine Offline-Klimadaten in der Nähe von (${q.lat}, ${q.lon}): die nächste Stadt, ${city.name}, ist ` +
          `${Math.round(distanceKm)} km entfernt (Grenze ${MAX_CLIMATE_DISTANCE_KM} km). Nutze Koordinaten einer mitgelieferten Stadt.`,
        { lat: q.lat, lon: q.lon },
      );
    }
    const days = dayRange(q.start, q.end).map((d) => estimateDay(city, d));
    const months = [...new Set(days.map((d) => Number(d.date.slice(5, 7))))];
    return {
      days,
      source: "offline",
      is_estimate: true,
      reference_years: null,
      note:
        `Offline-Schätzung aus langjährigen Monatsmittelwerten von ${city.name} ` +
        `(${String(round(distanceKm)).replace(".", ",")} km entfernt); keine echte Vorhersage und keine Messwerte.`,
      raw: {
        city: city.name,
        distance_km: round(distanceKm),
        normals: months.map((month) => ({
          month,
          tmin_c: city.climate.tmin_c[month - 1],
          tmax_c: city.climate.tmax_c[month - 1],
          precip_mm: city.climate.precip_mm[month - 1],
          rainy_days: city.climate.rainy_days[month - 1],
          wind_max_kmh: city.climate.wind_max_kmh[month - 1],
        })),
      },
    };
  }
}
