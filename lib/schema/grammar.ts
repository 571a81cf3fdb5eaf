// The one grammar-schema module: every schema node-llama-cpp turns into a grammar passes toGrammarDialect
// (local.ts); toGrammarSchema converts arbitrary JSON schemas (MCP tool input schemas, zod output) into the subset that
// node-llama-cpp's createGrammarForJsonSchema understands (its GbnfJsonSchema type):
// - `oneOf` only (an `anyOf` would silently become "null"), no `allOf`/`not`/`if`;
// - `$ref` only as "#/$defs/<name>" — we inline local refs instead;
// - strings: minLength/maxLength and format date | time | date-time; no pattern;
// - numbers: no minimum/maximum/multipleOf;
// - objects: every listed property is always generated (`required` has no effect) and
//   additionalProperties defaults to false; an empty schema `{}` means "null" there, not "anything".
// Optional properties are therefore written as "<declared> or null"; see dropNullOptionals.
import * as z from "zod";
import { isPlainObject, ownValue } from "../util.js";
import type { JsonSchema } from "./json-schema.js";

type Schema = Record<string, unknown>;

const PRIMITIVES = ["string", "number", "integer", "boolean", "null"] as const;
const STRING_FORMATS = new Set(["date", "time", "date-time"]);
const MAX_DEPTH = 24;

/** Any JSON value, spelled so the grammar generator accepts it. */
export const ANY_JSON_SCHEMA: JsonSchema = Object.freeze({
  oneOf: [
    { type: ["string", "number", "boolean", "null"] },
    { type: "object", additionalProperties: true },
    { type: "array" },
  ],
}) as JsonSchema;

function resolveLocalRef(ref: string, root: Schema): unknown {
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!m) return undefined;
  const defs = ownValue(root, m[1] as string);
  return isPlainObject(defs)
    ? ownValue(
        defs,
        decodeURIComponent(m[2] as string)
          .replace(/~1/g, "/")
          .replace(/~0/g, "~"),
      )
    : undefined;
}

function withDescription(target: Schema, source: Schema): Schema {
  const description = ownValue(source, "description");
  if (typeof description === "string" && description !== "") target.description = description;
  return target;
}

function literalList(values: unknown): (string | number | boolean | null)[] | undefined {
  if (!Array.isArray(values)) return undefined;
  const literals = values.filter(
    (v): v is string | number | boolean | null => v === null || ["string", "number", "boolean"].includes(typeof v),
  );
  return literals.length > 0 ? literals : undefined;
}

function oneOf(options: Schema[]): Schema {
  return options.length === 1 ? (options[0] as Schema) : { oneOf: options };
}

