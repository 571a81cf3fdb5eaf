// Teil 4 benchmark: one question, three tool-calling styles — half-agent (one manual call), $ref plan
// (runAgent) and native function calling (the model's own format) — measured alike: generations,
// prompt tokens evaluated, tool calls, parallel calls. Tiny model by default (mechanics, not quality).
import {
  createToolCaller,
  halfAgentRow,
  loadLlm,
  nativeRow,
  refPlanRow,
  runAgent,
  runHalfAgentOnce,
  runNativeToolChat,
  startTravelServer,
  styleTableMarkdown,
  type GenerationMeter,
  McpToolClient,
} from "../lib/index.js";

const llm = await loadLlm();
const server = await startTravelServer({ offline: true });
const tools = await McpToolClient.connect(server.url);
const catalog = await tools.listTools();
const today = "2026-01-29";
const question = `Wie ist heute (${today}) das Wetter in Barcelona?`;
const generation = { maxTokens: 300, temperature: 0, seed: 1 };

const half = await runHalfAgentOnce({ llm, tools, catalog, question, today, generation });
const meters: GenerationMeter[] = [];
const plan = await runAgent({
  llm,
  tools,
  catalog,
  question,
  today,
  maxIterations: 6,
  generation: { ...generation, onMeter: (m) => meters.push(m) },
});
const native = await runNativeToolChat({
  llm: await createToolCaller(llm),
  tools,
  catalog,
  question,
  maxCalls: 4,
  generation,
});

console.log(
  `model: ${(llm.info.backend === "openai-compatible" ? undefined : llm.info.modelPath) ?? llm.info.modelName}`,
);
console.log(styleTableMarkdown([halfAgentRow(half), refPlanRow(plan, meters), nativeRow(native)]));
console.log(
  `native calls: ${native.calls.map((c) => `${c.name}:${c.valid ? "valid" : "invalid"}`).join(", ") || "none"} (status ${native.status})`,
);
await tools.close();
await server.stop();
await llm.dispose();
