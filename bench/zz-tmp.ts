import { loadLocalLlm } from "../lib/llm/index.js";
import { tinyModelPaths } from "../lib/config.js";
import { runAgent, buildPlannerSystemPrompt } from "../lib/agent/index.js";
import { createTravelFake } from "../test/agent/fixtures.js";
const llm = await loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", threads: 1, contextSize: 4096 });
const tools = createTravelFake();
const cat = await tools.listTools();
const sp = buildPlannerSystemPrompt(cat, { userFields: ["raw", "today"], today: "2026-01-29", compact: true });
console.log(sp);
console.log("prompt tokens", llm.countTokens(sp), llm.info.contextSize);
for (const seed of [1, 2, 3]) {
const t = performance.now();
const r = await runAgent({ question: "Wie ist heute das Wetter in Barcelona?", llm, tools, maxIterations: 3, systemPrompt: sp, today: "2026-01-29", generation: { maxTokens: 200, temperature: 0.8, seed }, onEvent: (e) => { if (e.type !== "run_start" && e.type !== "llm_request") console.log(e.iteration, e.type, JSON.stringify(e).slice(0, 250)); } });
console.log(r.status, r.final.slice(0, 100), (performance.now() - t).toFixed(0), "ms");
}
await llm.dispose();
