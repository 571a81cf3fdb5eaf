import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parsePlanValue, type Plan } from "../../lib/agent/plan.js";
import { blockedCalls, callDependencies, iterationScope, nextOpenStep, openCalls, readyCalls, type ScheduleState } from "../../lib/agent/schedule.js";

function plan(value: unknown): Plan {
  const r = parsePlanValue(value);
  assert.ok(r.ok);
  return r.plan;
}

// Two chains and an independent call:  a1 → b1,  a2 → b2,  c;  d needs b1 and b2.
const chains = plan({
  steps: [
    { description: "A", tools: [{ id: "a1", name: "t", arguments: {} }, { id: "a2", name: "t", arguments: {} }, { id: "c", name: "t", arguments: { q: "$ref:user.raw" } }] },
    { description: "B", tools: [{ id: "b1", name: "t", arguments: { x: { $ref: "a1.v" } } }, { id: "b2", name: "t", arguments: { x: [{ $ref: "a2.v" }, "$ref:a2.w"] } }] },
    { description: "D", tools: [{ id: "d", name: "t", arguments: { y: { $ref: "b1" }, z: { $ref: "b2.v" } } }] },
  ],
  final: null,
});

const ids = (calls: { call: { id: string } }[]) => calls.map((c) => c.call.id);
const state = (succeeded: string[] = [], failed: string[] = [], running: string[] = []): ScheduleState => ({
  succeeded: new Set(succeeded),
  failed: new Set(failed),
  running: new Set(running),
});

describe("schedule", () => {
  test("dependencies are the referenced tool ids, without user and duplicates", () => {
    assert.deepEqual(callDependencies(chains.steps[1]!.tools[1]!), ["a2"]);
    assert.deepEqual(callDependencies(chains.steps[0]!.tools[2]!), []);
    assert.deepEqual(callDependencies(chains.steps[2]!.tools[0]!), ["b1", "b2"]);
  });

  test("open calls and the next open step follow the ids that ran", () => {
    const ran = new Set(["a1", "a2", "c"]);
    assert.deepEqual(ids(openCalls(chains, (id) => ran.has(id))), ["b1", "b2", "d"]);
    assert.equal(nextOpenStep(chains, (id) => ran.has(id)), 1);
    assert.equal(nextOpenStep(chains, () => true), undefined);
  });

  test("a step without tools is never open; a repeated id counts once", () => {
    const p = plan({ steps: [{ description: "nur Text", tools: [] }, { tools: [{ id: "x", name: "t" }, { id: "x", name: "t" }] }], final: null });
    assert.equal(nextOpenStep(p, () => false), 1);
    assert.deepEqual(ids(openCalls(p, () => false)), ["x"]);
  });

  test("iteration scope: next open step for step modes, every open call for dependency mode", () => {
    const none = () => false;
    assert.deepEqual(ids(iterationScope(chains, none, "sequential")), ["a1", "a2", "c"]);
    assert.deepEqual(ids(iterationScope(chains, none, "step-parallel")), ["a1", "a2", "c"]);
    assert.deepEqual(ids(iterationScope(chains, none, "dependency")), ["a1", "a2", "c", "b1", "b2", "d"]);
  });

  test("sequential: one at a time, in plan order", () => {
    const scope = iterationScope(chains, () => false, "sequential");
    assert.deepEqual(ids(readyCalls(scope, state(), "sequential")), ["a1"]);
    assert.deepEqual(ids(readyCalls(scope, state([], [], ["a1"]), "sequential")), []);
    assert.deepEqual(ids(readyCalls(scope, state(["a1"]), "sequential")), ["a2"]);
  });

  test("step-parallel: the whole step at once", () => {
    const scope = iterationScope(chains, () => false, "step-parallel");
    assert.deepEqual(ids(readyCalls(scope, state(), "step-parallel")), ["a1", "a2", "c"]);
    assert.deepEqual(ids(readyCalls(scope, state([], [], ["a1", "a2", "c"]), "step-parallel")), []);
  });

  test("dependency: a call becomes ready as soon as its own inputs exist", () => {
    const scope = iterationScope(chains, () => false, "dependency");
    assert.deepEqual(ids(readyCalls(scope, state(), "dependency")), ["a1", "a2", "c"]);
    // a1 finished, a2 still running: b1 may start, b2 and d wait.
    assert.deepEqual(ids(readyCalls(scope, state(["a1"], [], ["a2", "c"]), "dependency")), ["b1"]);
    assert.deepEqual(ids(readyCalls(scope, state(["a1", "a2", "c", "b1"], [], ["b2"]), "dependency")), []);
    assert.deepEqual(ids(readyCalls(scope, state(["a1", "a2", "c", "b1", "b2"]), "dependency")), ["d"]);
  });

  test("a failed dependency blocks its dependents transitively", () => {
    const scope = iterationScope(chains, () => false, "dependency");
    const s = state(["a1", "c", "b1"], ["a2"]);
    assert.deepEqual(ids(readyCalls(scope, s, "dependency")), []);
    assert.deepEqual(ids(blockedCalls(scope, s)), ["b2", "d"]);
    assert.deepEqual(ids(blockedCalls(scope, state())), []);
  });

  test("a dependency outside the scope that never ran blocks too", () => {
    const scope = iterationScope(chains, (id) => id === "a1" || id === "a2" || id === "c", "step-parallel");
    assert.deepEqual(ids(blockedCalls(scope, state(["a1"]))), ["b2"]);
  });
});