function convert(node: unknown, root: Schema, depth: number, seenRefs: ReadonlySet<string>): Schema {
  if (depth > MAX_DEPTH || !isPlainObject(node)) return { ...ANY_JSON_SCHEMA };

  const ref = ownValue(node, "$ref");
  if (typeof ref === "string") {
    const target = seenRefs.has(ref) ? undefined : resolveLocalRef(ref, root);
    if (target === undefined) return { ...ANY_JSON_SCHEMA };
    return withDescription(convert(target, root, depth + 1, new Set([...seenRefs, ref])), node);
  }

  if (ownValue(node, "const") !== undefined) {
    const c = ownValue(node, "const");
    const lit = literalList([c]);
    return lit ? withDescription({ const: lit[0] }, node) : { ...ANY_JSON_SCHEMA };
  }
  const enumValues = literalList(ownValue(node, "enum"));
  if (enumValues) return withDescription({ enum: enumValues }, node);

  for (const key of ["oneOf", "anyOf"] as const) {
    const alternatives = ownValue(node, key);
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      const converted = alternatives.map((alt) => convert(alt, root, depth + 1, seenRefs));
      return withDescription(oneOf(converted), node);
    }
  }
  const allOf = ownValue(node, "allOf");
  if (Array.isArray(allOf) && allOf.length === 1)
    return withDescription(convert(allOf[0], root, depth + 1, seenRefs), node);

  const type = ownValue(node, "type");
  const types = Array.isArray(type)
    ? type.filter((t): t is string => typeof t === "string")
    : typeof type === "string"
      ? [type]
      : [];
  if (types.length === 0) {
    if (isPlainObject(ownValue(node, "properties"))) return convertObject(node, root, depth, seenRefs);
    if (ownValue(node, "items") !== undefined) return convertArray(node, root, depth, seenRefs);
    return withDescription({ ...ANY_JSON_SCHEMA }, node);
  }
  if (types.length > 1) {
    const primitives = types.filter((t) => (PRIMITIVES as readonly string[]).includes(t) && t !== "string");
    const parts: Schema[] = [];
    if (types.includes("string")) parts.push(convertString(node));
    if (primitives.length > 0) parts.push({ type: primitives.length === 1 ? primitives[0] : primitives });
    if (types.includes("object")) parts.push(convertObject(node, root, depth, seenRefs));
    if (types.includes("array")) parts.push(convertArray(node, root, depth, seenRefs));
    return withDescription(parts.length > 0 ? oneOf(parts) : { ...ANY_JSON_SCHEMA }, node);
  }
  const only = types[0] as string;
  if (only === "string") return withDescription(convertString(node), node);
  if (only === "object") return convertObject(node, root, depth, seenRefs);
  if (only === "array") return convertArray(node, root, depth, seenRefs);
  if ((PRIMITIVES as readonly string[]).includes(only)) return withDescription({ type: only }, node);
  return withDescription({ ...ANY_JSON_SCHEMA }, node);
}

function convertString(node: Schema): Schema {
  const out: Schema = { type: "string" };
  const format = ownValue(node, "format");
  if (typeof format === "string" && STRING_FORMATS.has(format)) {
    out.format = format;
    return out;
  }
  const minLength = ownValue(node, "minLength");
  const maxLength = ownValue(node, "maxLength");
  if (typeof minLength === "number" && Number.isInteger(minLength) && minLength > 0) out.minLength = minLength;
  if (typeof maxLength === "number" && Number.isInteger(maxLength) && maxLength >= 0) out.maxLength = maxLength;
  return out;
}

function convertObject(node: Schema, root: Schema, depth: number, seenRefs: ReadonlySet<string>): Schema {
  const properties = ownValue(node, "properties");
  const out: Schema = { type: "object" };
  if (isPlainObject(properties) && Object.keys(properties).length > 0) {
    const required = new Set(
      Array.isArray(ownValue(node, "required")) ? (ownValue(node, "required") as unknown[]) : [],
    );
    out.properties = Object.fromEntries(
      Object.keys(properties).map((key) => {
        const converted = convert(properties[key], root, depth + 1, seenRefs);
        return [key, required.has(key) ? converted : nullable(converted)];
      }),
    );
    out.required = Object.keys(properties);
  } else {
    const additional = ownValue(node, "additionalProperties");
    out.additionalProperties = isPlainObject(additional) ? convert(additional, root, depth + 1, seenRefs) : true;
  }
  return withDescription(out, node);
}

function convertArray(node: Schema, root: Schema, depth: number, seenRefs: ReadonlySet<string>): Schema {
  const out: Schema = { type: "array" };
  const items = ownValue(node, "items");
  if (isPlainObject(items)) out.items = convert(items, root, depth + 1, seenRefs);
  const prefixItems = ownValue(node, "prefixItems");
  if (Array.isArray(prefixItems)) out.prefixItems = prefixItems.map((p) => convert(p, root, depth + 1, seenRefs));
  const minItems = ownValue(node, "minItems");
  const maxItems = ownValue(node, "maxItems");
  if (typeof minItems === "number" && Number.isInteger(minItems) && minItems > 0) out.minItems = minItems;
  if (typeof maxItems === "number" && Number.isInteger(maxItems) && maxItems >= 0) out.maxItems = maxItems;
  return withDescription(out, node);
}

