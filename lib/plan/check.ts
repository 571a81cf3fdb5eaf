// Checks a parsed plan before anything runs. Every problem is a value with a German message the model
// can act on; the loop sends them back for a replan instead of failing.
import type { ToolInfo } from "../mcp/types.js";
import { checkArguments, type ArgumentIssue } from "./arguments.js";
import { dropNullOptionals } from "../schema/grammar.js";
import { hasOwn, isPlainObject } from "../util.js";
import { compactJson, jsonDepth, sameJson } from "./json.js";
import {
  MAX_PLAN_DEPTH,
  TOOL_ID_MAX_LENGTH,
  TOOL_ID_PATTERN,
  tooDeepMessage,
  type Plan,
  type PlanToolCall,
} from "./plan.js";
import {
  collectRefs,
  FORBIDDEN_SEGMENTS,
  RefError,
  refTarget,
  resolveRef,
  USER_ROOT,
  walkPath,
  asToolResults,
  type ToolResults,
  type UserContext,
} from "./refs.js";

export type PlanProblemKind =
  | "unknown_tool"
  | "blocked_tool"
  | "invalid_id"
  | "duplicate_id"
  | "executed_id_changed"
  | "malformed_ref"
  | "forbidden_path"
  | "ref_unknown_id"
  | "ref_not_earlier"
  | "ref_to_failed_tool"
  | "ref_unresolvable"
  | "invalid_arguments"
  | "too_deep";

export interface PlanProblem {
  kind: PlanProblemKind;
  /** German, addressed to the model: what is wrong and what to do instead. */
  message: string;
  stepIndex?: number;
  toolId?: string;
  toolName?: string;
  ref?: string;
  /** Argument location, e.g. "lat" or "points.0". */
  argument?: string;
  /** Single findings (e.g. one line per schema violation). */
  details?: string[];
}

/** A tool call that already ran in this conversation (success or error). */
export interface ExecutedTool {
  id: string;
  name: string;
  /** The arguments as planned (before `$ref` resolution). */
  arguments: Record<string, unknown>;
  ok: boolean;
}

export interface ValidationContext {
  executed?: ReadonlyMap<string, ExecutedTool>;
  /** Results of successfully executed tools (checks paths of references to them). */
  toolResults?: ToolResults | ReadonlyMap<string, unknown>;
  /** The user context for `user.*` references (checked when given). */
  userCtx?: UserContext;
  /** Tool names that must not be used. */
  blocked?: readonly string[];
}

function step(n: number): string {
  return `Schritt ${n + 1}`;
}

