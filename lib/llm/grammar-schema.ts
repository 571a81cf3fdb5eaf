// Adapts a JSON schema to what node-llama-cpp's JSON-schema grammar understands. The original schema
// stays the authority: every generated value is validated against it with ajv afterwards.

/** node-llama-cpp knows `oneOf` but not `anyOf` (an `anyOf` would become "any JSON"); drops `$schema`. */
export function toGrammarSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGrammarSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema") continue;
    out[key === "anyOf" ? "oneOf" : key] = toGrammarSchema(value);
  }
  return out;
}
