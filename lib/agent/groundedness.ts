// Is the final answer backed by what the model was given? Pure heuristics, no model call:
// numbers (with their unit), dates and place names in the answer are looked up in the tool results,
// the context, the question (and earlier turns); whatever occurs nowhere is reported as
// „nicht belegt: 24 °C". An answer to a travel question that used no tool at all is flagged too.
// False alarms are possible (a count the model made up correctly, a place spelled differently);
// the check warns, it never changes the answer.

export interface GroundednessInput {
  final: string;
  question: string;
  context?: string;
  /** Values of successful tool calls (any JSON). */
  toolResults: readonly unknown[];
  /** Further texts the model saw and may quote (earlier turns, today's date). */
  otherSources?: readonly string[];
  /** Tool calls that ran in this run (ask_user excluded). */
  toolCalls: number;
}

export interface Claim {
  kind: "number" | "date" | "place";
  /** As written in the answer, e.g. "24 °C" or "14. Juni". */
  text: string;
}

export interface GroundednessReport {
  claims: Claim[];
  unsupported: Claim[];
  /** A travel/weather question answered without any tool result. */
  noToolCalls: boolean;
  /** German warnings for the trace and the CLI („nicht belegt: 24 °C"). */
  warnings: string[];
}

const MONTHS = [
  "januar",
  "februar",
  "märz",
  "april",
  "mai",
  "juni",
  "juli",
  "august",
  "september",
  "oktober",
  "november",
  "dezember",
];
const UNIT = String.raw`(?:\s?(?:°\s?C|°|%|km\/h|km|mm|Minuten|Min\.|min|Stunden|Std\.|Tage|Tagen|Grad|Euro|€|m\b))?`;
const NUMBER = new RegExp(String.raw`(?<![\p{L}\d.,])[-−]?\d+(?:[.,]\d+)?${UNIT}`, "gu");
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const DOT_DATE = /\b(\d{1,2})\.\s?(\d{1,2})\.(?:\s?(\d{4}|\d{2})\b)?/g;
const NAMED_DATE = new RegExp(String.raw`\b(\d{1,2})\.\s?(${MONTHS.join("|")})(?:\s(\d{4}))?`, "giu");
const LIST_MARKER = /^\s*\d+[.)]\s/gmu;
/** A capitalised word after a place preposition: „in Rom", „nach Paris", „bei Trastevere". */
const PLACE = /\b(?:[Ii]n|[Nn]ach|[Bb]ei|[Aa]us|[Vv]on|[Uu]m|Richtung)\s+(\p{Lu}[\p{L}-]+)/gu;
const NOT_PLACES = new Set([
  ...MONTHS.map((m) => m[0]!.toUpperCase() + m.slice(1)),
  "Montag",
  "Dienstag",
  "Mittwoch",
  "Donnerstag",
  "Freitag",
  "Samstag",
  "Sonntag",
  "Grad",
  "Celsius",
  "Ordnung",
  "Summe",
  "Folge",
  "Zukunft",
  "Ruhe",
  "Kürze",
  "Zeit",
  "Ergebnis",
  "Ergebnissen",
  "Prozent",
]);
const TRAVEL_QUESTION =
  /wetter|temperatur|regen|grad|sonn|wind|schnee|park|wander|jogg|lauf|strand|museum|kultur|reise|ausflug|urlaub|koordinat|\bwo\b|\bwie (warm|kalt)/iu;

function toNumber(text: string): number {
  return Number(text.replace("−", "-").replace(",", "."));
}

function decimals(text: string): number {
  const m = /[.,](\d+)/.exec(text);
  return m ? (m[1]?.length ?? 0) : 0;
}

/** Dates as MM-DD (and YYYY-MM-DD when the year is known). */
function datesIn(text: string): { keys: string[]; spans: [number, number][]; claims: Claim[] } {
  const keys: string[] = [];
  const spans: [number, number][] = [];
  const claims: Claim[] = [];
  const pad = (n: string | number) => String(n).padStart(2, "0");
  const add = (m: RegExpMatchArray, month: number, day: number, year?: string) => {
    if (month < 1 || month > 12 || day < 1 || day > 31) return;
    const key = `${pad(month)}-${pad(day)}`;
    keys.push(key);
    if (year) keys.push(`${year.length === 2 ? `20${year}` : year}-${key}`);
    const at = m.index ?? 0;
    spans.push([at, at + m[0].length]);
    claims.push({ kind: "date", text: m[0].trim() });
  };
  for (const m of text.matchAll(ISO_DATE)) add(m, Number(m[2]), Number(m[3]), m[1]);
  for (const m of text.matchAll(NAMED_DATE)) add(m, MONTHS.indexOf((m[2] ?? "").toLowerCase()) + 1, Number(m[1]), m[3]);
  for (const m of text.matchAll(DOT_DATE)) {
    const at = m.index ?? 0;
    if (spans.some(([s, e]) => at >= s && at < e)) continue;
    add(m, Number(m[2]), Number(m[1]), m[3]);
  }
  return { keys, spans, claims };
}

