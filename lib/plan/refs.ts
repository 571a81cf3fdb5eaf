// `$ref` resolution: `{"$ref": "geo_barcelona.lat"}` or `"$ref:geo_barcelona.lat"` inside tool arguments
// is replaced by a value from an earlier tool result (root = tool id) or from the user context
// (root = "user"). Pure; walks own properties of plain objects and arrays only.

import { hasOwn, isPlainObject } from "../util.js";
import { describeValue } from "./describe-value.js";
import { jsonDepth } from "./json.js";
import { KitError } from "../errors.js";

export const REF_KEY = "$ref";
export const REF_STRING_PREFIX = "$ref:";
export const USER_ROOT = "user";
/** `<id>.result.x` / `<id>.arguments.x`: the path already starts inside the result. */
export const FORBIDDEN_FIRST_SEGMENTS: readonly string[] = ["result", "arguments"];
/** Never allowed anywhere in a path. */
export const FORBIDDEN_SEGMENTS: readonly string[] = ["__proto__", "constructor", "prototype"];

/** Results of executed tools by tool id, read through own properties only. */
export type ToolResults = Readonly<Record<string, unknown>>;
export type UserContext = Readonly<Record<string, unknown>>;

/** Notebooks may keep results in a Map; it is turned into the one shape at the public entry. */
export function asToolResults(results: ToolResults | ReadonlyMap<string, unknown>): ToolResults {
  return results instanceof Map ? Object.fromEntries(results) : (results as ToolResults);
}

export interface ParsedRef {
  /** The reference as written (without the "$ref:" prefix). */
  ref: string;
  root: string;
  path: string[];
}

export type RefErrorKind = "malformed" | "forbidden_segment" | "unknown_root" | "missing_path" | "too_deep";

/** Deepest arguments resolveRefs and collectRefs walk (the same limit as MAX_PLAN_DEPTH in plan.ts). */
export const MAX_REF_DEPTH = 64;

function tooDeep(value: unknown): RefError | undefined {
  if (jsonDepth(value, MAX_REF_DEPTH) <= MAX_REF_DEPTH) return undefined;
  return new RefError(
    "too_deep",
    "",
    `Die Argumente sind zu tief verschachtelt (mehr als ${MAX_REF_DEPTH} Ebenen); schreibe sie flacher.`,
  );
}

/** A `$ref` that cannot be resolved (unknown id, a path the result lacks, malformed); `kind` says which. */
export class RefError extends KitError {
  override name = "RefError";
  constructor(
    readonly kind: RefErrorKind,
    /** The offending reference (or a JSON snippet of a malformed `$ref` object). */
    readonly ref: string,
    message: string,
    /** The path segment that failed, and a short description of what was found there. */
    readonly segment?: string,
    readonly found?: string,
  ) {
    super(message);
  }
}

/**
 * The reference string if `value` is a reference: an object whose only key is "$ref" with a string
 * value, or a string starting with "$ref:". Anything else → undefined.
 */
export function refTarget(value: unknown): string | undefined {
  if (typeof value === "string")
    return value.startsWith(REF_STRING_PREFIX) ? value.slice(REF_STRING_PREFIX.length).trim() : undefined;
  if (isPlainObject(value) && hasOwn(value, REF_KEY)) {
    const keys = Object.keys(value);
    const target = value[REF_KEY];
    if (keys.length === 1 && typeof target === "string") return target.trim();
  }
  return undefined;
}

/** An object that has a "$ref" key but is not a valid reference (extra keys, non-string target). */
function malformedRefObject(value: Record<string, unknown>): RefError {
  let snippet: string;
  try {
    snippet = JSON.stringify(value).slice(0, 160);
  } catch {
    snippet = "{…}";
  }
  return new RefError(
    "malformed",
    snippet,
    `Ungültige Referenz ${snippet}: ein $ref-Objekt hat genau ein Feld "$ref" mit einem Text wie "geo_berlin.lat".`,
  );
}

/** Splits "geo.items[0].lat" into root "geo" and path ["items", "0", "lat"]; throws RefError. */
export function parseRef(ref: string): ParsedRef {
  const normalized = ref.trim().replace(/\[(\d+)\]/g, ".$1");
  const parts = normalized.split(".");
  const root = parts[0] ?? "";
  const path = parts.slice(1);
  if (root === "" || parts.some((p) => p.trim() === "" || p !== p.trim())) {
    throw new RefError(
      "malformed",
      ref,
      `Ungültige Referenz "${ref}": erwartet "<tool-id>.<feld>" oder "user.<feld>", ohne leere Teile oder Leerzeichen.`,
    );
  }
  const forbidden = parts.find((p) => FORBIDDEN_SEGMENTS.includes(p));
  if (forbidden !== undefined) {
    throw new RefError(
      "forbidden_segment",
      ref,
      `Referenz "${ref}" enthält den verbotenen Pfadteil "${forbidden}".`,
      forbidden,
    );
  }
  const first = path[0];
  if (root !== USER_ROOT && first !== undefined && FORBIDDEN_FIRST_SEGMENTS.includes(first)) {
    throw new RefError(
      "forbidden_segment",
      ref,
      `Referenz "${ref}": der Pfad beginnt schon im Ergebnis des Tools – "${first}." weglassen (also "${[root, ...path.slice(1)].join(".")}").`,
      first,
    );
  }
  return { ref, root, path };
}

