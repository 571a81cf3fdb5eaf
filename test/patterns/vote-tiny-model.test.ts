// The voting runner on the real tiny GGUF (random weights): k = 3 sequential runs on one model end
// cleanly, each run votes or is red-flagged, and the vote is decided (winner or tie) within k runs.
//
// Prefix reuse is checked on the first plan round of each run, where every run sends the same prompt.
// Whole-run totals are not comparable: later rounds evaluate the tool results and the model's own reply,
// whose length depends on the sampled tokens (which differ between CPUs, e.g. llama.cpp's AMX path on
// Intel Xeons), and runs may take different numbers of rounds. The model saves its prompt states in a
// folder of this test's own, so a state another test or an earlier run left cannot warm the first run.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tinyModelPaths } from "../../lib/config.js";
import { loadLocalLlm, type GenerationMeter, type LocalLlm } from "../../lib/llm/index.js";
import { runVote } from "../../lib/patterns/vote.js";
import { tinyModelWeatherRun } from "../agent/fixtures.js";

let llm: LocalLlm;
let stateDir: string;

before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "vote-tiny-state-"));
});

after(async () => {
  await llm?.dispose();
  await rm(stateDir, { recursive: true, force: true });
});

/** A vote on a freshly loaded model (an empty KV cache, an empty state folder of its own). */
async function vote(baseSeed: number) {
  await llm?.dispose();
  llm = await loadLocalLlm({
    modelPath: tinyModelPaths().gguf,
    gpu: "cpu",
    threads: 1,
    contextSize: 2048,
    promptStateDir: join(stateDir, String(baseSeed)),
    warmStateDir: false,
  });
  const firstRound = new Map<number, GenerationMeter>();
  const replies: string[] = [];
  const result = await runVote({
    ...(await tinyModelWeatherRun()),
    llm,
    k: 3,
    baseSeed,
    maxIterations: 2,
    generation: { maxTokens: 120 },
    onRunEvent: (run, event) => {
      if ((event.type === "plan" || event.type === "plan_error") && event.meter && !firstRound.has(run)) {
        firstRound.set(run, event.meter);
        replies.push(event.raw);
      }
    },
  });
  return { result, firstRound, replies };
}

// Other sampled tokens (as another CPU's arithmetic gives) must not change what the test sees: the second
// base seed samples other first replies from the same prompt, and the same checks hold.
const sampled: string[][] = [];
for (const baseSeed of [1, 101])
  test(`runVote with k = 3 (seeds from ${baseSeed}) on the tiny GGUF terminates with a decided vote; later runs reuse the shared prompt prefix`, async () => {
    const { result, firstRound, replies } = await vote(baseSeed);
    sampled.push(replies);
    assert.deepEqual(
      result.runs.map((r) => r.seed),
      [1, 2, 3].slice(0, result.runsUsed).map((i) => baseSeed + i - 1),
    );
    assert.ok(result.runsUsed >= 2 && result.runsUsed <= 3);
    for (const run of result.runs) assert.ok(run.key !== null || run.redFlag, `run ${run.run} votes or is red-flagged`);
    assert.equal(result.redFlagged + result.decision.tally.reduce((s, t) => s + t.count, 0), result.runsUsed);
    assert.ok(result.decision.winner !== null || result.final.length > 0);
    assert.ok(result.promptTokensEvaluated > 0);
    assert.equal(
      result.promptTokensEvaluated,
      result.runs.reduce((n, r) => n + r.promptTokensEvaluated, 0),
    );

    // Every run's first round sends the same prompt: the first run evaluates all of it (a fresh model, an
    // empty state folder), each later run takes it from the KV cache the run before left.
    const rounds = result.runs.map((r) => firstRound.get(r.run));
    assert.ok(
      rounds.every((m) => m !== undefined),
      "every run planned at least once with a meter",
    );
    const [first, ...later] = rounds as GenerationMeter[];
    const prompt = first!.promptTokensEvaluated + first!.promptTokensReused;
    assert.equal(first!.promptTokensReused, 0, "the first run starts from an empty cache");
    assert.ok(prompt > 100, `the planner prompt has ${prompt} tokens`);
    for (const [i, m] of later.entries()) {
      const tokens = `run ${i + 1}: ${m.promptTokensEvaluated} evaluated, ${m.promptTokensReused} reused of ${prompt}`;
      assert.equal(
        m.promptTokensEvaluated + m.promptTokensReused,
        prompt,
        `same prompt in every first round (${tokens})`,
      );
      assert.ok(m.promptTokensReused >= prompt - 8, `the shared prefix comes from the KV cache (${tokens})`);
    }
  });

test("the two base seeds sampled different first replies (so the checks above held for other tokens)", () => {
  assert.equal(sampled.length, 2, "both votes ran");
  assert.notDeepEqual(sampled[0], sampled[1]);
});
