// Finds one JSON object inside model output that may carry chatter around it: a leading role label
// ("assistant\n\n"), ```json fences, prose before or after, // and /* */ comments, trailing commas.
// Pure and total: never throws, bounded work on any input.
import { describeValue } from "./describe-value.js";
import { isPlainObject } from "../util.js";
import { jsonSyntaxErrorText } from "../schema/json-syntax-error.js";

/** "not_text": the input is not a string at all (e.g. an already parsed value); "empty": blank text. */
export type JsonExtractFailureKind = "not_text" | "empty" | "no_json" | "invalid_json" | "truncated" | "rejected";

// Each variant lists the other's fields as `?: undefined`, so code compiled without strictNullChecks
// (tslab in notebooks) can read them without narrowing.
export type JsonExtractResult =
  | { ok: true; value: unknown; text: string; kind?: undefined; reason?: undefined; candidate?: undefined }
  | { ok: false; kind: JsonExtractFailureKind; reason: string; candidate?: string; value?: unknown; text?: undefined };

export interface JsonExtractOptions {
  /** Accept only objects for which this returns true (e.g. "has steps or final"). */
  accept?: (value: unknown) => boolean;
  /** Start positions tried before giving up (bounds the work on hostile input). */
  maxCandidates?: number;
}

const MAX_INPUT_CHARS = 1_000_000;

/**
 * Index just past the `}` that closes the object opened at `start`, or -1 when it does not close within
 * `limit` characters (default: the rest of the text).
 */
export function balancedObjectEnd(text: string, start: number, limit = text.length): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  const stop = Math.min(text.length, start + limit);
  for (let i = start; i < stop; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return ch === "}" ? i + 1 : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}

/** Removes comments and trailing commas outside of strings (what models copy from prompt examples). */
export function stripJsonNoise(text: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (ch === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + 1;
    } else if (ch === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j] as string)) j++;
      if (text[j] !== "}" && text[j] !== "]") out += ch;
    } else {
      out += ch;
    }
  }
  return out;
}

function tryParse(
  text: string,
): { ok: true; value: unknown; error?: undefined } | { ok: false; error: string; value?: undefined } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (strictError) {
    try {
      return { ok: true, value: JSON.parse(stripJsonNoise(text)) };
    } catch {
      return { ok: false, error: jsonSyntaxErrorText(strictError) };
    }
  }
}

/**
 * The bodies of ``` fenced blocks (the opening line, e.g. "```json", is skipped). A scan with indexOf,
 * linear in the text: a regex here backtracked quadratically on "```" followed by a long line.
 */
export function fencedBlocks(text: string): string[] {
  const blocks: string[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf("```", from);
    if (open === -1) break;
    const lineEnd = text.indexOf("\n", open + 3);
    if (lineEnd === -1) break;
    const close = text.indexOf("```", lineEnd + 1);
    if (close === -1) break;
    blocks.push(text.slice(lineEnd + 1, close));
    from = close + 3;
  }
  return blocks;
}

/** The regions to search, most specific first: fenced blocks, then the whole text. */
function regions(text: string): string[] {
  return [...fencedBlocks(text).filter((block) => block.includes("{")), text];
}

function shorten(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export function extractJsonObject(input: unknown, options: JsonExtractOptions = {}): JsonExtractResult {
  if (typeof input !== "string")
    return { ok: false, kind: "not_text", reason: `Die Antwort ist kein Text, sondern ${describeValue(input)}.` };
  const text = input.length > MAX_INPUT_CHARS ? input.slice(0, MAX_INPUT_CHARS) : input;
  if (text.trim() === "") return { ok: false, kind: "empty", reason: "Die Antwort ist leer." };
  const accept = options.accept ?? isPlainObject;
  const maxCandidates = options.maxCandidates ?? 32;

  let attempts = 0;
  let rejected: { value: unknown; text: string } | undefined;
  let invalid: { error: string; text: string } | undefined;
  let truncated: string | undefined;

  for (const region of regions(text)) {
    let from = 0;
    // Scanning and parsing may touch each character of the region a few times, not once per candidate:
    // that keeps the work linear even for "{{{{…" or prose with many unclosed braces.
    let budget = 4 * region.length + 4096;
    while (attempts < maxCandidates && budget > 0) {
      const start = region.indexOf("{", from);
      if (start === -1) break;
      attempts++;
      const end = balancedObjectEnd(region, start, budget);
      budget -= end === -1 ? Math.min(budget, region.length - start) : 2 * (end - start); // scan, then parse
      if (end === -1) {
        truncated ??= region.slice(start);
        // Everything after an unclosed brace is inside it; a later brace rarely starts a complete object.
        from = start + 1;
        continue;
      }
      const candidate = region.slice(start, end);
      const parsed = tryParse(candidate);
      if (parsed.ok) {
        if (accept(parsed.value)) return { ok: true, value: parsed.value, text: candidate };
        rejected ??= { value: parsed.value, text: candidate };
        from = end;
      } else {
        invalid ??= { error: parsed.error, text: candidate };
        from = start + 1;
      }
    }
  }

  if (rejected) {
    return {
      ok: false,
      kind: "rejected",
      reason: `JSON gefunden, aber nicht im erwarteten Format: ${shorten(rejected.text)}`,
      candidate: rejected.text,
      value: rejected.value,
    };
  }
  if (invalid) {
    return {
      ok: false,
      kind: "invalid_json",
      reason: `Ungültiges JSON (${invalid.error}): ${shorten(invalid.text)}`,
      candidate: invalid.text,
    };
  }
  if (truncated !== undefined) {
    return {
      ok: false,
      kind: "truncated",
      reason: `Das JSON-Objekt ist unvollständig (nicht geschlossene Klammer, abgeschnitten?): ${shorten(truncated)}`,
      candidate: truncated,
    };
  }
  return { ok: false, kind: "no_json", reason: "Kein JSON-Objekt in der Antwort gefunden." };
}
