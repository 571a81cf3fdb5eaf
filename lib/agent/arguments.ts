// Checks tool arguments against the tool's JSON input schema with ajv, with German messages the
// model can act on. Schemas are compiled once per tool and cached.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ToolInfo } from "../mcp/types.js";
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

function germanIssue(error: ErrorObject): ArgumentIssue {
  const where = pointerToName(error.instancePath);
  const field = where === "" ? "Die Argumente" : `"${where}"`;
  const p = error.params as Record<string, unknown>;
  let message: string;
  switch (error.keyword) {
    case "required":
      message = `Pflichtargument "${[where, String(p.missingProperty)].filter(Boolean).join(".")}" fehlt.`;
      break;
    case "additionalProperties":
      message = `Unbekanntes Argument "${[where, String(p.additionalProperty)].filter(Boolean).join(".")}" – nur Felder aus dem Eingabe-Schema verwenden.`;
      break;
    case "type":
      message = `${field} muss vom Typ ${String(p.type)} sein.`;
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
      message = `${field} braucht mindestens ${String(p.limit)} Einträge.`;
      break;
    case "maxItems":
      message = `${field} darf höchstens ${String(p.limit)} Einträge haben.`;
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
