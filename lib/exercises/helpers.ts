// Helpers the exercise notebooks hand to participants, so that each task keeps to its core idea:
// finding JSON objects in chatty model output (Aufgabe 3) and following one `$ref` path safely (Aufgabe 4).
import { hasOwn, isPlainObject } from "../util.js";
import { isNotSolved } from "./check-runner.js";

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
    if (isPlainObject(value)) {
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
  if (isPlainObject(value) && Object.keys(value).length === 1 && typeof value.$ref === "string") return value.$ref;
  return undefined;
}

const own = (value: unknown, key: string) => isPlainObject(value) && hasOwn(value, key);

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

/**
 * Runs a demo cell's code that uses the participant's functions. While one of them still throws
 * NotSolvedError, it prints which task the cell waits for and returns undefined; other errors pass.
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

/** One planned call as Aufgabe 4 has it. */
export interface PlannedStep {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** The participant's functions a mini executor runs on. */
export interface ExecutorParts {
  /** The participant's readyCalls: ids of the calls that may run now. */
  readyCalls: (calls: PlannedStep[], finished: string[]) => string[];
  /** The participant's resolveRefs: `value` with every `$ref` replaced. */
  resolveRefs: (value: unknown, results: Record<string, unknown>, user: Record<string, unknown>) => unknown;
}

/** What runPlanWith needs of a tool client (an McpToolClient fits). */
export interface CallingClient {
  /** Runs one tool with resolved arguments. */
  callTool(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; data?: unknown }>;
}

/**
 * A tiny plan executor driven by the participant's `readyCalls` and `resolveRefs`: each round asks which
 * calls may run, starts them at the same time, and stores their results under their ids. Prints one
 * line per round and per failure; returns the results.
 */
export async function runPlanWith(
  parts: ExecutorParts,
  calls: PlannedStep[],
  client: CallingClient,
  user: Record<string, unknown>,
  maxRounds = 5,
): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  const finished: string[] = [];
  const failed = new Set<string>();
  for (let round = 1; round <= maxRounds; round++) {
    const ready = parts.readyCalls(calls, finished).filter((id) => !failed.has(id) && !finished.includes(id));
    if (ready.length === 0) break;
    console.log(`Runde ${round}: ${ready.join(", ")} – gleichzeitig`);
    await Promise.all(
      ready.map(async (id) => {
        const call = calls.find((c) => c.id === id);
        try {
          if (call === undefined) throw new Error("diese id steht nicht im Plan");
          const args = parts.resolveRefs(call.arguments, results, user) as Record<string, unknown>;
          const answer = await client.callTool(call.name, args);
          if (answer.isError) throw new Error(answer.text);
          results[id] = answer.data;
          finished.push(id);
        } catch (error) {
          if (isNotSolved(error)) throw error;
          failed.add(id);
          console.log(`  ✗ ${id}: ${String(error).slice(0, 200)}`);
        }
      }),
    );
  }
  const open = calls.filter((c) => !finished.includes(c.id)).map((c) => c.id);
  console.log(open.length === 0 ? "Alle Aufrufe erledigt." : `Nicht gelaufen: ${open.join(", ")}`);
  return results;
}
