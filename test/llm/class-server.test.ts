// Teil 1 on the class GPU server: LLM_BACKEND=openai against the local fake OpenAI-compatible server.
// Runs the calls the Teil 1 notebook makes, through `loadConfiguredLlm()` as a set-up cell's `loadLlm()` does (env only).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { setupPart1 } from "../../lib/exercises/setup.js";
import { describeLlm, formatMeter, loadConfiguredLlm, tokenCounter, type ChatMessage } from "../../lib/llm/index.js";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../helpers/fake-openai-server.js";

let server: FakeOpenAiServer;
const saved = { ...process.env };
before(async () => {
  server = await startFakeOpenAiServer([
    { kind: "text", text: "Lissabon ist die Hauptstadt von Portugal.", promptTokens: 30, cachedTokens: 12 },
  ]);
  process.env.LLM_BACKEND = "openai";
  process.env.LLM_BASE_URL = server.baseUrl;
  process.env.LLM_MODEL = "llama-3.1-8b-kurs";
});
after(async () => {
  process.env = saved;
  await server.close();
});

test("the load report names the class server instead of GPU layers", async () => {
  const llm = await loadConfiguredLlm();
  assert.equal(llm.info.backend === "openai-compatible" ? llm.info.serverUrl : undefined, server.baseUrl);
  assert.ok(!("gpu" in llm.info), "the server URL lives in serverUrl, not in gpu");
  const report = describeLlm(llm.info);
  assert.match(
    report,
    new RegExp(`^Backend: Klassen-Server \\(OpenAI-kompatibel\\) unter ${server.baseUrl.replace(/[.]/g, "\\.")}$`, "m"),
  );
  assert.match(report, /^Modell: llama-3\.1-8b-kurs$/m);
  assert.match(report, /^GPU-Schichten: Klassen-Server/m);
  assert.doesNotMatch(report, /von \d+ ausgelagert|VRAM|CPU-Threads/);
  assert.match(report, /Hinweis: Alle im Kurs teilen sich diesen Server/);
  await llm.dispose();
});

test("Teil 1's calls work on the class server: question, history, sampling, determinism, token counts", async () => {
  const before = server.requests.length;
  const llm = await loadConfiguredLlm(); // what the set-up cell needs instead of loadLocalLlm() to follow LLM_BACKEND
  // first question + meter line
  const frage: ChatMessage[] = [
    { role: "user", content: "Was ist die Hauptstadt von Portugal? Antworte in einem Satz." },
  ];
  const erste = await llm.chat(frage, { maxTokens: 60 });
  assert.equal(erste.text, "Lissabon ist die Hauptstadt von Portugal.");
  assert.match(formatMeter(erste.meter), /^Prompt: 18 neu berechnet \/ 12 aus dem KV-Cache · Antwort: \d+\u00a0Tokens/);
  // token counting: an estimate, marked as such (no renderPrompt/countTokens on a server)
  const tokens = tokenCounter(llm);
  assert.equal(tokens.exact, false);
  assert.equal(tokens.describe("Reiseplanung für Barcelona"), "≈ 7 Tokens (geschätzt)");
  assert.equal("renderPrompt" in llm, false, "the chat template lives on the server");
  // system prompt + history: the whole conversation goes to the server every time
  const verlauf: ChatMessage[] = [
    { role: "system", content: "Du bist ein freundlicher Reiseplaner." },
    { role: "user", content: "Ich heiße Max und reise im Mai nach Lissabon." },
  ];
  const r1 = await llm.chat(verlauf, { maxTokens: 100 });
  verlauf.push(
    { role: "assistant", content: r1.text },
    { role: "user", content: "Wie heiße ich, und wohin reise ich?" },
  );
  await llm.chat(verlauf, { maxTokens: 60 });
  assert.deepEqual(server.requests.at(-1)!.messages, verlauf);
  // sampling settings with seeds, then temperature 0
  const einstellungen = { temperature: 1.2, topK: 40, topP: 0.95, minP: 0.05, repeatPenalty: 1.1, maxTokens: 80 };
  for (const seed of [1, 2, 3])
    await llm.chat([{ role: "user", content: "Beschreibe Barcelona in einem Satz." }], { ...einstellungen, seed });
  const sampled = server.requests.slice(-3);
  assert.deepEqual(
    sampled.map((r) => r.seed),
    [1, 2, 3],
  );
  for (const r of sampled) {
    assert.equal(r.temperature, 1.2);
    assert.equal(r.top_k, 40);
    assert.equal(r.top_p, 0.95);
    assert.equal(r.min_p, 0.05);
    assert.equal(r.repeat_penalty, 1.1);
    assert.equal(r.max_tokens, 80);
  }
  const a = await llm.chat([{ role: "user", content: "Nenne drei Sehenswürdigkeiten in Rom." }], {
    temperature: 0,
    maxTokens: 40,
  });
  assert.equal(server.requests.at(-1)!.temperature, 0);
  assert.equal(typeof a.text, "string");
  assert.equal(server.requests.length - before, 7);
  assert.ok(server.requests.every((r) => r.model === "llama-3.1-8b-kurs" && r.stream === true));
  await llm.dispose();
});

test("Aufgabe 1's set-up (setupPart1) follows LLM_BACKEND and prints the class-server report", async () => {
  const lines: string[] = [];
  const kit = await setupPart1({ log: (l) => lines.push(l) });
  const text = lines.join("\n");
  assert.match(text, /Backend: Klassen-Server/);
  assert.match(text, /Token-Zähler: Schätzung/);
  assert.equal(kit.countTokens("abcdefgh"), 2);
  assert.equal(
    (await kit.llm.chat([{ role: "user", content: "Hallo" }])).text,
    "Lissabon ist die Hauptstadt von Portugal.",
  );
  await kit.close();
});
