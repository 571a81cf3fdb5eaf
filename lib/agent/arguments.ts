// Checks tool arguments against the tool's JSON input schema with ajv, with German messages the
// model can act on. Schemas are compiled once per tool and cached.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { TYPE_DE } from "../mcp/catalog.js";
import type { ToolInfo } from "../mcp/types.js";
import { hasOwn } from "../util.js";
import { stableStringify } from "./json-util.js";

export interface ArgumentIssue {
  /** JSON pointer into the arguments, e.g. "/lat" ("" = the arguments object). */
  path: string;
  message: string;
}

/** `issues` is empty when `ok`. */
export interface ArgumentCheck {
  ok: boolean;
  issues: ArgumentIssue[];
}

function pointerToName(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

/** "number" → "number (Zahl)"; "string,null" → "string (Text) oder null". */
function typeText(type: unknown): string {
  return String(type)
    .split(",")
    .map((t) => (hasOwn(TYPE_DE, t) && t !== "null" ? `${t} (${TYPE_DE[t]})` : t))
    .join(" oder ");
}

/** ["a", "b", "c"] → `"a", "b" und "c"`. */
function quotedList(names: readonly string[]): string {
  const q = names.map((n) => `"${n}"`);
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} und ${q.at(-1)}`;
}

/** ajv reports the missing dependencies as one joined string "b, c" (`deps`), or one `missingProperty`. */
function dependencyNames(params: Record<string, unknown>): string[] {
  const deps = params.deps;
  if (Array.isArray(deps)) return deps.map(String);
  if (typeof deps === "string" && deps !== "") return deps.split(", ");
  return [String(params.missingProperty)];
}

/** 1 → "1 Eintrag", 2 → "2 Einträge" (singular only for exactly one). */
const count = (n: unknown, singular: string, plural: string) => `${String(n)} ${Number(n) === 1 ? singular : plural}`;

/**
 * A German message for one ajv error. Covers the validation keywords of JSON Schema draft-07 and
 * 2020-12 (formats are not checked here); ajv's English text remains only for keywords outside them
 * (the kit has no ajv-i18n).
 */
function germanIssue(error: ErrorObject): ArgumentIssue {
  const where = pointerToName(error.instancePath);
  const field = where === "" ? "Das Argument-Objekt" : `"${where}"`;
  const inside = (name: unknown) => [where, String(name)].filter(Boolean).join(".");
  const p = error.params as Record<string, unknown>;
  let message: string;
  switch (error.keyword) {
    case "required":
      message = `Pflichtargument "${inside(p.missingProperty)}" fehlt.`;
      break;
    case "additionalProperties":
      message = `Unbekanntes Argument "${inside(p.additionalProperty)}" – nur Felder aus dem Eingabe-Schema verwenden.`;
      break;
    case "unevaluatedProperties":
      message = `Unbekanntes Argument "${inside(p.unevaluatedProperty)}" – nur Felder aus dem Eingabe-Schema verwenden.`;
      break;
    case "type":
      message = `${field} muss vom Typ ${typeText(p.type)} sein.`;
      break;
    case "enum":
      message = `${field} muss einer dieser Werte sein: ${JSON.stringify(p.allowedValues)}.`;
      break;
    case "const":
      message = `${field} muss genau ${JSON.stringify(p.allowedValue)} sein.`;
      break;
    case "minimum":
    case "exclusiveMinimum":
    case "maximum":
    case "exclusiveMaximum":
      message = `${field} muss ${String(p.comparison)} ${String(p.limit)} sein.`;
      break;
    case "multipleOf":
      message = `${field} muss ein Vielfaches von ${String(p.multipleOf)} sein.`;
      break;
    case "minLength":
      message = `${field} muss mindestens ${String(p.limit)} Zeichen lang sein.`;
      break;
    case "maxLength":
      message = `${field} darf höchstens ${String(p.limit)} Zeichen lang sein.`;
      break;
    case "pattern":
      message = `${field} hat nicht das verlangte Muster ${String(p.pattern)}.`;
      break;
    case "minItems":
      message = `${field} braucht mindestens ${count(p.limit, "Eintrag", "Einträge")}.`;
      break;
    case "maxItems":
    case "additionalItems":
    case "unevaluatedItems":
      message = `${field} darf höchstens ${count(p.limit, "Eintrag", "Einträge")} haben.`;
      break;
    case "items":
      // 2020-12: `items: false` after prefixItems limits the length.
      message =
        p.limit !== undefined ? `${field} darf höchstens ${count(p.limit, "Eintrag", "Einträge")} haben.` : `${field}: ein Eintrag passt nicht zum Schema.`;
      break;
    case "uniqueItems":
      message = `${field} darf keine doppelten Einträge haben (Eintrag ${String(p.j)} und ${String(p.i)} sind gleich).`;
      break;
    case "contains":
      message =
        p.maxContains !== undefined
          ? `${field} braucht zwischen ${String(p.minContains)} und ${String(p.maxContains)} passende Einträge.`
          : `${field} braucht mindestens ${count(p.minContains ?? 1, "passenden Eintrag", "passende Einträge")}.`;
      break;
    case "minProperties":
      message = `${field} braucht mindestens ${count(p.limit, "Feld", "Felder")}.`;
      break;
    case "maxProperties":
      message = `${field} darf höchstens ${count(p.limit, "Feld", "Felder")} haben.`;
      break;
    case "dependencies":
    case "dependentRequired":
      message = `Wenn "${inside(p.property)}" angegeben ist, braucht es auch ${quotedList(dependencyNames(p).map(inside))}.`;
      break;
    case "propertyNames":
      message = `${field}: der Feldname "${String(p.propertyName)}" ist nicht erlaubt.`;
      break;
    case "anyOf":
      message = `${field} passt zu keiner der erlaubten Varianten.`;
      break;
    case "oneOf":
      message = Array.isArray(p.passingSchemas)
        ? `${field} passt zu mehreren Varianten (${p.passingSchemas.map((i) => Number(i) + 1).join(" und ")}), erlaubt ist genau eine.`
        : `${field} passt zu keiner der erlaubten Varianten.`;
      break;
    case "not":
      message = `${field} hat eine Form, die das Schema ausdrücklich verbietet.`;
      break;
    case "if":
      message = `${field} erfüllt die Bedingung nicht (Teil "${String(p.failingKeyword)}" des Schemas).`;
      break;
    case "false schema":
      message = where === "" ? "Das Tool nimmt keine Argumente an." : `"${where}" ist hier nicht erlaubt.`;
      break;
    default:
      message = `${field}: ${error.message ?? error.keyword}`;
  }
  return { path: error.instancePath, message };
}

// Compiling is the expensive part (tens of ms per schema), so compiled validators are shared by all
// ArgumentValidator instances, keyed by the schema's canonical JSON (MCP clients return fresh objects).
const shared = {
  ajv: undefined as Ajv | undefined,
  ajv2020: undefined as Ajv2020 | undefined,
  compiled: new Map<string, ValidateFunction | null>(),
};
const MAX_CACHED_SCHEMAS = 512;

function compileShared(schema: Record<string, unknown>): ValidateFunction | null {
  const key = stableStringify(schema);
  const cached = shared.compiled.get(key);
  if (cached !== undefined) return cached;
  let compiled: ValidateFunction | null;
  try {
    const { $schema, $id: _id, ...rest } = schema;
    const dialect = typeof $schema === "string" ? $schema : "";
    if (dialect.includes("2020-12") || dialect.includes("2019-09")) {
      shared.ajv2020 ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
      compiled = shared.ajv2020.compile(rest);
    } else {
      shared.ajv ??= new Ajv({ allErrors: true, strict: false, validateFormats: false });
      compiled = shared.ajv.compile(rest);
    }
  } catch {
    compiled = null; // a schema ajv cannot compile is not checked here; the server still validates
  }
  if (shared.compiled.size >= MAX_CACHED_SCHEMAS) shared.compiled.clear();
  shared.compiled.set(key, compiled);
  return compiled;
}

/** Checks tool arguments against input schemas (compiled once per distinct schema, process-wide). */
export class ArgumentValidator {
  private readonly local = new WeakMap<object, ValidateFunction | null>();

  private compile(schema: Record<string, unknown>): ValidateFunction | null {
    let compiled = this.local.get(schema);
    if (compiled === undefined) {
      compiled = compileShared(schema);
      this.local.set(schema, compiled);
    }
    return compiled;
  }

  /** Checks `args` against `tool.inputSchema`; `ignore` skips issues at or below these JSON pointers. */
  check(tool: ToolInfo, args: unknown, ignore: readonly string[] = []): ArgumentCheck {
    const validate = this.compile(tool.inputSchema);
    if (!validate || validate(args)) return { ok: true, issues: [] };
    const relevant = (validate.errors ?? []).filter(
      (e) => !ignore.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)),
    );
    if (relevant.length === 0) return { ok: true, issues: [] };
    const specific = relevant.filter((e) => !["anyOf", "oneOf", "if", "allOf"].includes(e.keyword));
    const issues = (specific.length > 0 ? specific : relevant).map(germanIssue);
    const unique = [...new Map(issues.map((i) => [`${i.path}|${i.message}`, i])).values()];
    return { ok: unique.length === 0, issues: unique };
  }
}