function toPointer(location: readonly string[]): string {
  return location.map((p) => `/${p.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Replaces references that can be resolved now; pending ones (results not there yet) stay and are reported. */
function resolveAvailable(
  value: unknown,
  canResolve: (root: string) => boolean,
  toolResults: ToolResults,
  userCtx: UserContext,
  location: string[],
  pending: string[][],
): unknown {
  const target = refTarget(value);
  if (target !== undefined) {
    const root = target.split(/[.[]/)[0] ?? "";
    if (!canResolve(root)) {
      pending.push(location);
      return value;
    }
    return resolveRef(target, toolResults, userCtx);
  }
  if (Array.isArray(value))
    return value.map((v, i) =>
      resolveAvailable(v, canResolve, toolResults, userCtx, [...location, String(i)], pending),
    );
  if (typeof value === "object" && value !== null) {
    const obj = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(obj).map((k) => [
        k,
        resolveAvailable(obj[k], canResolve, toolResults, userCtx, [...location, k], pending),
      ]),
    );
  }
  return value;
}

function closestNames(name: string, names: readonly string[]): string[] {
  const lower = name.toLowerCase();
  return names.filter((n) => n.toLowerCase().includes(lower) || lower.includes(n.toLowerCase()));
}

/** What checkPlan found: the problems, and the arguments it could already resolve and check in full. */
export interface PlanCheck {
  problems: PlanProblem[];
  /**
   * By tool id: resolved, cleaned arguments that passed the schema check, for every call whose
   * references all have results now. The executor sends these as they are; only calls that wait for a
   * result of this plan are resolved and checked there (so each call is resolved and checked once).
   */
  prepared: Map<string, Record<string, unknown>>;
}

/**
 * Problems of `plan` against the tool catalog and what already happened (`context`), plus the arguments
 * of the calls it could check in full (see PlanCheck). No problems means the plan may run. Pure; never
 * throws on any parsed plan.
 */
export function checkPlan(plan: Plan, tools: readonly ToolInfo[], context: ValidationContext = {}): PlanCheck {
  const problems: PlanProblem[] = [];
  const prepared = new Map<string, Record<string, unknown>>();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const executed = context.executed ?? new Map<string, ExecutedTool>();
  const toolResults = asToolResults(context.toolResults ?? {});
  const blocked = new Set(context.blocked ?? []);
  const toolNames = tools.map((t) => t.name);

  // Pass 1: ids (and nesting depth: the checks below walk arguments recursively).
  const firstStepOf = new Map<string, number>();
  const duplicateReported = new Set<string>();
  const tooDeep = new Set<PlanToolCall>();
  plan.steps.forEach((s, stepIndex) => {
    for (const call of s.tools) {
      const base = { stepIndex, toolId: call.id, toolName: call.name };
      // Arguments sit 4 levels below the plan object (plan → steps → step → tools → call).
      if (jsonDepth(call.arguments, MAX_PLAN_DEPTH - 4) > MAX_PLAN_DEPTH - 4) {
        tooDeep.add(call);
        problems.push({
          kind: "too_deep",
          ...base,
          message: `${step(stepIndex)}, id "${call.id}": ${tooDeepMessage("Die Argumente sind")}`,
        });
      }
      if (FORBIDDEN_SEGMENTS.includes(call.id)) {
        // Matches the pattern, but a reference to it could never resolve (refs.ts forbids the segment).
        problems.push({
          kind: "invalid_id",
          ...base,
          message: `${step(stepIndex)}: die id "${call.id}" ist reserviert; auf sie könnte kein $ref verweisen. Nimm eine sprechende id wie "geo_berlin".`,
        });
      } else if (!TOOL_ID_PATTERN.test(call.id) || call.id.length > TOOL_ID_MAX_LENGTH || call.id === USER_ROOT) {
        problems.push({
          kind: "invalid_id",
          ...base,
          message: `${step(stepIndex)}: die id "${call.id}" ist ungültig. Erlaubt sind Buchstaben, Ziffern, "_" und "-" (kein Punkt, nicht "${USER_ROOT}"), z. B. "geo_berlin".`,
        });
      }
      const first = firstStepOf.get(call.id);
      if (first === undefined) firstStepOf.set(call.id, stepIndex);
      else if (!duplicateReported.has(call.id)) {
        duplicateReported.add(call.id);
        problems.push({
          kind: "duplicate_id",
          ...base,
          message: `Die id "${call.id}" kommt mehrfach vor (${step(first)} und ${step(stepIndex)}). Jeder Tool-Aufruf braucht eine eigene id.`,
        });
      }
      const done = executed.get(call.id);
      if (done && !tooDeep.has(call) && (done.name !== call.name || !sameJson(done.arguments, call.arguments))) {
        problems.push({
          kind: "executed_id_changed",
          ...base,
          message:
            `Die id "${call.id}" gehört zu einem bereits ausgeführten Aufruf (${done.name} mit ${compactJson(done.arguments, 300)}). ` +
            `Ausgeführte Aufrufe bleiben unverändert oder fallen aus dem Plan weg; für einen neuen Aufruf nimm eine neue id.`,
        });
      }
    }
  });

  // Pass 2: tools, references, arguments.
  plan.steps.forEach((s, stepIndex) => {
    for (const call of s.tools) {
      if (tooDeep.has(call)) continue; // reported in pass 1
      const base = { stepIndex, toolId: call.id, toolName: call.name };
      const done = executed.get(call.id);
      if (done && done.name === call.name && sameJson(done.arguments, call.arguments)) continue; // already ran, nothing to check

      const tool = byName.get(call.name);
      if (!tool) {
        const close = closestNames(call.name, toolNames);
        problems.push({
          kind: "unknown_tool",
          ...base,
          message:
            `${step(stepIndex)}, id "${call.id}": ein Tool "${call.name}" gibt es nicht.` +
            (close.length > 0 ? ` Meintest du ${close.map((n) => `"${n}"`).join(" oder ")}?` : "") +
            ` Verfügbar: ${toolNames.join(", ") || "(keine)"}.`,
        });
      } else if (blocked.has(call.name)) {
        problems.push({
          kind: "blocked_tool",
          ...base,
          message: `${step(stepIndex)}, id "${call.id}": das Tool "${call.name}" ist gesperrt und darf nicht verwendet werden. Plane ohne dieses Tool.`,
        });
      }

      const refProblems = checkRefs(call, stepIndex, firstStepOf, executed, toolResults, context.userCtx);
      problems.push(...refProblems);
      if (tool && !blocked.has(call.name) && refProblems.length === 0) {
        const { issues, args } = prepareArguments(call, tool, executed, toolResults, context.userCtx);
        if (args !== undefined) prepared.set(call.id, args);
        if (issues.length > 0) {
          problems.push({
            kind: "invalid_arguments",
            ...base,
            details: issues.map((i) => i.message),
            message: `${step(stepIndex)}, id "${call.id}" (${call.name}): die Argumente passen nicht zum Eingabe-Schema: ${issues.map((i) => i.message).join(" ")}`,
          });
        }
      }
    }
  });
  return { problems, prepared };
}

function checkRefs(
  call: PlanToolCall,
  stepIndex: number,
  firstStepOf: ReadonlyMap<string, number>,
  executed: ReadonlyMap<string, ExecutedTool>,
  toolResults: ToolResults,
  userCtx: UserContext | undefined,
): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const base = { stepIndex, toolId: call.id, toolName: call.name };
  for (const occ of collectRefs(call.arguments)) {
    const argument = occ.location.join(".");
    const where = `${step(stepIndex)}, id "${call.id}", Argument "${argument}"`;
    if (occ.error) {
      const kind = occ.error.kind === "forbidden_segment" ? "forbidden_path" : "malformed_ref";
      problems.push({ kind, ...base, argument, ref: occ.ref, message: `${where}: ${occ.error.message}` });
      continue;
    }
    const parsed = occ.parsed;
    if (!parsed) continue;
    const { root } = parsed;
    if (root === USER_ROOT) {
      const problem = userCtx ? refErrorOf(() => walkPath(userCtx, parsed)) : undefined;
      if (userCtx && problem !== undefined) {
        const available = Object.keys(userCtx).map((k) => `user.${k}`);
        problems.push({
          kind: "ref_unresolvable",
          ...base,
          argument,
          ref: parsed.ref,
          message: `${where}: ${problem} Verfügbar sind: ${available.join(", ") || "(nichts)"}.`,
        });
      }
      continue;
    }
    const done = executed.get(root);
    if (done) {
      if (!done.ok) {
        problems.push({
          kind: "ref_to_failed_tool",
          ...base,
          argument,
          ref: parsed.ref,
          message: `${where}: "${root}" ist fehlgeschlagen und hat kein Ergebnis. Plane einen neuen Aufruf mit neuer id und verweise auf diesen.`,
        });
        continue;
      }
      const problem = hasOwn(toolResults, root) ? refErrorOf(() => resolveRef(parsed.ref, toolResults, {})) : undefined;
      if (problem !== undefined) {
        problems.push({
          kind: "ref_unresolvable",
          ...base,
          argument,
          ref: parsed.ref,
          message: `${where}: ${problem}`,
        });
      }
      continue;
    }
    const target = firstStepOf.get(root);
    if (target === undefined) {
      problems.push({
        kind: "ref_unknown_id",
        ...base,
        argument,
        ref: parsed.ref,
        message: `${where}: die Referenz "${parsed.ref}" nennt die id "${root}", die weder im Plan steht noch ausgeführt wurde. Wurzel einer Referenz ist eine Tool-id aus einem früheren Schritt oder "user".`,
      });
    } else if (target >= stepIndex) {
      problems.push({
        kind: "ref_not_earlier",
        ...base,
        argument,
        ref: parsed.ref,
        message:
          target === stepIndex
            ? `${where}: "${root}" steht im selben Schritt; Tools eines Schritts laufen gleichzeitig. Verschiebe "${call.id}" in einen späteren Schritt als "${root}".`
            : `${where}: "${root}" läuft erst in ${step(target)}. Ein Tool kann nur Ergebnisse früherer Schritte verwenden – ordne die Schritte um.`,
      });
    }
  }
  return problems;
}

/** The message of the RefError `resolve` throws, or undefined when it resolves; any other error is thrown on. */
function refErrorOf(resolve: () => unknown): string | undefined {
  try {
    resolve();
    return undefined;
  } catch (error) {
    if (!(error instanceof RefError)) throw error;
    return error.message;
  }
}

function prepareArguments(
  call: PlanToolCall,
  tool: ToolInfo,
  executed: ReadonlyMap<string, ExecutedTool>,
  toolResults: ToolResults,
  userCtx: UserContext | undefined,
): { issues: ArgumentIssue[]; args?: Record<string, unknown> } {
  const pending: string[][] = [];
  const hasResult = (root: string) =>
    root === USER_ROOT ? userCtx !== undefined : executed.get(root)?.ok === true && hasOwn(toolResults, root);
  let resolved: unknown;
  try {
    resolved = resolveAvailable(call.arguments, hasResult, toolResults, userCtx ?? {}, [], pending);
  } catch (error) {
    if (error instanceof RefError) return { issues: [] }; // already reported by checkRefs (or user ctx not checked)
    throw error;
  }
  const args = cleanArguments(resolved, tool);
  const check = checkArguments(tool, args, pending.map(toPointer));
  if (!check.ok) return { issues: check.issues };
  return pending.length === 0 ? { issues: [], args } : { issues: [] };
}

/** Resolved arguments without the nulls the grammar writes for omitted optionals, as an object. */
export function cleanArguments(resolved: unknown, tool: ToolInfo | undefined): Record<string, unknown> {
  const cleaned = tool ? dropNullOptionals(resolved, tool.inputSchema) : resolved;
  return isPlainObject(cleaned) ? cleaned : {};
}
