// Helpers the exercise notebooks hand to participants, so that each task keeps to its core idea:
// finding JSON objects in chatty model output (Aufgabe 3) and following one `$ref` path safely (Aufgabe 4).

/** Index just past the `}` closing the object that opens at `start` (braces inside strings ignored), or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Every JSON object written somewhere in `text` (plain, in a ``` block, between sentences), in order.
 * Braces inside JSON strings do not confuse it; pieces that are not valid JSON (`{geocode}`, cut-off
 * objects) are skipped. Objects nested inside a found object are not listed separately.
 */
export function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  let from = 0;
  while (from < text.length) {
    const start = text.indexOf("{", from);
    if (start === -1) break;
    const end = objectEnd(text, start);
    let value: unknown;
    try {
      value = end === -1 ? undefined : JSON.parse(text.slice(start, end));
    } catch {
      value = undefined;
    }
    if (isRecord(value)) {
      found.push(value);
      from = end;
    } else from = start + 1;
  }
  return found;
}

const REF_PREFIX = "$ref:";

/** The path of a reference – `{"$ref": "geo_bcn.lat"}` or `"$ref:geo_bcn.lat"` – or undefined for any other value. */
export function refPath(value: unknown): string | undefined {
  if (typeof value === "string") return value.startsWith(REF_PREFIX) ? value.slice(REF_PREFIX.length) : undefined;
  if (isRecord(value) && Object.keys(value).length === 1 && typeof value.$ref === "string") return value.$ref;
  return undefined;
}

const own = (value: unknown, key: string) => value !== null && typeof value === "object" && Object.prototype.hasOwnProperty.call(value, key);

/**
 * The value a reference path points at. The first part is a tool id in `results` (or `user` for the
 * user's details), every further part an own field or a list index. Throws an Error naming the path when
 * it leads nowhere; never follows inherited fields such as `toString` or `__proto__`.
 */
export function lookUpRef(path: string, results: Record<string, unknown>, user: Record<string, unknown>): unknown {
  const [id = "", ...rest] = path.split(".");
  const roots: Record<string, unknown> = { ...results };
  let current: unknown;
  if (id === "user") current = user;
  else if (own(roots, id)) current = roots[id];
  else throw new Error(`Verweis ${path}: Es gibt kein Ergebnis mit der id „${id}“.`);
  for (const part of rest) {
    const index = Array.isArray(current) && /^\d+$/u.test(part) ? Number(part) : undefined;
    if (index !== undefined ? index < (current as unknown[]).length : !Array.isArray(current) && own(current, part)) {
      current = (current as Record<string, unknown>)[part];
    } else {
      throw new Error(`Verweis ${path}: Den Pfadteil „${part}“ gibt es dort nicht.`);
    }
  }
  return current;
}

const isNotSolved = (error: unknown) => error instanceof Error && error.message.includes("Noch nicht gelöst");

/**
 * Runs a demo cell's code that uses the participant's functions. While one of them still throws
 * "Noch nicht gelöst", it prints which task the cell waits for and returns undefined; other errors pass.
 */
export async function whenSolved<T>(task: string, run: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (!isNotSolved(error)) throw error;
    console.log(`⏳ Diese Zelle braucht Aufgabe ${task} – sie ist noch nicht gelöst.`);
    return undefined;
  }
}
