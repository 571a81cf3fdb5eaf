// Short German descriptions of arbitrary values for error messages (refs, JSON extraction).
import { isPlainObject, safeStringify } from "../util.js";

/** The class name of an object that is not plain data (read without calling getters), if any. */
function className(value: object): string | undefined {
  try {
    const proto = Object.getPrototypeOf(value) as object | null;
    if (proto === null || proto === Object.prototype) return undefined;
    const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value as unknown;
    return typeof ctor === "function" && ctor.name !== "" ? ctor.name : "?";
  } catch {
    return "?";
  }
}

function shortText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Description of a class instance (Date, Map, …): what it is, not its (usually empty) own fields. */
function describeInstance(value: object, name: string, max: number): string {
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? "ein ungültiges Datum (Date)" : `ein Datum (Date ${value.toISOString()})`;
  if (value instanceof Map) return `eine Map mit ${entries(value.size)}`;
  if (value instanceof Set) return `eine Menge (Set) mit ${entries(value.size)}`;
  if (value instanceof RegExp) return `ein regulärer Ausdruck ${shortText(String(value), max)}`;
  if (value instanceof Error) return `ein Fehler (${shortText(`${value.name}: ${value.message}`, max)})`;
  if (value instanceof Promise) return "ein Promise (noch nicht abgewartet)";
  return name === "?"
    ? "ein Objekt mit eigenem Prototyp (keine reinen JSON-Daten)"
    : `ein Objekt der Klasse ${name} (keine reinen JSON-Daten)`;
}

const entries = (n: number) => `${n} ${n === 1 ? "Eintrag" : "Einträgen"}`;

/** Short, safe description of a value for error messages. */
export function describeValue(value: unknown, max = 120): string {
  if (value === undefined) return "nichts (undefined)";
  if (value === null) return "null";
  if (typeof value === "function") return "eine Funktion";
  if (Array.isArray(value)) return `eine Liste mit ${entries(value.length)}`;
  if (typeof value === "object") {
    const name = className(value);
    if (name !== undefined) return describeInstance(value, name, max);
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return "ein leeres Objekt";
    const shown = keys
      .slice(0, 12)
      .map((k) => JSON.stringify(k))
      .join(", ");
    return `ein Objekt mit den Feldern ${shown}${keys.length > 12 ? ", …" : ""}`;
  }
  let text = safeStringify(value);
  if (text.length > max) text = `${text.slice(0, max)}…`;
  const kind =
    typeof value === "string"
      ? "der Text"
      : typeof value === "number"
        ? "die Zahl"
        : typeof value === "boolean"
          ? "der Wahrheitswert"
          : "der Wert";
  return `${kind} ${text}`;
}
