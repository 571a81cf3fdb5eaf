// The one schema-to-text formatter: German type names, field lists and tool catalogs, from JSON schemas.
// Used by the tool catalog (formatToolsForPrompt, re-exported by lib/mcp), the planner and half-agent
// prompts (formatToolCatalog / formatToolSignatures in lib/agent/prompts.ts), the notebook catalog table
// (lib/display/tables.ts) and the German schema messages (lib/schema/validate.ts).
// Two notations from one vocabulary: long ("Liste von Zahlen", `einer von "a", "b"`) for the readable
// catalog, short ("Zahl[]", `"a"|"b"`) for one-line signatures in small prompts.
import { hasOwn, isPlainObject } from "../util.js";

/**
 * What the texts here need to know about a tool: name, description and its schemas. Any tool
 * description with these fields fits (an MCP ToolInfo does); schema/ does not depend on mcp/.
 */
export interface DescribedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
}

type Schema = Record<string, unknown>;

/** The one German type-name table. */
export const TYPE_DE: Readonly<Record<string, string>> = {
  string: "Text",
  number: "Zahl",
  integer: "ganze Zahl",
  boolean: "true/false",
  object: "Objekt",
  array: "Liste",
  null: "null",
};

const PLURAL_DE: Readonly<Record<string, string>> = {
  Text: "Texten",
  Zahl: "Zahlen",
  "ganze Zahl": "ganzen Zahlen",
  "true/false": "true/false-Werten",
  Objekt: "Objekten",
  Liste: "Listen",
};

const asSchema = (value: unknown): Schema | undefined => (isPlainObject(value) ? value : undefined);
/** The table's own entry only (schemas come from servers: "constructor" is not a type name). */
const lookup = (table: Readonly<Record<string, string>>, key: string): string | undefined =>
  hasOwn(table, key) ? table[key] : undefined;
const germanType = (type: unknown): string => lookup(TYPE_DE, String(type)) ?? String(type);
const literal = (value: unknown): string => (typeof value === "string" ? `"${value}"` : JSON.stringify(value));
const variantsOf = (schema: Schema): unknown[] | undefined => {
  const variants = schema.anyOf ?? schema.oneOf;
  return Array.isArray(variants) ? variants : undefined;
};

/** JSON type names with their German name, for messages: "number" → "number (Zahl)"; "string,null" → "string (Text) oder null". */
export function typeWithGerman(type: unknown): string {
  const names = Array.isArray(type) ? type.map(String) : String(type).split(",");
  return names.map((t) => (t !== "null" && lookup(TYPE_DE, t) ? `${t} (${lookup(TYPE_DE, t)})` : t)).join(" oder ");
}

/** Long form: "Zahl", "Text oder null", "Liste von Objekten", `einer von "a", "b"`, "beliebiger Wert". */
export function describeType(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `einer von ${schema.enum.map(literal).join(", ")}`;
  if ("const" in schema) return `genau ${literal(schema.const)}`;
  const variants = variantsOf(schema);
  if (variants) return variants.map((v) => describeType(asSchema(v) ?? {})).join(" oder ");
  const type = schema.type;
  if (Array.isArray(type)) return type.map(germanType).join(" oder ");
  if (type === "array") {
    const items = asSchema(schema.items);
    if (!items) return "Liste";
    const inner = describeType(items);
    return `Liste von ${lookup(PLURAL_DE, inner) ?? inner}`;
  }
  if (typeof type === "string") return germanType(type);
  return "beliebiger Wert";
}

/** Short form for one-line signatures: "Zahl", "Text|null", "Zahl[]", `"a"|"b"`, "Wert". */
export function shortType(schema: unknown): string {
  const s = asSchema(schema);
  if (!s) return "Wert";
  if (Array.isArray(s.enum)) return s.enum.map(literal).join("|");
  if ("const" in s) return literal(s.const);
  const variants = variantsOf(s);
  if (variants) return variants.map(shortType).join("|");
  if (Array.isArray(s.type)) return s.type.map(germanType).join("|");
  if (s.type === "array") return `${shortType(s.items)}[]`;
  if (typeof s.type === "string") return germanType(s.type);
  return "Wert";
}

/** Ranges, lengths and the default of one field: ["von -90 bis 90"], ["mindestens 1 Zeichen", "Standard 5"]. */
export function constraintTexts(schema: Schema): string[] {
  const out: string[] = [];
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength } = schema;
  const inclusiveRange =
    minimum !== undefined && maximum !== undefined && exclusiveMinimum === undefined && exclusiveMaximum === undefined;
  if (inclusiveRange) out.push(`von ${String(minimum)} bis ${String(maximum)}`);
  else {
    if (exclusiveMinimum !== undefined) out.push(`größer als ${String(exclusiveMinimum)}`);
    else if (minimum !== undefined) out.push(`mindestens ${String(minimum)}`);
    if (exclusiveMaximum !== undefined) out.push(`kleiner als ${String(exclusiveMaximum)}`);
    else if (maximum !== undefined) out.push(`höchstens ${String(maximum)}`);
  }
  if (typeof minLength === "number" && minLength > 0) out.push(`mindestens ${minLength} Zeichen`);
  if (typeof maxLength === "number") out.push(`höchstens ${maxLength} Zeichen`);
  if ("default" in schema) out.push(`Standard ${literal(schema.default)}`);
  return out;
}

