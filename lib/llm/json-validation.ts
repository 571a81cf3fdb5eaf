// Validates values against a JSON schema, so every backend returns only schema-valid values.
// Ajv and the German messages live in lib/schema/validate.ts (the one Ajv owner).
import { compileSchema, InvalidSchemaError, schemaIssues } from "../schema/validate.js";
import type { JsonSchema } from "./types.js";
import { LlmInputError, LlmOutputError } from "./errors.js";
import { jsonSyntaxErrorText } from "../schema/json-syntax-error.js";

/** How messages name the model's JSON value itself (path ""). */
const OUTPUT_SUBJECT = "Die Antwort";

function asLlmError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof InvalidSchemaError) throw new LlmInputError(error.message);
    throw error;
  }
}

/** Throws LlmInputError when `schema` itself is not a valid JSON schema. */
export function checkSchema(schema: JsonSchema): void {
  asLlmError(() => compileSchema(schema));
}

/** German problems ("field" + what is expected), or an empty list when `value` matches `schema`. */
export function schemaProblems(schema: JsonSchema, value: unknown): string[] {
  return asLlmError(() => schemaIssues(schema, value, OUTPUT_SUBJECT)).map((i) => i.message);
}

/** Parses `text` as JSON and validates it; returns the value or the reason it is not acceptable. */
export function parseAndValidate<T>(
  schema: JsonSchema,
  text: string,
): { ok: true; value: T } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `kein gültiges JSON (${jsonSyntaxErrorText(err)})` };
  }
  const problems = schemaProblems(schema, value);
  return problems.length === 0
    ? { ok: true, value: value as T }
    : { ok: false, reason: problems.slice(0, 5).join("; ") };
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
