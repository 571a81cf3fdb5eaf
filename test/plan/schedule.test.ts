import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parsePlanValue, type Plan } from "../../lib/plan/plan.js";
import {
  blockedCalls,
  callDependencies,
  iterationScope,
  nextPendingStep,
  pendingCalls,
  readyCalls,
  type ScheduleState,
  type ScopeOptions,
} from "../../lib/plan/schedule.js";

function plan(value: unknown): Plan {
  const r = parsePlanValue(value);
  assert.ok(r.ok);
  return r.plan;
}

// Two chains and an independent call:  a1 → b1,  a2 → b2,  c;  d needs b1 and b2.
const chains = plan({
  steps: [
    {
      description: "A",
      tools: [
        { id: "a1", name: "t", arguments: {} },
        { id: "a2", name: "t", arguments: {} },
        { id: "c", name: "t", arguments: { q: "$ref:user.raw" } },
      ],
    },
    {
      description: "B",
      tools: [
        { id: "b1", name: "t", arguments: { x: { $ref: "a1.v" } } },
        { id: "b2", name: "t", arguments: { x: [{ $ref: "a2.v" }, "$ref:a2.w"] } },
      ],
    },
    { description: "D", tools: [{ id: "d", name: "t", arguments: { y: { $ref: "b1" }, z: { $ref: "b2.v" } } }] },
  ],
  final: null,
});

const ids = (calls: { call: { id: string } }[]) => calls.map((c) => c.call.id);
const allReadOnly: ScopeOptions = { isReadOnly: () => true };
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
    assert.deepEqual(ids(pendingCalls(chains, (id) => ran.has(id))), ["b1", "b2", "d"]);
    assert.equal(
      nextPendingStep(chains, (id) => ran.has(id)),
      1,
    );
    assert.equal(
      nextPendingStep(chains, () => true),
      undefined,
    );
  });

  test("a step without tools is never open; a repeated id counts once", () => {
    const p = plan({
      steps: [
        { description: "nur Text", tools: [] },
        {
          tools: [
            { id: "x", name: "t" },
            { id: "x", name: "t" },
          ],
        },
      ],
      final: null,
    });
    assert.equal(
      nextPendingStep(p, () => false),
      1,
    );
    assert.deepEqual(ids(pendingCalls(p, () => false)), ["x"]);
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

  test("dependency: a read-only call becomes ready as soon as its own inputs exist", () => {
    const scope = iterationScope(chains, () => false, "dependency", allReadOnly);
    assert.deepEqual(ids(readyCalls(scope, state(), "dependency")), ["a1", "a2", "c"]);
    // a1 finished, a2 still running: b1 may start, b2 and d wait.
    assert.deepEqual(ids(readyCalls(scope, state(["a1"], [], ["a2", "c"]), "dependency")), ["b1"]);
    assert.deepEqual(ids(readyCalls(scope, state(["a1", "a2", "c", "b1"], [], ["b2"]), "dependency")), []);
    assert.deepEqual(ids(readyCalls(scope, state(["a1", "a2", "c", "b1", "b2"]), "dependency")), ["d"]);
  });

  test("a failed dependency blocks its dependents transitively, with the reason", () => {
    const scope = iterationScope(chains, () => false, "dependency", allReadOnly);
    const s = state(["a1", "c", "b1"], ["a2"]);
    assert.deepEqual(ids(readyCalls(scope, s, "dependency")), []);
    const blocked = blockedCalls(scope, s);
    assert.deepEqual(ids(blocked), ["b2", "d"]);
    assert.deepEqual(blocked[0]?.blockers, [{ id: "a2", via: "data", reason: "failed" }]);
    assert.deepEqual(blocked[1]?.blockers, [{ id: "b2", via: "data", reason: "blocked" }]);
    assert.deepEqual(ids(blockedCalls(scope, state())), []);
  });

  test("a dependency outside the scope that never ran blocks too", () => {
    const scope = iterationScope(chains, (id) => id === "a1" || id === "a2" || id === "c", "step-parallel");
    const blocked = blockedCalls(scope, state(["a1"]));
    assert.deepEqual(ids(blocked), ["b2"]);
    assert.deepEqual(blocked[0]?.blockers, [{ id: "a2", via: "data", reason: "not_run" }]);
  });
});

