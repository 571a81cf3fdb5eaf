// The plan the model writes every turn, defined once with zod: the parser's validation and the JSON
// schema for grammar-constrained generation both derive from `planShape`. The public types are plain
// interfaces (notebooks type-check against declarations without zod's); `satisfies` ties them to it.
//
//   {"steps": [{"description": "...", "tools": [{"id": "geo_bcn", "name": "geocode", "arguments": {...}}]}],
//    "final": null | "<Antwort>"}
import * as z from "zod";
import type { JsonSchema } from "../llm/types.js";
import type { ToolInfo } from "../mcp/types.js";
import { extractJsonObject, type JsonExtractFailureKind } from "./json-extract.js";
import { hasOwn, isPlainObject } from "../util.js";
import { grammarArguments, toGrammarDialect } from "../schema/grammar.js";
import { jsonDepth } from "./json.js";
import { KitError } from "../errors.js";

/** Tool ids: letters, digits, `_` and `-` (a dot would split a `$ref` path). */
export const TOOL_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const TOOL_ID_MAX_LENGTH = 64;
/**
 * Deepest nesting a plan may have (the plan object itself is level 1, its tool arguments start at 5).
 * Deeper plans are a plan problem the model sees, never a stack overflow in the recursive checks.
 */
export const MAX_PLAN_DEPTH = 64;

const RefObjectSchema = z.object({ $ref: z.string().min(1) }).strict() satisfies z.ZodType<RefObject>;

// The parser bounds only the id's length: ids outside TOOL_ID_PATTERN (or reserved ones) are caught by
// checkPlan and sent back for a replan. The grammar also carries the pattern (llm/gbnf.ts turns this one
// character class into GBNF; llama-server's converter knows `pattern`), so a constrained model never
// writes such an id and never spends a round on it.
const ToolIdSchema = z.string().min(1).max(TOOL_ID_MAX_LENGTH);
const GrammarToolIdSchema = ToolIdSchema.regex(TOOL_ID_PATTERN);

/** Size limits the plan schema (and so the grammar) puts on a plan; each a whole number ≥ 0. */
export interface PlanJsonSchemaOptions {
  /** Most steps in a plan. Default: no limit. */
  maxSteps?: number;
  /** Most tool calls in one step. Default: no limit. */
  maxToolsPerStep?: number;
  /** Longest step description, in characters. Default: no limit. */
  maxDescriptionLength?: number;
  /** Longest `final` answer, in characters. Default: no limit. */
  maxFinalLength?: number;
}

/** The one definition of the plan's structure; `toolCall` is generic or specialised per catalog. */
function planShape<T extends z.ZodType>(toolCall: T, options: PlanJsonSchemaOptions = {}) {
  let description = z.string();
  if (options.maxDescriptionLength !== undefined) description = description.max(options.maxDescriptionLength);
  let tools = z.array(toolCall);
  if (options.maxToolsPerStep !== undefined) tools = tools.max(options.maxToolsPerStep);
  const step = z.object({ description: description.default(""), tools: tools.default([]) });
  let steps = z.array(step);
  if (options.maxSteps !== undefined) steps = steps.max(options.maxSteps);
  let finalText = z.string();
  if (options.maxFinalLength !== undefined) finalText = finalText.max(options.maxFinalLength);
  return z.object({ steps: steps.default([]), final: finalText.nullable().default(null) });
}

/** One tool call of a step: `id` names its result for later `$ref`s. */
export interface PlanToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One step: its tool calls run in parallel. */
export interface PlanStep {
  description: string;
  tools: PlanToolCall[];
}

/** The model's plan: steps still to run, or `final` with the answer (then `steps` is empty). */
export interface Plan {
  steps: PlanStep[];
  final: string | null;
}

/** A reference to an earlier result, e.g. `{"$ref": "geo_rom.lat"}`. */
export interface RefObject {
  $ref: string;
}

const PlanToolCallSchema = z.object({
  id: ToolIdSchema,
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
}) satisfies z.ZodType<PlanToolCall>;

const PlanSchema = planShape(PlanToolCallSchema) satisfies z.ZodType<Plan>;

// ---------------------------------------------------------------------------------------------
// Parsing

export type PlanParseErrorKind = JsonExtractFailureKind | "not_a_plan" | "too_deep" | "schema";

/** Model output that is no plan (no JSON, not a plan object, nested too deep, against the schema); `kind` says which. */
export class PlanParseError extends KitError {
  override name = "PlanParseError";
  constructor(
    readonly kind: PlanParseErrorKind,
    message: string,
    /** The model output that failed (possibly shortened). */
    readonly input: string,
    /** One line per schema problem, e.g. `steps[0].tools[1].id: …`. */
    readonly issues: string[] = [],
  ) {
    super(message);
  }
}

/** `ok` tells which fields are set (the other variant's fields are `undefined`, for non-strict notebook code). */
export type ParsePlanResult =
  | { ok: true; plan: Plan; json: string; error?: undefined }
  | { ok: false; error: PlanParseError; plan?: undefined; json?: undefined };

function isPlanLike(value: unknown): boolean {
  return isPlainObject(value) && (hasOwn(value, "steps") || hasOwn(value, "final"));
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out === "" ? String(p) : `.${String(p)}`;
  return out === "" ? "(Plan)" : out;
}

const germanErrors = z.locales.de().localeError;

function shortInput(text: string): string {
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** `value` as text (JSON where possible); never throws (objects without toString, cycles, BigInt). */
function safeText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
}

