// The JSON Schema type the kit passes around. Its own file, free of imports: the notebooks' declaration
// files reach it through lib/llm/types.ts, and a cell must not read zod's declarations (grammar.ts uses zod).

/** A JSON schema object as accepted by node-llama-cpp's grammar and OpenAI's `response_format`. */
export type JsonSchema = Record<string, unknown>;
