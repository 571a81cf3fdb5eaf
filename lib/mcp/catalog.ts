// The German tool catalog for system prompts: name, description, and input/output schema summarised
// readably (types, required/optional, ranges, defaults, enums) instead of raw JSON.
import type { ToolInfo } from "./types.js";

type Schema = Record<string, unknown>;

export interface CatalogOptions {
  /** Also append the raw JSON schemas (default false). */
  includeJson?: boolean;
  /** How deep nested output objects are expanded (default 2). */
  maxDepth?: number;
}

/** The one German type-name table (catalog, argument errors). */
export const TYPE_DE: Readonly<Record<string, string>> = {
  string: "Text",
  number: "Zahl",
  integer: "ganze Zahl",
  boolean: "true/false",
  object: "Objekt",
  array: "Liste",
  null: "null",
};

const PLURAL_DE: Record<string, string> = {
  Text: "Texten",
  Zahl: "Zahlen",
  "ganze Zahl": "ganzen Zahlen",
  "true/false": "true/false-Werten",
  Objekt: "Objekten",
  Liste: "Listen",
};

function asSchema(value: unknown): Schema | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Schema) : undefined;
}

function fmt(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : JSON.stringify(value);
}

/** "Zahl", "Text oder null", "Liste von Objekten", "einer von "a", "b"" … */
export function describeType(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `einer von ${schema.enum.map(fmt).join(", ")}`;
  if ("const" in schema) return `genau ${fmt(schema.const)}`;
  const variants = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(variants)) return variants.map((v) => describeType(asSchema(v) ?? {})).join(" oder ");
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => TYPE_DE[String(t)] ?? String(t)).join(" oder ");
  if (type === "array") {
    const items = asSchema(schema.items);
    if (!items) return "Liste";
    const inner = describeType(items);
    return `Liste von ${PLURAL_DE[inner] ?? inner}`;
  }
  if (typeof type === "string") return TYPE_DE[type] ?? type;
  return "beliebiger Wert";
}

function constraints(schema: Schema): string[] {
  const out: string[] = [];
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength } = schema;
  const inclusiveRange = minimum !== undefined && maximum !== undefined && exclusiveMinimum === undefined && exclusiveMaximum === undefined;
  if (inclusiveRange) out.push(`von ${minimum} bis ${maximum}`);
  else {
    if (exclusiveMinimum !== undefined) out.push(`größer als ${exclusiveMinimum}`);
    else if (minimum !== undefined) out.push(`mindestens ${minimum}`);
    if (exclusiveMaximum !== undefined) out.push(`kleiner als ${exclusiveMaximum}`);
    else if (maximum !== undefined) out.push(`höchstens ${maximum}`);
  }
  if (typeof minLength === "number" && minLength > 0) out.push(`mindestens ${minLength} Zeichen`);
  if (typeof maxLength === "number") out.push(`höchstens ${maxLength} Zeichen`);
  if ("default" in schema) out.push(`Standard ${fmt(schema.default)}`);
  return out;
}

function objectOf(schema: Schema): Schema | undefined {
  if (schema.type === "object" && asSchema(schema.properties)) return schema;
  if (schema.type === "array") {
    const items = asSchema(schema.items);
    if (items && items.type === "object" && asSchema(items.properties)) return items;
  }
  return undefined;
}

function propertyLines(schema: Schema, indent: string, depth: number, maxDepth: number, markRequired: boolean): string[] {
  const props = asSchema(schema.properties) ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const lines: string[] = [];
  for (const [name, raw] of Object.entries(props)) {
    const prop = asSchema(raw) ?? {};
    const parts = [describeType(prop)];
    if (markRequired) parts.push(required.has(name) ? "Pflicht" : "optional");
    parts.push(...constraints(prop));
    const desc = typeof prop.description === "string" ? `: ${prop.description}` : "";
    lines.push(`${indent}- ${name} (${parts.join(", ")})${desc}`);
    const nested = objectOf(prop);
    if (nested && depth < maxDepth) lines.push(...propertyLines(nested, `${indent}    `, depth + 1, maxDepth, false));
  }
  return lines;
}

function schemaBlock(label: string, schema: Schema | undefined, maxDepth: number, markRequired: boolean): string[] {
  if (!schema) return [`  ${label}: (nicht angegeben)`];
  const props = asSchema(schema.properties);
  if (!props || Object.keys(props).length === 0) return [`  ${label}: keine Felder`];
  return [`  ${label}:`, ...propertyLines(schema, "    ", 1, maxDepth, markRequired)];
}

/** One block per tool, separated by blank lines, ready to paste into a system prompt. */
export function formatToolsForPrompt(tools: ToolInfo[], options: CatalogOptions = {}): string {
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
