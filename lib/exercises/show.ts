// Short, readable renderings of values for the self-check verdicts (JSON where possible).
import { inspect } from "node:util";
import { germanNumber } from "../util.js";

const DEFAULT_MAX = 500;

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)} … (${text.length - max} Zeichen mehr)`;
}

// Values JSON cannot show are written as a marked string by the replacer and unquoted afterwards, so
// `[undefined]` reads `[undefined]` (not `[null]`) and `{"a":Infinity}` is not `{"a":null}`.
const MARK = "\u{E000}";
const MARKED = new RegExp(`"${MARK}([^"${MARK}]*)${MARK}"`, "gu");
const mark = (text: string) => `${MARK}${text}${MARK}`;

/** One line for a value: JSON for JSON-like data, `undefined`, functions by name, otherwise util.inspect. */
export function showValue(value: unknown, max = DEFAULT_MAX): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return `Funktion ${value.name || "(ohne Namen)"}`;
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return `${value}n`;
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => {
      if (v === undefined) return mark("undefined");
      if (typeof v === "function") return mark(`‹Funktion ${(v as { name?: string }).name || "(ohne Namen)"}›`);
      if (typeof v === "number" && !Number.isFinite(v)) return mark(String(v));
      if (typeof v === "string" && v.includes(MARK)) throw new Error("marker inside a text");
      if (v instanceof Map || v instanceof Set) throw new Error("not JSON");
      return v;
    });
    if (json !== undefined) return shorten(json.replace(MARKED, "$1"), max);
  } catch {
    // cyclic, a BigInt inside, or not JSON-like: fall through to inspect
  }
  return shorten(inspect(value, { depth: 4, breakLength: Infinity }), max);
}

/** The arguments of a call, comma-separated. */
export function showArgs(args: readonly unknown[], max = DEFAULT_MAX): string {
  return shorten(args.map((a) => showValue(a, max)).join(", "), max);
}

/** The message of a thrown value, with its error class. */
export function showError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `geworfen wurde ${showValue(error)}`;
}

/** An expected or returned value: numbers in German format, everything else as showValue. */
export function showResult(value: unknown, max = DEFAULT_MAX): string {
  return typeof value === "number" && Number.isFinite(value) ? germanNumber(value, { upTo: 6 }) : showValue(value, max);
}