/** `schema` or null (how the grammar expresses an optional value). */
export function nullable(schema: Schema): Schema {
  if (allowsNull(schema)) return schema;
  const alternatives = Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]) : [schema];
  return { oneOf: [...alternatives, { type: "null" }] };
}

function allowsNull(schema: Schema): boolean {
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  for (const key of ["oneOf", "anyOf"]) {
    const alternatives = schema[key];
    if (Array.isArray(alternatives) && alternatives.some((s) => isPlainObject(s) && allowsNull(s))) return true;
  }
  return false;
}

/** A schema node converted into node-llama-cpp's grammar subset (see the file comment). */
export function toGrammarSchema(schema: unknown, root: unknown = schema): JsonSchema {
  return convert(schema, isPlainObject(root) ? root : {}, 0, new Set());
}

/** Properties of a tool's input schema: name → { schema, required }. Own properties only. */
export function inputProperties(inputSchema: unknown): { name: string; schema: unknown; required: boolean }[] {
  if (!isPlainObject(inputSchema)) return [];
  const properties = ownValue(inputSchema, "properties");
  if (!isPlainObject(properties)) return [];
  const required = Array.isArray(ownValue(inputSchema, "required"))
    ? (ownValue(inputSchema, "required") as unknown[])
    : [];
  return Object.keys(properties).map((name) => ({ name, schema: properties[name], required: required.includes(name) }));
}

/**
 * Rewrites a zod-produced JSON schema into the grammar subset: drops `$schema` and `default`,
 * turns `anyOf` into `oneOf`. Used for schemas we build ourselves (their leaves are already safe).
 */
export function toGrammarDialect(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toGrammarDialect);
  if (!isPlainObject(node)) return node;
  const out: Schema = {};
  for (const key of Object.keys(node)) {
    if (key === "$schema" || key === "default") continue;
    const value = toGrammarDialect(node[key]);
    if (key === "anyOf") out.oneOf = value;
    else if (key === "properties" && isPlainObject(node[key])) {
      // property names are data, not keywords: copy them verbatim
      out.properties = Object.fromEntries(
        Object.keys(node[key] as Schema).map((k) => [k, toGrammarDialect((node[key] as Schema)[k])]),
      );
    } else out[key] = value;
  }
  return out;
}

/**
 * Removes `null` values of optional properties (the grammar writes null for "not given"),
 * recursively for nested objects described by `schema`. Returns a new value.
 */
export function dropNullOptionals(value: unknown, schema: unknown): unknown {
  if (!isPlainObject(value) || !isPlainObject(schema)) return value;
  const properties = ownValue(schema, "properties");
  if (!isPlainObject(properties)) return value;
  const required = Array.isArray(ownValue(schema, "required")) ? (ownValue(schema, "required") as unknown[]) : [];
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(value)) {
    const propSchema = ownValue(properties, key);
    const v = value[key];
    if (
      v === null &&
      propSchema !== undefined &&
      !required.includes(key) &&
      !(isPlainObject(propSchema) && allowsNull(propSchema))
    )
      continue;
    entries.push([key, propSchema === undefined ? v : dropNullOptionals(v, propSchema)]);
  }
  return Object.fromEntries(entries);
}

/**
 * One zod placeholder per input property of a tool, registered in `registry` with its grammar schema
 * (optional properties also null); z.toJSONSchema with `metadata: registry` writes those schemas.
 */
export function grammarArguments(
  inputSchema: unknown,
  registry: z.core.$ZodRegistry<Record<string, unknown>>,
): Record<string, z.ZodType> {
  const args: Record<string, z.ZodType> = {};
  for (const prop of inputProperties(inputSchema)) {
    const declared = z.unknown();
    const converted = toGrammarSchema(prop.schema, inputSchema);
    registry.add(declared, prop.required ? converted : nullable(converted));
    args[prop.name] = declared;
  }
  return args;
}
