// The voting runner on the real tiny GGUF (random weights): k = 3 sequential runs on one model end
// cleanly, each run votes or is red-flagged, and the vote is decided (winner or tie) within k runs.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { tinyModelPaths } from "../../lib/config.js";
import { loadLocalLlm, type LocalLlm } from "../../lib/llm/index.js";
import { runVote } from "../../lib/patterns/vote.js";
import { tinyModelWeatherRun } from "../agent/fixtures.js";

let llm: LocalLlm;

before(async () => {
  llm = await loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", threads: 1, contextSize: 2048 });
});

after(async () => {
  await llm?.dispose();
});

test("runVote with k = 3 on the tiny GGUF terminates with a decided vote", async () => {
  const result = await runVote({
    ...(await tinyModelWeatherRun()),
    llm,
    k: 3,
    maxIterations: 2,
    generation: { maxTokens: 120 },
  });
  assert.ok(result.runsUsed >= 2 && result.runsUsed <= 3);
  assert.deepEqual(result.runs.map((r) => r.seed), [1, 2, 3].slice(0, result.runsUsed));
  for (const run of result.runs) assert.ok(run.key !== null || run.redFlag, `run ${run.run} votes or is red-flagged`);
  assert.equal(result.redFlagged + result.decision.tally.reduce((s, t) => s + t.count, 0), result.runsUsed);
  assert.ok(result.decision.winner !== null || result.final.length > 0);
  assert.ok(result.promptTokensEvaluated > 0);
  // Later runs reuse the shared prompt prefix from the KV cache: they evaluate fewer tokens than the first.
  const [first, ...later] = result.runs.map((r) => r.promptTokensEvaluated);
  assert.ok(later.every((t) => t < first!), `first ${first}, later ${later.join(", ")}`);
});
