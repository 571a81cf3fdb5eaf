// The one Ajv owner: JSON Schema checks for model output (lib/llm/json-validation.ts) and tool arguments
// (lib/agent/arguments.ts), with German messages from ajv-i18n.
//
// One Ajv2020 instance with ajv-formats, created on first use: loading ajv costs about 100 ms, which a
// notebook's first `import … from "./lib/index"` should not pay.
//
// Dialects: MCP servers send draft-07 (the TypeScript SDK's zod converter) or 2020-12 (the MCP default,
// e.g. pydantic). Ajv keeps 2020-12 and earlier drafts apart (ajv.js.org, "Choosing schema language");
// adding the draft-07 meta-schema to Ajv2020 only makes `$schema: draft-07` resolve — Ajv2020 still
// refuses draft-07's tuple form `items: [...]` ("items value must be object,boolean"; tried). That form
// is the one difference that breaks compiling, so it is lifted here (`items: [...]` → `prefixItems`,
// `additionalItems` → `items`); `dependencies` and `definitions` work as they are. `$schema` and `$id`
// are dropped before compiling: the keywords mean the same, and MCP clients return fresh objects that
// reuse an `$id`, which Ajv would reject as a duplicate.
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import cjsRequire from "../cjs-require.cjs";
import { errorText, isPlainObject } from "../util.js";
import { typeWithGerman } from "./text.js";
import { KitError } from "../errors.js";

/** The schema itself is not a JSON schema Ajv can compile. */
export class InvalidSchemaError extends KitError {
  override name = "InvalidSchemaError";
  constructor(readonly reason: string) {
    super(`Ungültiges JSON-Schema: ${reason}`);
  }
}

/** One problem of a value, with a German message that names the field and says what is expected. */
export interface SchemaIssue {
  /** JSON pointer into the value, e.g. "/lat" ("" = the value itself). */
  path: string;
  /** The JSON Schema keyword that failed ("type", "required" …). */
  keyword: string;
  message: string;
}

let ajv: Ajv2020 | undefined;
let localizeDe: ((errors: ErrorObject[]) => void) | undefined;

function instance(): Ajv2020 {
  if (!ajv) {
    const { Ajv2020: AjvClass } = cjsRequire<typeof import("ajv/dist/2020.js")>("ajv/dist/2020");
    const formats = cjsRequire<{ default?: unknown }>("ajv-formats");
    const addFormats = (formats.default ?? formats) as (a: Ajv2020) => Ajv2020;
    // strict: false — schemas from servers may carry keywords Ajv does not know; logger: false — and
    // formats it does not know (ignored, not checked), which should not print warnings into cells.
    ajv = addFormats(new AjvClass({ allErrors: true, strict: false, logger: false }));
  }
  return ajv;
}

/** Keywords whose values are data, not schemas: never rewritten. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to schemas (a property may be called "items"). */
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

/** Draft-07's tuple form in 2020-12 words; everything else unchanged (see the header). */
function liftTuples(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && isPlainObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, liftTuples(v)]));
    else out[key] = Array.isArray(value) ? value.map(liftTuples) : liftTuples(value);
  }
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    if ("additionalItems" in out) out.items = out.additionalItems;
    else delete out.items;
  }
  delete out.additionalItems;
  return out;
}

const byIdentity = new WeakMap<object, ValidateFunction | InvalidSchemaError>();
const byText = new Map<string, ValidateFunction | InvalidSchemaError>();
const MAX_CACHED_SCHEMAS = 512;

/** The compiled validator for `schema` (cached by identity and by JSON text). Throws InvalidSchemaError. */
export function compileSchema(schema: object): ValidateFunction {
  let compiled = byIdentity.get(schema);
  if (compiled === undefined) {
    const key = JSON.stringify(schema);
    compiled = byText.get(key);
    if (compiled === undefined) {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
      try {
        compiled = instance().compile(liftTuples(rest) as object);
      } catch (error) {
        compiled = new InvalidSchemaError(errorText(error));
      }
      if (byText.size >= MAX_CACHED_SCHEMAS) byText.clear();
      byText.set(key, compiled);
    }
    byIdentity.set(schema, compiled);
  }
  if (compiled instanceof InvalidSchemaError) throw compiled;
  return compiled;
}