describe("schedule: step order for calls that change something (dependency mode)", () => {
  // Step 1: read a, read r.  Step 2: write w (no $ref), read x (no $ref).  Step 3: read y (no $ref), write v.
  const ordered = plan({
    steps: [
      {
        tools: [
          { id: "a", name: "lesen", arguments: {} },
          { id: "r", name: "lesen", arguments: {} },
        ],
      },
      {
        tools: [
          { id: "w", name: "buchen", arguments: { stadt: "Rom" } },
          { id: "x", name: "lesen", arguments: {} },
        ],
      },
      {
        tools: [
          { id: "y", name: "lesen", arguments: {} },
          { id: "v", name: "buchen", arguments: {} },
        ],
      },
    ],
    final: null,
  });
  const options: ScopeOptions = { isReadOnly: (call) => call.name === "lesen" };
  const scope = iterationScope(ordered, () => false, "dependency", options);

  test("the order each call waits for is part of the scope", () => {
    const after = Object.fromEntries(scope.map((c) => [c.call.id, c.after]));
    assert.deepEqual(after, { a: [], r: [], w: ["a", "r"], x: [], y: ["w"], v: ["a", "r", "w", "x"] });
    assert.deepEqual(
      scope.map((c) => c.readOnly),
      [true, true, false, true, true, false],
    );
  });

  test("a later call that changes something does not start alongside step 1, even without $ref", () => {
    assert.deepEqual(ids(readyCalls(scope, state(), "dependency")), ["a", "r", "x"]);
    assert.deepEqual(ids(readyCalls(scope, state(["a"], [], ["r", "x"]), "dependency")), []);
    assert.deepEqual(ids(readyCalls(scope, state(["a", "r"], [], ["x"]), "dependency")), ["w"]);
  });

  test("later calls do not overtake a call that changes something", () => {
    assert.deepEqual(ids(readyCalls(scope, state(["a", "r", "x"], [], ["w"]), "dependency")), []);
    assert.deepEqual(ids(readyCalls(scope, state(["a", "r", "x", "w"]), "dependency")), ["y", "v"]);
    // A read-only call only needs the write to have finished; a write needs everything before it to succeed.
    const afterFailedWrite = state(["a", "r", "x"], ["w"]);
    assert.deepEqual(ids(readyCalls(scope, afterFailedWrite, "dependency")), ["y"]);
    assert.deepEqual(
      blockedCalls(scope, afterFailedWrite).map((c) => [c.call.id, c.blockers]),
      [["v", [{ id: "w", via: "order", reason: "failed" }]]],
    );
  });

  test("a call that changes something is held back when an earlier step failed, and so is what waits for it", () => {
    const s = state(["r", "x"], ["a"]);
    assert.deepEqual(ids(readyCalls(scope, s, "dependency")), []);
    const blocked = blockedCalls(scope, s);
    assert.deepEqual(ids(blocked), ["w", "y", "v"]);
    assert.deepEqual(blocked[0]?.blockers, [{ id: "a", via: "order", reason: "failed" }]);
    assert.deepEqual(blocked[1]?.blockers, [{ id: "w", via: "order", reason: "blocked" }]);
  });

  test("read-only calls keep pure data-flow scheduling; without a classification every call keeps step order", () => {
    const readOnly = iterationScope(ordered, () => false, "dependency", allReadOnly);
    assert.ok(readOnly.every((c) => c.after.length === 0));
    assert.deepEqual(ids(readyCalls(readOnly, state(), "dependency")), ["a", "r", "w", "x", "y", "v"]);
    const unclassified = iterationScope(ordered, () => false, "dependency");
    assert.deepEqual(ids(readyCalls(unclassified, state(), "dependency")), ["a", "r"]);
    assert.deepEqual(ids(readyCalls(unclassified, state(["a", "r"]), "dependency")), ["w", "x"]);
  });

  test("calls that already ran are not waited for", () => {
    const ran = new Set(["a", "r"]);
    const rest = iterationScope(ordered, (id) => ran.has(id), "dependency", options);
    assert.deepEqual(ids(readyCalls(rest, state(), "dependency")), ["w", "x"]);
  });
});
