// Teil 1 benchmark: time to first token, tokens/s, and prompt tokens re-evaluated on turn 2 with
// KV-cache reuse vs. without (goal: ≥ 80 % of turn 2's prompt reused).
// Uses the configured model (LLM_MODEL_PATH …); `npm run bench` points it at the tiny GGUF unless
// BENCH_REAL_MODEL=1.
import { loadLocalLlm, type ChatMessage } from "../lib/llm/index.js";
import { reportNumericGoal } from "./summary.js";

// In-memory KV reuse only: no saved prompt state (that is bench/prompt-state.bench.ts).
const llm = await loadLocalLlm({ promptStateDir: false });
const system: ChatMessage = {
  role: "system",
  content:
    "Du bist ein Reiseplaner. Beantworte Reisefragen knapp auf Deutsch. Erfinde keine Fakten. " +
    "Wenn du etwas nicht wissen kannst, sage es offen. ".repeat(6),
};
const turn1: ChatMessage[] = [
  system,
  { role: "user", content: "Ich plane ein Wochenende in Lissabon. Was sollte ich sehen?" },
];

const runs = 3;
const ttft: number[] = [];
const tps: number[] = [];
for (let i = 0; i < runs; i++) {
  await llm.resetCache();
  const { meter } = await llm.chat(turn1, { maxTokens: 64, seed: i, temperature: 0.7 });
  ttft.push(meter.timeToFirstTokenMs);
  tps.push(meter.tokensPerSecond);
}

async function turn2(reuse: boolean) {
  await llm.resetCache();
  const first = await llm.chat(turn1, { maxTokens: 32, seed: 1 });
  if (!reuse) await llm.resetCache();
  const { meter } = await llm.chat(
    [...turn1, { role: "assistant", content: first.text }, { role: "user", content: "Und bei Regen?" }],
    {
      maxTokens: 16,
      seed: 1,
    },
  );
  return meter;
}
const withReuse = await turn2(true);
const withoutReuse = await turn2(false);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const total = withReuse.promptTokensEvaluated + withReuse.promptTokensReused;

console.log(`model: ${llm.info.modelPath} (${llm.info.gpu}, ${llm.info.threads} threads)`);
console.table({
  "time to first token (ms, median)": { value: median(ttft) },
  "tokens/s (median)": { value: median(tps) },
  "turn 2 prompt tokens evaluated, with reuse": { value: withReuse.promptTokensEvaluated },
  "turn 2 prompt tokens evaluated, without reuse": { value: withoutReuse.promptTokensEvaluated },
  "turn 2 share reused (goal ≥ 80 %)": { value: `${((withReuse.promptTokensReused / total) * 100).toFixed(1)} %` },
});
reportNumericGoal(
  "Teil 1: turn 2 prompt share reused from the KV cache",
  (withReuse.promptTokensReused / total) * 100,
  80,
  { atLeast: true, unit: " %", digits: 1 },
);
await llm.dispose();