function mask(text: string, spans: readonly [number, number][]): string {
  let out = text;
  for (const [s, e] of spans) out = out.slice(0, s) + " ".repeat(e - s) + out.slice(e);
  return out;
}

function numbersIn(text: string): { value: number; text: string; decimals: number }[] {
  const plain = text.replace(LIST_MARKER, " ");
  return [...plain.matchAll(NUMBER)].map((m) => {
    const raw = m[0].trim();
    const numeric = /[-−]?\d+(?:[.,]\d+)?/.exec(raw)?.[0] ?? raw;
    return { value: toNumber(numeric), text: raw, decimals: decimals(numeric) };
  });
}

/** Every string and number inside a JSON value, as text (keys left out: they are not facts). */
function flatten(value: unknown, out: string[] = []): string[] {
  if (value === null || value === undefined) return out;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) flatten(v, out);
  else if (typeof value === "object") for (const v of Object.values(value)) flatten(v, out);
  return out;
}

/** A number in the answer is backed when a source number rounds to it at the answer's precision. */
function numberBacked(claim: { value: number; decimals: number }, sources: readonly number[]): boolean {
  const tolerance = 0.5 * 10 ** -claim.decimals + 1e-9;
  return sources.some((s) => Math.abs(s - claim.value) <= tolerance);
}

function placeBacked(place: string, sourceText: string): boolean {
  const lower = place.toLowerCase();
  if (sourceText.includes(lower)) return true;
  // German genitive/inflection: „Roms", „Berliner".
  for (const stem of [lower.replace(/s$/u, ""), lower.replace(/er$/u, "")])
    if (stem.length >= 3 && sourceText.includes(stem)) return true;
  return false;
}

/** Whether a question asks for travel facts the tools provide (weather, places, activities). */
export function isTravelQuestion(question: string): boolean {
  return TRAVEL_QUESTION.test(question) || [...question.matchAll(PLACE)].some((m) => !NOT_PLACES.has(m[1] ?? ""));
}

/** Numbers, dates and places of the answer that occur in no source, and a travel answer without tools, as German warnings. */
export function checkGroundedness(input: GroundednessInput): GroundednessReport {
  const sourceTexts = [
    input.question,
    input.context ?? "",
    ...(input.otherSources ?? []),
    ...input.toolResults.flatMap((r) => flatten(r)),
  ];
  const sourceText = sourceTexts.join("\n").toLowerCase();
  const sourceDates = new Set(sourceTexts.flatMap((t) => datesIn(t).keys));
  const sourceNumbers = sourceTexts.flatMap((t) => numbersIn(mask(t, datesIn(t).spans)).map((n) => n.value));

  const dates = datesIn(input.final);
  const claims: Claim[] = [];
  const unsupported: Claim[] = [];
  dates.claims.forEach((claim) => {
    claims.push(claim);
    const own = datesIn(claim.text).keys;
    if (!own.some((k) => sourceDates.has(k))) unsupported.push(claim);
  });
  for (const n of numbersIn(mask(input.final, dates.spans))) {
    const claim: Claim = { kind: "number", text: n.text };
    claims.push(claim);
    if (!numberBacked(n, sourceNumbers)) unsupported.push(claim);
  }
  for (const m of input.final.matchAll(PLACE)) {
    const name = m[1] ?? "";
    const first = name.split(" ")[0] ?? name;
    if (NOT_PLACES.has(first)) continue;
    const claim: Claim = { kind: "place", text: name };
    claims.push(claim);
    if (!placeBacked(name, sourceText) && !placeBacked(first, sourceText)) unsupported.push(claim);
  }

  const noToolCalls = input.toolCalls === 0 && (isTravelQuestion(input.question) || claims.length > 0);
  const seen = new Set<string>();
  const warnings = unsupported
    .filter((c) => !seen.has(c.text) && seen.add(c.text))
    .map((c) => `nicht belegt: ${c.text}`);
  if (noToolCalls)
    warnings.push("Antwort ohne ein einziges Werkzeug-Ergebnis: bei einer Reisefrage nicht überprüfbar.");
  return { claims, unsupported, noToolCalls, warnings };
}
