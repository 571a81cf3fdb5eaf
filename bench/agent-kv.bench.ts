// Teil 4 benchmark: prompt tokens evaluated per planning round, with KV-cache reuse (the loop keeps the
// prompt append-only) vs. without (the cache is cleared before every call, as a stateless re-encode would).
// Uses the configured GGUF (tiny model under `npm run bench`) and the travel server in offline mode.
import {
  loadLocalLlm,
  runAgent,
  startTravelServer,
  type AgentEvent,
  type Llm,
  type LocalLlm,
  McpToolClient,
} from "../lib/index.js";

// In-memory KV reuse only: no saved prompt state (that is bench/prompt-state.bench.ts).
const llm = await loadLocalLlm({ promptStateDir: false });
const server = await startTravelServer({ offline: true });
const client = await McpToolClient.connect(server.url);

/** The same model, but every call starts from an empty KV cache. */
function withoutReuse(inner: LocalLlm): Llm {
  return {
    info: inner.info,
    get lastMeter() {
      return inner.lastMeter;
    },
    chat: async (m, o) => (await inner.resetCache(), inner.chat(m, o)),
    generateJson: async (s, m, o) => (await inner.resetCache(), inner.generateJson(s, m, o)),
    dispose: () => inner.dispose(),
  };
}

async function perRound(model: Llm): Promise<number[]> {
  await llm.resetCache();
  const evaluated: number[] = [];
  await runAgent({
    question: "Wie ist heute das Wetter in Barcelona?",
    llm: model,
    tools: client,
    maxIterations: 4,
    generation: { seed: 1, maxTokens: 400 },
    onEvent: (e: AgentEvent) => {
      if ((e.type === "plan" || e.type === "plan_error") && e.meter) evaluated.push(e.meter.promptTokensEvaluated);
    },
  });
  return evaluated;
}

const reuse = await perRound(llm);
const fresh = await perRound(withoutReuse(llm));
const rows: Record<string, { "with reuse": number | string; "without reuse": number | string }> = {};
for (let i = 0; i < Math.max(reuse.length, fresh.length); i++) {
  rows[`round ${i + 1}: prompt tokens evaluated`] = { "with reuse": reuse[i] ?? "–", "without reuse": fresh[i] ?? "–" };
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
rows["total"] = { "with reuse": sum(reuse), "without reuse": sum(fresh) };
console.log(`model: ${llm.info.modelPath}`);
console.table(rows);
await client.close();
await server.stop();
await llm.dispose();
