// Online weather: picks the Open-Meteo endpoint by date range.
//   end more than 15 days ahead               → historical fallback (mean of the same days in recent years)
//   end older than 5 days                      → archive (measured, ERA5; it lags about 5 days behind)
//   start more than 90 days ago, end recent    → archive up to 6 days ago, forecast API for the rest
//   otherwise                                  → forecast (covers today … +15 days and the recent past)
import { dayRange, formatDay, dayParts, shiftYears } from "../dates.js";
import { UpstreamUnavailableError } from "../errors.js";
import { errorText } from "../../../lib/util.js";
import type { OpenMeteoClient } from "./open-meteo.js";
import type { DailyWeather, WeatherQuery, WeatherSeries, WeatherService } from "./types.js";

export const FORECAST_DAYS_AHEAD = 15;
export const ARCHIVE_LAG_DAYS = 5;
export const FORECAST_PAST_DAYS = 90;
/** The climate estimate asks this many past years … */
export const REFERENCE_YEAR_COUNT = 10;
/** … and needs at least this many of them to answer. */
export const MIN_REFERENCE_YEARS = 3;

export type WeatherRoute = "forecast" | "archive" | "archive+forecast" | "historical_fallback";

export function routeWeather(start: number, end: number, today: number): WeatherRoute {
  if (end > today + FORECAST_DAYS_AHEAD) return "historical_fallback";
  if (end < firstRecentDay(today)) return "archive";
  if (start < today - FORECAST_PAST_DAYS) return "archive+forecast";
  return "forecast";
}

/** The first day the archive may not have yet; from this day on the forecast API answers. */
export function firstRecentDay(today: number): number {
  return today - ARCHIVE_LAG_DAYS;
}

/** How many years back to shift a far-future range so that it lies fully in the archive. */
export function referenceShifts(start: number, end: number, today: number, count = REFERENCE_YEAR_COUNT): number[] {
  let k = Math.max(1, dayParts(start).year - dayParts(today).year);
  while (shiftYears(end, k) >= firstRecentDay(today)) k++;
  return Array.from({ length: count }, (_, i) => k + i);
}

function mean(values: number[]): number | null {
  if (values.length === 0) return null;
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10;
}

function mode(values: number[]): number | null {
  if (values.length === 0) return null;
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best = values[0]!;
  for (const [v, c] of counts) {
    const bc = counts.get(best)!;
    if (c > bc || (c === bc && v > best)) best = v;
  }
  return best;
}

function present(values: (number | null)[]): number[] {
  return values.filter((v): v is number => v !== null);
}

export class OnlineWeather implements WeatherService {
  constructor(private readonly openMeteo: OpenMeteoClient) {}

  async daily(q: WeatherQuery): Promise<WeatherSeries> {
    const route = routeWeather(q.start, q.end, q.today);
    if (route === "archive+forecast") return this.archiveThenForecast(q);
    const startDate = formatDay(q.start);
    const endDate = formatDay(q.end);
    if (route === "forecast" || route === "archive") {
      const { days, raw } =
        route === "forecast"
          ? await this.openMeteo.forecast(q.lat, q.lon, startDate, endDate, q.signal)
          : await this.openMeteo.archive(q.lat, q.lon, startDate, endDate, q.signal);
      return {
        days,
        source: route,
        is_estimate: false,
        reference_years: null,
        note:
          route === "forecast"
            ? "Wettervorhersage von Open-Meteo (reicht bis 16 Tage voraus)."
            : "Gemessene Tageswerte aus dem Open-Meteo-Archiv (ERA5-Reanalyse).",
        raw,
      };
    }
    return this.historicalFallback(q);
  }

  /** A range from long ago up to the last few days: the archive has the old part, the forecast API the recent one. */
  private async archiveThenForecast(q: WeatherQuery): Promise<WeatherSeries> {
    const split = firstRecentDay(q.today);
    const [older, recent] = await Promise.all([
      this.openMeteo.archive(q.lat, q.lon, formatDay(q.start), formatDay(split - 1), q.signal),
      this.openMeteo.forecast(q.lat, q.lon, formatDay(split), formatDay(q.end), q.signal),
    ]);
    return {
      days: [...older.days, ...recent.days],
      // Not "archive": the last days are the forecast API's values, not measurements.
      source: "archive+forecast",
      is_estimate: false,
      reference_years: null,
      note:
        `Gemessene Tageswerte aus dem Open-Meteo-Archiv (ERA5-Reanalyse) bis ${formatDay(split - 1)}; ` +
        `die Tage ab ${formatDay(split)} stammen aus der Open-Meteo-Vorhersage-API, weil das Archiv einige Tage hinterherhinkt.`,
      raw: { archive: older.raw, forecast: recent.raw },
    };
  }

  /** Mean of the same calendar days in up to ten past years; years whose request fails are skipped. */
  private async historicalFallback(q: WeatherQuery): Promise<WeatherSeries> {
    const shifts = referenceShifts(q.start, q.end, q.today);
    const targetDays = dayRange(q.start, q.end);
    const settled = await Promise.allSettled(
      shifts.map(async (k) => {
        const { days, raw } = await this.openMeteo.archive(
          q.lat,
          q.lon,
          formatDay(shiftYears(q.start, k)),
          formatDay(shiftYears(q.end, k)),
          q.signal,
        );
        return { k, byDate: new Map(days.map((d) => [d.date, d])), raw };
      }),
    );
    q.signal?.throwIfAborted();
    const perYear = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    if (perYear.length < MIN_REFERENCE_YEARS) {
      const firstProblem = settled.find((s): s is PromiseRejectedResult => s.status === "rejected")?.reason;
      throw new UpstreamUnavailableError(
        `Für die Schätzung aus vergangenen Jahren kamen nur ${perYear.length} von ${shifts.length} Jahren aus dem ` +
          `Open-Meteo-Archiv (nötig sind ${MIN_REFERENCE_YEARS}): ${errorText(firstProblem)}`,
        { url: "archive" },
        { cause: firstProblem },
      );
    }
    const days: DailyWeather[] = targetDays.map((day) => {
      const samples = perYear.map(({ k, byDate }) => byDate.get(formatDay(shiftYears(day, k))));
      const pick = (f: keyof Omit<DailyWeather, "date">) => present(samples.map((s) => (s ? s[f] : null)));
      return {
        date: formatDay(day),
        tmin_c: mean(pick("tmin_c")),
        tmax_c: mean(pick("tmax_c")),
        precip_mm: mean(pick("precip_mm")),
        wind_max_kmh: mean(pick("wind_max_kmh")),
        weather_code: mode(pick("weather_code")),
      };
    });
    const years = perYear.map(({ k }) => dayParts(shiftYears(q.start, k)).year);
    const skipped = shifts.length - perYear.length;
    return {
      days,
      source: "historical_fallback",
      is_estimate: true,
      reference_years: years,
      note:
        `Schätzung: Der Zeitraum reicht weiter als 16 Tage in die Zukunft. Die Werte sind Mittelwerte derselben ` +
        `Kalendertage aus den Jahren ${[...years].sort().join(", ")} (${years.length} von ${shifts.length} Jahren aus dem ` +
        `Open-Meteo-Archiv${skipped > 0 ? `; ${skipped} nicht abrufbar und daher weggelassen` : ""}), keine Vorhersage.`,
      raw: perYear.map((p) => p.raw),
    };
  }
}
