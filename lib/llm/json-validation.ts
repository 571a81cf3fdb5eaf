// Validates values against a JSON schema with ajv, so every backend returns only schema-valid values.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./types.js";
import { LlmInputError, LlmOutputError } from "./errors.js";

// ajv-formats ships CommonJS with `exports.default`; depending on the loader the function is either.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const cache = new Map<string, ValidateFunction>();

function compile(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    // A draft-07 "$schema" URI would make Ajv2020 look for that meta-schema; the keywords are the same.
    const { $schema: _ignored, ...rest } = schema;
    try {
      validate = ajv.compile(rest);
    } catch (err) {
      throw new LlmInputError(`Ungültiges JSON-Schema: ${(err as Error).message}`);
    }
    cache.set(key, validate);
  }
  return validate;
}

/** Throws LlmInputError when `schema` itself is not a valid JSON schema. */
export function checkSchema(schema: JsonSchema): void {
  compile(schema);
}

/** Returns a readable list of problems, or an empty list when `value` matches `schema`. */
export function schemaProblems(schema: JsonSchema, value: unknown): string[] {
  const validate = compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"}`);
}

/** Parses `text` as JSON and validates it; returns the value or the reason it is not acceptable. */
export function parseAndValidate<T>(schema: JsonSchema, text: string): { ok: true; value: T } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `kein gültiges JSON (${(err as Error).message})` };
  }
  const problems = schemaProblems(schema, value);
  return problems.length === 0 ? { ok: true, value: value as T } : { ok: false, reason: problems.slice(0, 5).join("; ") };
}

/** Sampling for one attempt of generateValidJson. */
export interface JsonAttempt {
  seed: number | undefined;
  temperature: number | undefined;
}

/** Temperature used for retries when the caller's is lower: greedy decoding would repeat the same output. */
export const RETRY_TEMPERATURE = 0.7;

/**
 * Asks `generate` for JSON text until the value matches `schema`, at most `attempts` times. The first
 * attempt uses the caller's sampling; each retry uses a new seed and at least RETRY_TEMPERATURE, because
 * node-llama-cpp's default (temperature 0, greedy) would reproduce the same invalid output. A higher
 * explicit temperature is kept (an HTTP server's own default may be higher, too). Model output is
 * untrusted: ajv on the caller's schema decides. Throws LlmOutputError with the last output and reason.
 */
export async function generateValidJson<T>(
  schema: JsonSchema,
  options: { attempts?: number; seed?: number; temperature?: number },
  generate: (attempt: JsonAttempt) => Promise<string>,
): Promise<T> {
  checkSchema(schema);
  const attempts = options.attempts ?? 3;
  let last = { text: "", reason: "" };
  for (let attempt = 0; attempt < attempts; attempt++) {
    const text = await generate(attemptSampling(options, attempt));
    const result = parseAndValidate<T>(schema, text);
    // `=== true` (not truthiness): tslab compiles lib non-strict, where truthiness does not narrow unions.
    if (result.ok === true) return result.value;
    last = { text, reason: result.reason };
  }
  throw new LlmOutputError(last.text, last.reason, attempts);
}

/** Attempt 0: the caller's seed and temperature; retries: another seed, temperature ≥ RETRY_TEMPERATURE. */
export function attemptSampling(options: { seed?: number; temperature?: number }, attempt: number): JsonAttempt {
  if (attempt === 0) return { seed: options.seed, temperature: options.temperature };
  return {
    seed: (options.seed ?? 0) + attempt,
    temperature: Math.max(options.temperature ?? 0, RETRY_TEMPERATURE),
  };
}
