// runAgent's options: defaults from RUN_DEFAULTS, grouped settings, groundedness opt-in.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkGroundedness } from "../../lib/agent/groundedness.js";
import { resolveOptions, RUN_DEFAULTS } from "../../lib/agent/run-options.js";
import { DEFAULT_TOOL_TIMEOUT_MS } from "../../lib/timeouts.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";
import { createTravelFake } from "./fixtures.js";

const base = () => ({ question: "Wie ist das Wetter?", llm: new ScriptedLlm([]), tools: createTravelFake() });

describe("resolveOptions", () => {
  test("unset options take RUN_DEFAULTS", () => {
    const s = resolveOptions(base());
    assert.equal(s.limits.maxIterations, 8);
    assert.equal(s.limits.toolTimeoutMs, DEFAULT_TOOL_TIMEOUT_MS);
    assert.equal(s.limits.mode, "dependency");
    assert.equal(s.limits.forceFinalOnLastIteration, true);
    assert.equal(s.limits.maxResultChars, RUN_DEFAULTS.maxResultChars);
    assert.deepEqual(s.limits.retry, RUN_DEFAULTS.retry);
    assert.equal(s.model.planOutput, "auto");
    assert.equal(s.tools.offerAskUser, true);
    assert.equal(s.post.answerWriter, false);
    assert.equal(s.post.groundedness, undefined, "groundedness is opt-in");
    assert.deepEqual(s.safety.approval, {});
  });

  test("given options win; maxIterations is a whole number ≥ 1; retry is merged", () => {
    const own = () => ({ claims: [], unsupported: [], noToolCalls: false, warnings: [] });
    const s = resolveOptions({
      ...base(),
      maxIterations: 0.5,
      retry: { retries: 3 },
      forceFinalOnLastIteration: false,
      groundedness: own,
    });
    assert.equal(s.limits.maxIterations, 1);
    assert.deepEqual(s.limits.retry, { ...RUN_DEFAULTS.retry, retries: 3 });
    assert.equal(s.limits.forceFinalOnLastIteration, false);
    assert.equal(s.post.groundedness, own);
    assert.equal(resolveOptions({ ...base(), groundedness: true }).post.groundedness, checkGroundedness);
    assert.equal(resolveOptions({ ...base(), groundedness: false }).post.groundedness, undefined);
  });
});