/** Follows `path` from `start` through own properties and array indices; throws RefError. */
export function walkPath(start: unknown, parsed: ParsedRef): unknown {
  let current = start;
  const walked = [parsed.root];
  for (const segment of parsed.path) {
    const here = walked.join(".");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) {
        throw new RefError(
          "missing_path",
          parsed.ref,
          `Referenz "${parsed.ref}": "${here}" ist ${describeValue(current)}; dort braucht es einen Index (0, 1, …) statt "${segment}".`,
          segment,
          describeValue(current),
        );
      }
      const index = Number(segment);
      if (index >= current.length) {
        throw new RefError(
          "missing_path",
          parsed.ref,
          `Referenz "${parsed.ref}": "${here}" ist ${describeValue(current)}; Index ${index} gibt es nicht.`,
          segment,
          describeValue(current),
        );
      }
      current = current[index];
    } else if (isPlainObject(current)) {
      if (!hasOwn(current, segment)) {
        throw new RefError(
          "missing_path",
          parsed.ref,
          `Referenz "${parsed.ref}": "${here}" ist ${describeValue(current)}; ein Feld "${segment}" gibt es dort nicht.`,
          segment,
          describeValue(current),
        );
      }
      current = current[segment];
    } else {
      throw new RefError(
        "missing_path",
        parsed.ref,
        `Referenz "${parsed.ref}": "${here}" ist ${describeValue(current)} und hat kein Feld "${segment}".`,
        segment,
        describeValue(current),
      );
    }
    walked.push(segment);
  }
  return current;
}

/** Resolves one reference string against tool results and the user context; throws RefError. */
export function resolveRef(ref: string, toolResults: ToolResults, userCtx: UserContext): unknown {
  const parsed = parseRef(ref);
  if (parsed.root === USER_ROOT) return walkPath(userCtx, parsed);
  if (!hasOwn(toolResults, parsed.root)) {
    throw new RefError(
      "unknown_root",
      ref,
      `Referenz "${ref}": es gibt (noch) kein Ergebnis eines Tools mit der id "${parsed.root}". Verweise nur auf ids aus früheren Schritten oder auf "user.…".`,
      parsed.root,
    );
  }
  return walkPath(toolResults[parsed.root], parsed);
}

/**
 * Replaces every reference inside `value` (nested objects and arrays): an object that is exactly
 * `{"$ref": "..."}` or a string "$ref:..." becomes the whole referenced value. Returns a new value
 * (objects built from own enumerable keys); throws RefError for a malformed, forbidden or missing reference.
 */
export function resolveRefs(
  value: unknown,
  results: ToolResults | ReadonlyMap<string, unknown>,
  userCtx: UserContext = {},
): unknown {
  const deep = tooDeep(value);
  if (deep) throw deep;
  return resolveWithin(value, asToolResults(results), userCtx);
}

function resolveWithin(value: unknown, toolResults: ToolResults, userCtx: UserContext): unknown {
  const target = refTarget(value);
  if (target !== undefined) return resolveRef(target, toolResults, userCtx);
  if (Array.isArray(value)) return value.map((item) => resolveWithin(item, toolResults, userCtx));
  if (isPlainObject(value)) {
    if (hasOwn(value, REF_KEY)) throw malformedRefObject(value);
    return Object.fromEntries(Object.keys(value).map((key) => [key, resolveWithin(value[key], toolResults, userCtx)]));
  }
  return value;
}

export interface RefOccurrence {
  /** The reference string, or undefined for a malformed `$ref` object. */
  ref?: string;
  /** Where it sits inside the value, e.g. ["lat"] or ["points", "0"]. */
  location: string[];
  /** Set when the reference cannot even be parsed. */
  error?: RefError;
  parsed?: ParsedRef;
}

/** All references inside `value`, in document order, with parse errors instead of throwing. */
export function collectRefs(value: unknown, location: string[] = []): RefOccurrence[] {
  const deep = tooDeep(value);
  return deep ? [{ location, error: deep }] : collectWithin(value, location);
}

function collectWithin(value: unknown, location: string[]): RefOccurrence[] {
  const target = refTarget(value);
  if (target !== undefined) {
    try {
      return [{ ref: target, location, parsed: parseRef(target) }];
    } catch (error) {
      return [{ ref: target, location, error: error as RefError }];
    }
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => collectWithin(item, [...location, String(i)]));
  if (isPlainObject(value)) {
    if (hasOwn(value, REF_KEY)) return [{ location, error: malformedRefObject(value) }];
    return Object.keys(value).flatMap((key) => collectWithin(value[key], [...location, key]));
  }
  return [];
}
