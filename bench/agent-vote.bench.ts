// Teil 4 benchmark: what voting costs on a real model. k = 1, 3, 5 sequential runs of one question on
// one model (the configured GGUF; the tiny one under `npm run bench`): prompt tokens evaluated (all runs
// together, and the first vs. a later run — later runs reuse the shared prompt prefix from the KV
// cache) and wall time. The accuracy side is bench/agent-vote-accuracy.bench.ts.
import { loadLocalLlm, runVote } from "../lib/index.js";
import { tinyModelWeatherRun } from "../test/agent/fixtures.js";
import { printMarkdownTable } from "./markdown-table.js";

const llm = await loadLocalLlm();
const run = await tinyModelWeatherRun();
const body: string[][] = [];
const vote = (k: number) =>
  runVote({
    ...run,
    llm,
    k,
    rule: "majority",
    maxIterations: 2,
    generation: { maxTokens: 120 },
  });
await vote(1); // warm-up: the first generation after loading is slower
for (const k of [1, 3, 5]) {
  await llm.resetCache();
  const result = await vote(k);
  const perRun = result.runs.map((r) => r.promptTokensEvaluated);
  body.push([
    `k ${k}`,
    String(result.runsUsed),
    String(result.promptTokensEvaluated),
    String((perRun[0] ?? 0) * result.runsUsed),
    String(perRun[0] ?? "–"),
    perRun.length > 1 ? (perRun.slice(1).reduce((a, b) => a + b, 0) / (perRun.length - 1)).toFixed(0) : "–",
    `${(result.durationMs / 1000).toFixed(1)} s`,
    String(result.redFlagged),
  ]);
}
console.log(`model: ${llm.info.modelPath}`);
printMarkdownTable(
  [
    "",
    "runs",
    "prompt tokens evaluated",
    "without reuse (runs × first)",
    "first run",
    "later run (mean)",
    "wall time",
    "red-flagged",
  ],
  body,
);
await llm.dispose();
