// German number formatting for the Modell-Check's tables and sentences: "84 %", "1,6", "2.558". Pure.
import { germanNumber } from "../util.js";

export { germanNumber };

/** A rate 0–1 as a whole percentage with a plain space: "84 %". */
export const percent = (rate: number): string => `${germanNumber(rate * 100)} %`;

/** A date and time in German, e.g. "27.11.2026, 09:42" (in the machine's time zone). */
export function germanDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("de-DE", { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** A calendar date YYYY-MM-DD in German: "10.06.2025". */
export function germanDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return match ? `${match[3]}.${match[2]}.${match[1]}` : day;
}
