// Which planned tool calls may run now. Pure.
//
// Step order: the next open step is the lowest step that still has a
// call whose id has not run yet; its calls are independent of each other. Three execution modes:
// - "sequential":    one iteration runs the next open step, its calls one after another in plan order;
// - "step-parallel": one iteration runs the next open step, its calls concurrently;
// - "dependency":    one iteration runs every open call of the plan; a call starts as soon as the
//                    results it references exist, so a chain A→B does not wait for unrelated C.
//
// Dependency mode keeps the model's step order wherever a call changes something (a call that is not
// read-only, see approval.ts): such a call starts only after every earlier-step call of the scope has
// *succeeded* (if one failed or could not run, it is held back and the model sees that outcome before
// deciding again, as it would between steps), and no call of a later step overtakes it: later calls
// start only after it has finished (successfully or not). Read-only calls without such a barrier
// between them follow their data dependencies only. Which calls are read-only is passed in
// (ScopeOptions.isReadOnly); without it every call counts as changing something (the safe default).
import type { Plan, PlanToolCall } from "./plan.js";
import { collectRefs, USER_ROOT } from "./refs.js";

export type ScheduleMode = "dependency" | "step-parallel" | "sequential";
/** Every ScheduleMode, in the order the notebooks compare them. */
export const SCHEDULE_MODES: readonly ScheduleMode[] = ["dependency", "step-parallel", "sequential"];

export interface ScheduledCall {
  call: PlanToolCall;
  stepIndex: number;
  /** Tool ids whose results this call references (no duplicates, no "user"). */
  deps: string[];
  /** Whether the call only reads (decides how `after` is waited for). */
  readOnly: boolean;
  /**
   * Open calls of earlier steps this call waits for because of step order, not data: for a call that
   * changes something every earlier open call (each must succeed), for a read-only call the earlier
   * open calls that change something (each must finish, successfully or not).
   */
  after: string[];
}

export interface ScopeOptions {
  /** Whether a call only reads (default: no call does, so the model's step order is kept throughout). */
  isReadOnly?: (call: PlanToolCall) => boolean;
}

export interface ScheduleState {
  succeeded: ReadonlySet<string>;
  failed: ReadonlySet<string>;
  running: ReadonlySet<string>;
}

/** Tool ids referenced by a call's arguments (parsable references only). */
export function callDependencies(call: PlanToolCall): string[] {
  const roots = collectRefs(call.arguments)
    .map((occ) => occ.parsed?.root)
    .filter((root): root is string => root !== undefined && root !== USER_ROOT);
  return [...new Set(roots)];
}

/** Calls whose id has not run yet, in plan order; a repeated id counts once (its first occurrence). */
export function pendingCalls(plan: Plan, hasRun: (id: string) => boolean, options: ScopeOptions = {}): ScheduledCall[] {
  const isReadOnly = options.isReadOnly ?? (() => false);
  const seen = new Set<string>();
  const out: ScheduledCall[] = [];
  plan.steps.forEach((step, stepIndex) => {
    const earlier = out.filter((c) => c.stepIndex < stepIndex);
    for (const call of step.tools) {
      if (seen.has(call.id) || hasRun(call.id)) continue;
      seen.add(call.id);
      const readOnly = isReadOnly(call);
      const after = (readOnly ? earlier.filter((c) => !c.readOnly) : earlier).map((c) => c.call.id);
      out.push({ call, stepIndex, deps: callDependencies(call), readOnly, after });
    }
  });
  return out;
}

/** Index of the lowest step that still has an open call, or undefined when every step is done. */
export function nextPendingStep(plan: Plan, hasRun: (id: string) => boolean): number | undefined {
  return pendingCalls(plan, hasRun)[0]?.stepIndex;
}

/** The calls one loop iteration covers in `mode`. */
export function iterationScope(
  plan: Plan,
  hasRun: (id: string) => boolean,
  mode: ScheduleMode,
  options: ScopeOptions = {},
): ScheduledCall[] {
  const open = pendingCalls(plan, hasRun, options);
  if (mode === "dependency") return open;
  const first = open[0]?.stepIndex;
  return first === undefined ? [] : open.filter((c) => c.stepIndex === first);
}

function depsMet(c: ScheduledCall, state: ScheduleState): boolean {
  return c.deps.every((d) => state.succeeded.has(d));
}

/** Step order (see the file comment): what `after` asks for has happened. */
function orderMet(c: ScheduledCall, state: ScheduleState): boolean {
  return c.readOnly
    ? c.after.every((id) => state.succeeded.has(id) || state.failed.has(id))
    : c.after.every((id) => state.succeeded.has(id));
}

/** Calls from `scope` that may start now, given what has finished and what is running. */
export function readyCalls(scope: readonly ScheduledCall[], state: ScheduleState, mode: ScheduleMode): ScheduledCall[] {
  const waiting = scope.filter(
    (c) => !state.succeeded.has(c.call.id) && !state.failed.has(c.call.id) && !state.running.has(c.call.id),
  );
  const canStart = (c: ScheduledCall) => depsMet(c, state) && orderMet(c, state);
  if (mode === "sequential") {
    if (state.running.size > 0) return [];
    const next = waiting.find(canStart);
    return next ? [next] : [];
  }
  return waiting.filter(canStart);
}

/** Why a call cannot start: one entry per id it waits for in vain. */
export interface Blocker {
  id: string;
  /** "data": the call references the id's result; "order": it waits for the id because of step order. */
  via: "data" | "order";
  /** "failed": the id ran and failed; "blocked": it cannot start itself; "not_run": it is neither in the scope nor finished. */
  reason: "failed" | "blocked" | "not_run";
}

export interface BlockedCall extends ScheduledCall {
  blockers: Blocker[];
}

/**
 * Calls from `scope` that can never start in this scope: a referenced call failed, cannot start
 * itself (transitively) or is neither in the scope nor finished; or step order holds it back (a call
 * that changes something after an earlier call that failed or cannot start; any call after an earlier
 * call that changes something and cannot start). Each comes with the reasons.
 */
export function blockedCalls(scope: readonly ScheduledCall[], state: ScheduleState): BlockedCall[] {
  const inScope = new Map(scope.map((c) => [c.call.id, c]));
  const memo = new Map<string, Blocker[]>();
  const blockersOf = (c: ScheduledCall, path: Set<string>): Blocker[] => {
    const known = memo.get(c.call.id);
    if (known !== undefined) return known;
    if (path.has(c.call.id)) return [{ id: c.call.id, via: "data", reason: "blocked" }]; // a cycle never resolves
    path.add(c.call.id);
    const found: Blocker[] = [];
    const check = (id: string, via: Blocker["via"], failedBlocks: boolean) => {
      if (state.succeeded.has(id)) return;
      if (state.failed.has(id)) {
        if (failedBlocks) found.push({ id, via, reason: "failed" });
        return;
      }
      const other = inScope.get(id);
      if (other === undefined) found.push({ id, via, reason: "not_run" });
      else if (blockersOf(other, path).length > 0) found.push({ id, via, reason: "blocked" });
    };
    for (const d of c.deps) check(d, "data", true);
    for (const id of c.after) if (!c.deps.includes(id)) check(id, "order", !c.readOnly);
    path.delete(c.call.id);
    memo.set(c.call.id, found);
    return found;
  };
  const out: BlockedCall[] = [];
  for (const c of scope) {
    if (state.succeeded.has(c.call.id) || state.failed.has(c.call.id) || state.running.has(c.call.id)) continue;
    const blockers = blockersOf(c, new Set());
    if (blockers.length > 0) out.push({ ...c, blockers });
  }
  return out;
}
