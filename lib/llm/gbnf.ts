// A JSON schema as a GBNF grammar: for the local model, and for a class server whose own schema
// converter refuses the schema. llama-server takes any key named "$ref" for a JSON reference — also the
// *property* "$ref" of the kit's plan arguments — and refuses the plan schema. Its `grammar` request field
// takes GBNF instead; the grammar comes from node-llama-cpp's converter in the dialect local plans use, so
// plans on the class server are constrained exactly as on a laptop.
// node-llama-cpp's converter knows no `pattern`; a string whose pattern is one character class repeated
// (the plan's tool ids, `^[A-Za-z0-9_-]+$`) is converted as a placeholder constant, and the constant's
// literal in the grammar is then replaced by that character class: no model can write another id.
import { toGrammarDialect } from "../schema/grammar.js";
import { isPlainObject } from "../util.js";
import { getKitLlama } from "./llama.js";
import type { JsonSchema } from "./types.js";

/** What of node-llama-cpp's Llama the conversion needs (its own type would reach the notebook lib's declarations). */
interface GrammarMaker {
  createGrammarForJsonSchema(schema: never): Promise<{ grammar: string }>;
}

/** `^[class]+$` or `^[class]*$` with a plain class (letters, digits, `_`, `-`, ranges). */
const CHARACTER_CLASS_PATTERN = /^\^\[([A-Za-z0-9_-]+)\]([+*])\$$/u;

/** The GBNF of one quoted string of `pattern`'s characters, or undefined for any other pattern. */
function characterClassString(node: Record<string, unknown>): string | undefined {
  if (node.type !== "string" || typeof node.pattern !== "string") return undefined;
  const m = CHARACTER_CLASS_PATTERN.exec(node.pattern);
  if (!m) return undefined;
  const min = Math.max(typeof node.minLength === "number" ? node.minLength : 0, m[2] === "+" ? 1 : 0);
  const max = typeof node.maxLength === "number" ? String(node.maxLength) : "";
  return `"\\"" [${m[1]}]{${min},${max}} "\\""`;
}

/** `schema` with each character-class string replaced by a placeholder constant, and the placeholders' GBNF. */
function withPlaceholders(node: unknown, found: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => withPlaceholders(item, found));
  if (!isPlainObject(node)) return node;
  const rule = characterClassString(node);
  if (rule !== undefined) {
    const placeholder = `kit-pattern-${found.size}-${Math.random().toString(36).slice(2)}`;
    found.set(`"\\"${placeholder}\\""`, rule);
    return { const: placeholder };
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withPlaceholders(value, found)]));
}

/** GBNF text for `schema` with `llama`'s converter (character-class patterns included, see above). */
export async function jsonSchemaGbnf(llama: GrammarMaker, schema: JsonSchema): Promise<string> {
  const placeholders = new Map<string, string>();
  const dialect = withPlaceholders(toGrammarDialect(schema), placeholders);
  let grammar = (await llama.createGrammarForJsonSchema(dialect as never)).grammar;
  for (const [literal, rule] of placeholders) grammar = grammar.split(literal).join(rule);
  return grammar;
}

/** GBNF text for `schema` (loads node-llama-cpp's CPU binding once, on first use; no model). */
export async function gbnfForJsonSchema(schema: JsonSchema): Promise<string> {
  return jsonSchemaGbnf(await getKitLlama("cpu"), schema);
}
