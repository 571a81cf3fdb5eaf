// End to end on the real tiny GGUF (random weights): plans come from grammar-constrained generation,
// so they always parse; whatever the model plans, the run must end cleanly within max iterations.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { tinyModelPaths } from "../../lib/config.js";
import { loadLocalLlm, type LocalLlm } from "../../lib/llm/index.js";
import { runAgent } from "../../lib/agent/loop.js";
import type { AgentEvent } from "../../lib/agent/trace.js";
import { tinyModelWeatherRun } from "./fixtures.js";
import { llama3ReferenceIds } from "../../scripts/dev/tiny-models/llama3-vocab.js";

let llm: LocalLlm;

before(async () => {
  llm = await loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", threads: 1, contextSize: 2048 });
});

after(async () => {
  await llm?.dispose();
});

describe("runAgent on the tiny GGUF", () => {
  test("grammar-valid random plans; the run terminates within max iterations", async () => {
    const run = await tinyModelWeatherRun();
    assert.equal(
      llm.countTokens(run.systemPrompt),
      llama3ReferenceIds(run.systemPrompt).length,
      "counted as Llama 3 counts it",
    );
    assert.ok(llm.countTokens(run.systemPrompt) < 1024, "the compact prompt fits the tiny model's context");
    for (const seed of [1, 2]) {
      const events: AgentEvent[] = [];
      const result = await runAgent({
        ...run,
        llm,
        maxIterations: 3,
        generation: { maxTokens: 200, temperature: 0.8, seed },
        onEvent: (e) => events.push(e),
      });
      assert.ok(["answered", "max_iterations"].includes(result.status), `${result.status}: ${result.error ?? ""}`);
      assert.ok(result.iterations <= 3);
      assert.ok(result.final.length > 0);
      const plans = events.filter((e) => e.type === "plan");
      assert.ok(plans.length >= 1);
      assert.ok(plans.every((e) => e.type === "plan" && e.via === "grammar"));
      assert.equal(
        events.filter((e) => e.type === "plan_error" && e.kind !== "generation").length,
        0,
        "grammar output always parses as a plan",
      );
      assert.equal(events.at(-1)?.type, "final");
    }
  });
});
