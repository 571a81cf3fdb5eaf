// JSON-schema grammars for the in-process backend, compiled once per schema.
import type { Llama } from "node-llama-cpp";
import { errorText } from "../util.js";
import { JsonNotSupportedError } from "./errors.js";
import { jsonSchemaGbnf } from "./gbnf.js";
import { checkSchema } from "./json-validation.js";
import type { JsonGrammar } from "./local-generate.js";
import type { JsonSchema } from "./types.js";

/** Compiled grammars by schema; a schema the grammar cannot express is a JsonNotSupportedError. */
export class JsonGrammars {
  private readonly bySchema = new Map<string, JsonGrammar>();

  constructor(private readonly llama: Llama) {}

  /** The grammar for `schema`, compiled on first use. */
  async forSchema(schema: JsonSchema): Promise<JsonGrammar> {
    const key = JSON.stringify(schema);
    const known = this.bySchema.get(key);
    if (known) return known;
    checkSchema(schema);
    let grammar: JsonGrammar;
    try {
      // As node-llama-cpp's JSON-schema grammar does, plus character-class patterns (gbnf.ts); ajv checks the output.
      grammar = await this.llama.createGrammar({
        grammar: await jsonSchemaGbnf(this.llama, schema),
        stopGenerationTriggers: ["\n".repeat(4)],
        trimWhitespaceSuffix: true,
      });
    } catch (err) {
      throw new JsonNotSupportedError(`JSON-Schema wird von der Grammatik nicht unterstützt: ${errorText(err)}`);
    }
    this.bySchema.set(key, grammar);
    return grammar;
  }
}
