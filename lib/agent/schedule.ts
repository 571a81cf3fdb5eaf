// Which planned tool calls may run now. Pure.
//
// Step order (as in the original workshop): the next open step is the lowest step that still has a
// call whose id has not run yet; its calls are independent of each other. Three execution modes:
// - "sequential":    one iteration runs the next open step, its calls one after another (the original);
// - "step-parallel": one iteration runs the next open step, its calls concurrently;
// - "dependency":    one iteration runs every open call of the plan; a call starts as soon as the
//                    results it references exist, so a chain A→B does not wait for unrelated C.
import type { Plan, PlanToolCall } from "./plan.js";
import { collectRefs, USER_ROOT } from "./refs.js";

export type ScheduleMode = "dependency" | "step-parallel" | "sequential";
export const SCHEDULE_MODES: readonly ScheduleMode[] = ["dependency", "step-parallel", "sequential"];

export interface ScheduledCall {
  call: PlanToolCall;
  stepIndex: number;
  /** Tool ids whose results this call references (no duplicates, no "user"). */
  deps: string[];
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
export function openCalls(plan: Plan, hasRun: (id: string) => boolean): ScheduledCall[] {
  const seen = new Set<string>();
  const out: ScheduledCall[] = [];
  plan.steps.forEach((step, stepIndex) => {
    for (const call of step.tools) {
      if (seen.has(call.id) || hasRun(call.id)) continue;
      seen.add(call.id);
      out.push({ call, stepIndex, deps: callDependencies(call) });
    }
  });
  return out;
}

/** Index of the lowest step that still has an open call, or undefined when every step is done. */
export function nextOpenStep(plan: Plan, hasRun: (id: string) => boolean): number | undefined {
  return openCalls(plan, hasRun)[0]?.stepIndex;
}

/** The calls one loop iteration covers in `mode`. */
export function iterationScope(plan: Plan, hasRun: (id: string) => boolean, mode: ScheduleMode): ScheduledCall[] {
  const open = openCalls(plan, hasRun);
  if (mode === "dependency") return open;
  const first = open[0]?.stepIndex;
  return first === undefined ? [] : open.filter((c) => c.stepIndex === first);
}

function depsMet(c: ScheduledCall, state: ScheduleState): boolean {
  return c.deps.every((d) => state.succeeded.has(d));
}

/** Calls from `scope` that may start now, given what has finished and what is running. */
export function readyCalls(scope: readonly ScheduledCall[], state: ScheduleState, mode: ScheduleMode): ScheduledCall[] {
  const waiting = scope.filter(
    (c) => !state.succeeded.has(c.call.id) && !state.failed.has(c.call.id) && !state.running.has(c.call.id),
  );
  if (mode === "sequential") {
    if (state.running.size > 0) return [];
    const next = waiting.find((c) => depsMet(c, state));
    return next ? [next] : [];
  }
  return waiting.filter((c) => depsMet(c, state));
}

/**
 * Calls from `scope` that can never start: a dependency failed, or depends (transitively) on such a
 * call, or on an id that is neither in the scope nor finished.
 */
export function blockedCalls(scope: readonly ScheduledCall[], state: ScheduleState): ScheduledCall[] {
  const inScope = new Map(scope.map((c) => [c.call.id, c]));
  const memo = new Map<string, boolean>();
  const blocked = (c: ScheduledCall, path: Set<string>): boolean => {
    const known = memo.get(c.call.id);
    if (known !== undefined) return known;
    if (path.has(c.call.id)) return true; // a cycle never resolves
    path.add(c.call.id);
    const result = c.deps.some((d) => {
      if (state.succeeded.has(d)) return false;
      if (state.failed.has(d)) return true;
      const dep = inScope.get(d);
      return dep === undefined || blocked(dep, path);
    });
    path.delete(c.call.id);
    memo.set(c.call.id, result);
    return result;
  };
  return scope.filter(
    (c) => !state.succeeded.has(c.call.id) && !state.failed.has(c.call.id) && !state.running.has(c.call.id) && blocked(c, new Set()),
  );
}
