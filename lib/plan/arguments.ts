// Checks tool arguments against the tool's JSON input schema, with German messages the model can act on.
// Ajv, its cache and the German wording live in lib/schema/validate.ts (the one Ajv owner).
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { ToolInfo } from "../mcp/types.js";
import { compileSchema, germanIssues, InvalidSchemaError } from "../schema/validate.js";

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

/** How messages name the arguments object itself (path ""). */
const ARGUMENTS_SUBJECT = "Das Argument-Objekt";

/** Combinators whose own error only repeats what the errors of their branches say more precisely. */
const SUMMARY_KEYWORDS = new Set(["anyOf", "oneOf", "if", "allOf"]);

function compiled(schema: Record<string, unknown>): ValidateFunction | null {
  try {
    return compileSchema(schema);
  } catch (error) {
    if (error instanceof InvalidSchemaError) return null; // not checked here; the server still validates
    throw error;
  }
}

/**
 * Checks `args` against `tool.inputSchema` (compiled once per distinct schema, process-wide, in
 * lib/schema/validate.ts); `ignore` skips issues at or below these JSON pointers.
 */
export function checkArguments(tool: ToolInfo, args: unknown, ignore: readonly string[] = []): ArgumentCheck {
  const validate = compiled(tool.inputSchema);
  if (!validate || validate(args)) return { ok: true, issues: [] };
  const relevant = (validate.errors ?? []).filter(
    (e: ErrorObject) => !ignore.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)),
  );
  if (relevant.length === 0) return { ok: true, issues: [] };
  const specific = relevant.filter((e) => !SUMMARY_KEYWORDS.has(e.keyword));
  const issues = germanIssues(specific.length > 0 ? specific : relevant, ARGUMENTS_SUBJECT).map(
    ({ path, message }) => ({ path, message }),
  );
  const unique = [...new Map(issues.map((i) => [`${i.path}|${i.message}`, i])).values()];
  return { ok: unique.length === 0, issues: unique };
}
