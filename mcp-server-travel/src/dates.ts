// Calendar dates as plain "YYYY-MM-DD" strings, computed in UTC so results never depend on the host's zone.

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses "YYYY-MM-DD" into a UTC day number; undefined for malformed or impossible dates (2025-02-30). */
export function parseIsoDate(text: string): number | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return Math.floor(ms / DAY_MS);
}

export function formatDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function todayDay(now: Date = new Date()): number {
  return Math.floor(now.getTime() / DAY_MS);
}

export function dayParts(day: number): { year: number; month: number; date: number } {
  const d = new Date(day * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, date: d.getUTCDate() };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The same calendar day `years` years earlier; 29 February becomes 28 February in non-leap years. */
export function shiftYears(day: number, years: number): number {
  const { year, month, date } = dayParts(day);
  const y = year - years;
  const d = Math.min(date, daysInMonth(y, month));
  return Math.floor(Date.UTC(y, month - 1, d) / DAY_MS);
}

/** Inclusive list of days from start to end. */
export function dayRange(start: number, end: number): number[] {
  const out: number[] = [];
  for (let d = start; d <= end; d++) out.push(d);
  return out;
}
