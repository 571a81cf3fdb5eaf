// A JSON schema as a GBNF grammar, for a class server whose own schema converter refuses it.
// llama-server takes any key named "$ref" for a JSON reference — also the *property* "$ref" of the kit's
// plan arguments — and refuses the plan schema. Its `grammar` request field takes GBNF instead; the
// grammar comes from node-llama-cpp's converter in the dialect local plans use, so plans on the class
// server are constrained exactly as on a laptop.
import type { Llama } from "node-llama-cpp";
import { toGrammarDialect } from "../schema/grammar.js";
import { getKitLlama } from "./llama.js";
import type { JsonSchema } from "./types.js";

let converter: Promise<Llama> | undefined;

/** GBNF text for `schema` (loads node-llama-cpp's CPU binding once, on first use; no model). */
export async function gbnfForJsonSchema(schema: JsonSchema): Promise<string> {
  converter ??= getKitLlama("cpu");
  const llama = await converter;
  return (await llama.createGrammarForJsonSchema(toGrammarDialect(schema) as never)).grammar;
}