/** Ajv's errors for `value` ([] when it matches). Throws InvalidSchemaError for a broken schema. */
export function schemaErrors(schema: object, value: unknown): ErrorObject[] {
  const validate = compileSchema(schema);
  return validate(value) ? [] : [...(validate.errors ?? [])];
}

/** JSON pointer → the field as participants write it: "/ort/name" → "ort.name", "/stops/2" → "stops.2". */
export function fieldName(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

const quoted = (name: unknown) => `"${String(name)}"`;
const quotedList = (names: unknown): string =>
  (Array.isArray(names) ? names.map(String) : String(names).split(", ")).map(quoted).join(", ");

/** The params ajv-i18n reads, made readable: names quoted, types with their German name. */
function paramsForMessage(error: ErrorObject): Record<string, unknown> {
  const p = { ...(error.params as Record<string, unknown>) };
  if (error.keyword === "type") p.type = typeWithGerman(p.type);
  if (p.missingProperty !== undefined) p.missingProperty = quoted(p.missingProperty);
  if (error.keyword === "dependencies" || error.keyword === "dependentRequired") {
    p.property = quoted(p.property);
    p.deps = quotedList(p.deps);
  }
  // ajv-i18n reads `len` for unevaluatedItems; ajv 8 reports the limit as `limit`.
  if (error.keyword === "unevaluatedItems") p.len ??= p.limit;
  return p;
}

/** What ajv-i18n's text leaves out but the reader needs: which field, which values. */
function detail(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties":
      return `: ${quoted(p.additionalProperty)}`;
    case "unevaluatedProperties":
      return `: ${quoted(p.unevaluatedProperty)}`;
    case "propertyNames":
      return `: ${quoted(p.propertyName)}`;
    case "enum":
      return `: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "const":
      return `: ${JSON.stringify(p.allowedValue)}`;
    case "contains":
      if (p.maxContains !== undefined) return ` (zwischen ${String(p.minContains)} und ${String(p.maxContains)})`;
      return Number(p.minContains ?? 1) > 1 ? ` (mindestens ${String(p.minContains)})` : "";
    default:
      return "";
  }
}

/**
 * German messages for Ajv errors: ajv-i18n's German text with the field in front and the details it
 * leaves out appended — `"lat" muss sein: number (Zahl).`, `Das Argument-Objekt muss das erforderliche
 * Attribut "end_date" enthalten.` `subject` names the value itself (path "").
 */
export function germanIssues(errors: readonly ErrorObject[], subject = "Der Wert"): SchemaIssue[] {
  localizeDe ??= cjsRequire<(errors: ErrorObject[]) => void>("ajv-i18n/localize/de");
  const localized = errors.map((e) => ({ ...e, params: paramsForMessage(e) }) as ErrorObject);
  localizeDe(localized);
  return errors.map((error, i) => {
    const field = fieldName(error.instancePath);
    // Errors inside `propertyNames` are about a key of the object, which ajv names in `propertyName`.
    const who =
      error.propertyName !== undefined
        ? `Der Attributname ${quoted(error.propertyName)}`
        : field === ""
          ? subject
          : quoted(field);
    // Two ajv-i18n texts describe the schema rather than the value: "boolesches Schema ist falsch",
    // "Attributname ist ungültig".
    const text =
      error.keyword === "false schema"
        ? "ist hier nicht erlaubt"
        : error.keyword === "propertyNames"
          ? `hat einen ungültigen Attributnamen${detail(error)}`
          : `${localized[i]!.message ?? error.keyword}${detail(error)}`;
    return { path: error.instancePath, keyword: error.keyword, message: `${who} ${text}.` };
  });
}

/** German issues of `value` against `schema` ([] when it matches). Throws InvalidSchemaError for a broken schema. */
export function schemaIssues(schema: object, value: unknown, subject?: string): SchemaIssue[] {
  return germanIssues(schemaErrors(schema, value), subject);
}