export interface SchemaField {
  name: string;
  schema: Schema;
  required: boolean;
  description: string | undefined;
}

/** The properties of an object schema, in order, with their required flag. */
export function schemaFields(schema: unknown): SchemaField[] {
  const s = asSchema(schema);
  const props = asSchema(s?.properties) ?? {};
  const required = new Set(s && Array.isArray(s.required) ? s.required.map(String) : []);
  return Object.entries(props).map(([name, raw]) => {
    const field = asSchema(raw) ?? {};
    return {
      name,
      schema: field,
      required: required.has(name),
      description: typeof field.description === "string" ? field.description : undefined,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Long form: the readable catalog (Teil 3)

export interface CatalogOptions {
  /** Also append the raw JSON schemas (default false). */
  includeJson?: boolean;
  /** How deep nested output objects are expanded (default 2). */
  maxDepth?: number;
}

/** The object a field holds, directly or as list items, when it has properties to expand. */
function nestedObject(schema: Schema): Schema | undefined {
  if (schema.type === "object" && asSchema(schema.properties)) return schema;
  const items = schema.type === "array" ? asSchema(schema.items) : undefined;
  return items && items.type === "object" && asSchema(items.properties) ? items : undefined;
}

function fieldLines(schema: Schema, indent: string, depth: number, maxDepth: number, markRequired: boolean): string[] {
  return schemaFields(schema).flatMap((field) => {
    const parts = [describeType(field.schema)];
    if (markRequired) parts.push(field.required ? "Pflicht" : "optional");
    parts.push(...constraintTexts(field.schema));
    const line = `${indent}- ${field.name} (${parts.join(", ")})${field.description !== undefined ? `: ${field.description}` : ""}`;
    const nested = nestedObject(field.schema);
    return nested && depth < maxDepth
      ? [line, ...fieldLines(nested, `${indent}    `, depth + 1, maxDepth, false)]
      : [line];
  });
}

function schemaBlock(label: string, schema: Schema | undefined, maxDepth: number, markRequired: boolean): string[] {
  if (!schema) return [`  ${label}: (nicht angegeben)`];
  if (schemaFields(schema).length === 0) return [`  ${label}: keine Felder`];
  return [`  ${label}:`, ...fieldLines(schema, "    ", 1, maxDepth, markRequired)];
}

/** One block per tool (name, description, input and output fields), separated by blank lines. */
export function formatToolsForPrompt(tools: readonly DescribedTool[], options: CatalogOptions = {}): string {
  const maxDepth = options.maxDepth ?? 2;
  return tools
    .map((tool) => {
      const lines = [
        `Werkzeug: ${tool.name}`,
        `  Beschreibung: ${tool.description.trim() || "(keine Beschreibung)"}`,
        ...schemaBlock("Eingabe (arguments)", tool.inputSchema, maxDepth, true),
        ...schemaBlock("Ausgabe (result)", tool.outputSchema, maxDepth, false),
      ];
      if (tool.annotations?.readOnlyHint) lines.push("  Hinweis: liest nur Daten, ändert nichts.");
      if (options.includeJson) {
        lines.push(`  Eingabe-Schema (JSON): ${JSON.stringify(tool.inputSchema)}`);
        if (tool.outputSchema) lines.push(`  Ausgabe-Schema (JSON): ${JSON.stringify(tool.outputSchema)}`);
      }
      return lines.join("\n");
    })
    .join("\n\n");
}

// ---------------------------------------------------------------------------------------------
// Short form: one line per tool (planner and half-agent prompts, small contexts)

/** `name(arg: Typ, optional?: Typ) – first line of the description`. */
export function formatToolSignature(tool: DescribedTool): string {
  const args = schemaFields(tool.inputSchema).map((f) => `${f.name}${f.required ? "" : "?"}: ${shortType(f.schema)}`);
  return `${tool.name}(${args.join(", ")}) – ${tool.description.split("\n")[0] || "(ohne Beschreibung)"}`;
}

/** One signature line per tool. */
export function formatToolSignatures(tools: readonly DescribedTool[]): string {
  if (tools.length === 0) return "(keine Tools verfügbar)";
  return tools.map((t) => `- ${formatToolSignature(t)}`).join("\n");
}

/** Result fields as a short shape, e.g. `{lat: Zahl, lon: Zahl, source: "nominatim"|"offline", note?: Text}`. */
export function formatOutputShape(schema: unknown, depth = 3): string {
  const s = asSchema(schema);
  if (!s) return "Wert";
  if (asSchema(s.properties) && depth > 0) {
    return `{${schemaFields(s)
      .map((f) => `${f.name}${f.required ? "" : "?"}: ${formatOutputShape(f.schema, depth - 1)}`)
      .join(", ")}}`;
  }
  if (s.type === "array" && depth > 0) return `${formatOutputShape(s.items, depth - 1)}[]`;
  return shortType(s);
}

/** The planner's catalog: one signature line per tool plus the shape of its result (for `$ref` paths). */
export function formatToolCatalog(tools: readonly DescribedTool[]): string {
  if (tools.length === 0) return "(keine Tools verfügbar)";
  return tools
    .map(
      (t) => `- ${formatToolSignature(t)}${t.outputSchema ? `\n  Ergebnis: ${formatOutputShape(t.outputSchema)}` : ""}`,
    )
    .join("\n");
}