/** German message for a value nested deeper than MAX_PLAN_DEPTH (`subject`: "Der Plan ist", "Die Argumente sind"). */
export function tooDeepMessage(subject: string): string {
  return (
    `${subject} zu tief verschachtelt (mehr als ${MAX_PLAN_DEPTH} Ebenen aus Objekten und Listen). ` +
    `Schreibe Argumente flach, z. B. {"destination": "Rom"}, und verweise mit $ref auf frühere Ergebnisse.`
  );
}

/** Checks an already parsed JSON value against the plan schema (used after grammar generation too). */
export function parsePlanValue(value: unknown, sourceText?: string): ParsePlanResult {
  const json = sourceText ?? safeText(value);
  if (!isPlanLike(value)) {
    return {
      ok: false,
      error: new PlanParseError(
        "not_a_plan",
        'Das JSON ist kein Plan: erwartet ein Objekt mit "steps" und "final".',
        shortInput(json),
      ),
    };
  }
  if (jsonDepth(value, MAX_PLAN_DEPTH) > MAX_PLAN_DEPTH) {
    return { ok: false, error: new PlanParseError("too_deep", tooDeepMessage("Der Plan ist"), shortInput(json)) };
  }
  const parsed = PlanSchema.safeParse(value, { error: germanErrors });
  if (parsed.success) return { ok: true, plan: parsed.data, json };
  const issues = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  return {
    ok: false,
    error: new PlanParseError(
      "schema",
      `Der Plan hat nicht die erwartete Form: ${issues.slice(0, 6).join("; ")}`,
      shortInput(json),
      issues,
    ),
  };
}

/**
 * Tolerant plan parser for model output: plain JSON, ```json fences, leading junk such as
 * "assistant\n\n", prose around the object, comments and trailing commas.
 * Never throws; returns the plan or a PlanParseError with the reason.
 */
export function parsePlan(text: unknown): ParsePlanResult {
  const extracted = extractJsonObject(text, { accept: isPlanLike });
  const input = shortInput(typeof text === "string" ? text : safeText(text));
  if (!extracted.ok) {
    const kind: PlanParseErrorKind = extracted.kind === "rejected" ? "not_a_plan" : extracted.kind;
    const reason =
      extracted.kind === "rejected"
        ? `${extracted.reason} – erwartet ein Objekt mit "steps" und "final".`
        : extracted.kind === "not_text" && typeof text === "object" && text !== null
          ? `${extracted.reason} parsePlan liest Text; für einen schon geparsten Wert gibt es parsePlanValue(wert).`
          : extracted.reason;
    return { ok: false, error: new PlanParseError(kind, reason, input) };
  }
  return parsePlanValue(extracted.value, extracted.text);
}

// ---------------------------------------------------------------------------------------------
// JSON schema for grammar-constrained generation

/**
 * JSON schema for plans over `tools`: tool names as constants (one alternative per tool via
 * `oneOf`), each argument its declared type or a `{"$ref": string}` object, optional arguments
 * also `null` (= not given; removed before the call), `final` a string or null.
 * Stays inside node-llama-cpp's GbnfJsonSchema subset (lib/schema/grammar.ts converts it).
 */
export function buildPlanJsonSchema(tools: readonly ToolInfo[], options: PlanJsonSchemaOptions = {}): JsonSchema {
  const registry = z.registry<Record<string, unknown>>();
  const variants = tools.map((tool) => {
    const args: Record<string, z.ZodType> = {};
    for (const [name, declared] of Object.entries(grammarArguments(tool.inputSchema, registry))) {
      args[name] = z.union([declared, RefObjectSchema]);
    }
    return z.object({ id: GrammarToolIdSchema, name: z.literal(tool.name), arguments: z.object(args).strict() });
  });
  let shape;
  if (variants.length === 0) shape = planShape(z.object({}).strict(), { ...options, maxSteps: 0 });
  else if (variants.length === 1) shape = planShape(variants[0] as z.ZodType, options);
  else
    shape = planShape(
      z.discriminatedUnion("name", variants as [(typeof variants)[number], ...(typeof variants)[number][]]),
      options,
    );
  const schema = toGrammarDialect(z.toJSONSchema(shape, { metadata: registry, unrepresentable: "any" })) as JsonSchema;
  return flattenOptionalUnions(schema) as JsonSchema;
}

/** Schema for the last round: no more steps, `final` must be a text. */
export function buildFinalAnswerJsonSchema(options: { maxFinalLength?: number } = {}): JsonSchema {
  const schema = z.object({
    steps: z.array(z.object({})).max(0),
    final: options.maxFinalLength !== undefined ? z.string().min(1).max(options.maxFinalLength) : z.string().min(1),
  });
  return toGrammarDialect(z.toJSONSchema(schema)) as JsonSchema;
}

/** `oneOf: [{oneOf: [a, null]}, ref]` → `oneOf: [a, null, ref]` (flatter grammar, same language). */
function flattenOptionalUnions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(flattenOptionalUnions);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "oneOf" && Array.isArray(value)) {
      out.oneOf = value.flatMap((alt) => {
        const flat = flattenOptionalUnions(alt) as Record<string, unknown>;
        return flat && Array.isArray(flat.oneOf) && Object.keys(flat).every((k) => k === "oneOf" || k === "description")
          ? flat.oneOf
          : [flat];
      });
    } else out[key] = flattenOptionalUnions(value);
  }
  return out;
}
