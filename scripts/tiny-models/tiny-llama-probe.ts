// TEMPORARY probe (to be deleted)
import { getLlama, LlamaChatSession, LlamaLogLevel } from "node-llama-cpp";
import { writeTinyLlamaGguf } from "./tiny-llama.js";
const schemas: any[] = [
  { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } } },
  { type: "object", properties: { stadt: { type: "string" }, naechte: { type: "integer" }, preis: { type: "number" }, fruehstueck: { type: "boolean" } } },
  { type: "object", properties: { verkehrsmittel: { enum: ["Zug", "Flug", "Auto"] }, ziele: { type: "array", items: { type: "string" } } } },
  { type: "object", properties: { plan: { type: "array", items: { type: "object", properties: { id: { type: "integer" }, tool: { type: "string" }, args: { type: "object", properties: { q: { type: "string" }, n: { type: "integer" } } } } } } } },
  { type: "object", properties: { wert: { oneOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] }, liste: { type: "array", items: { type: "integer" }, minItems: 2 } } },
  { type: "array", items: { type: "number" } },
  { type: "object", properties: { a: { type: "object", properties: { b: { type: "object", properties: { c: { type: ["string", "null"] } } } } }, d: { type: "string", minLength: 3, maxLength: 8 } } },
  { type: "object", properties: { frei: { type: "object", additionalProperties: { type: "integer" } }, k: { const: "fest" } } },
  { type: "object", properties: { datum: { type: "string", format: "date" }, x: { type: "integer" } } },
];
const logs: string[] = [];
const llama = await getLlama({ gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.warn, logger: (level, msg) => { logs.push(`${level}: ${msg}`); } });
for (const modelSeed of [4]) {
  const path = `models/tiny/probe-${modelSeed}.gguf`;
  await writeTinyLlamaGguf(path, { seed: modelSeed });
  const model = await llama.loadModel({ modelPath: path });
  const ctx = await model.createContext({ contextSize: 1024, threads: 1, sequences: 1 });
  const seq = ctx.getSequence();
  const session = new LlamaChatSession({ contextSequence: seq });
  const grammars = await Promise.all(schemas.map((s) => llama.createGrammarForJsonSchema(s)));
  let ok = 0, total = 0, ms = 0, toks = 0; const fails: string[] = [];
  for (const temp of [0, 0.5, 0.8, 1.2]) {
    for (let i = 0; i < schemas.length * 2; i++) {
      const g = grammars[i % schemas.length]!;
      const t = performance.now();
      const meta = await session.promptWithMeta(`Anfrage ${i}: Plane eine Reise nach Köln.`, { grammar: g, maxTokens: 300, temperature: temp, seed: i * 7 + 1 });
      ms += performance.now() - t; total++;
      if (temp === 0.8 && i < schemas.length) console.log(meta.responseText, meta.stopReason);
      try { g.parse(meta.responseText); ok++; } catch (e) { fails.push(`${temp} ${i % schemas.length} ${String(e).slice(0, 80)} ${meta.responseText.slice(0, 300)}`); }
      session.resetChatHistory();
    }
  }
  let eot = 0, chatTotal = 0, chatMs = 0; const samples = new Set<string>();
  for (const temp of [0, 0.8, 1.2]) for (let i = 0; i < 10; i++) {
    const t = performance.now();
    const meta = await session.promptWithMeta(`Frage ${i}: Wie ist das Wetter in München?`, { maxTokens: 64, temperature: temp, seed: i + 1 });
    chatMs += performance.now() - t; chatTotal++;
    if (meta.stopReason === "eogToken") eot++; samples.add(meta.responseText);
    session.resetChatHistory();
  }
  console.log(`seed ${modelSeed}: grammar ${ok}/${total} ${Math.round(ms / total)} ms/run; chat eot ${eot}/${chatTotal} ${Math.round(chatMs / chatTotal)} ms`);
  console.log([...samples].slice(0, 6));
  for (const f of fails.slice(0, 8)) console.log("FAIL", f);
  session.dispose(); seq.dispose(); await ctx.dispose(); await model.dispose();
}
console.log("logs:", logs);
await llama.dispose();
