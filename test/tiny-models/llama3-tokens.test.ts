// Tokenizer parity: node-llama-cpp tokenizes with the generated tiny GGUF exactly like the reference
// Llama 3 tokenizer (llama3-tokenizer-js), so every token count of the tests, benches and docs is the
// count a real Llama 3.1 model gives. Fails on a GGUF with any other vocabulary or merges.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { getLlama, LlamaLogLevel, type Llama, type LlamaModel } from "node-llama-cpp";
import { findProjectRoot } from "../../lib/config.js";
import { buildPlannerSystemPrompt } from "../../lib/agent/prompts.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { llama3ReferenceIds } from "../../scripts/dev/tiny-models/llama3-vocab.js";
import { createTravelFake } from "../agent/fixtures.js";

const root = findProjectRoot();

/** German text of every kind the kit sends to a model. */
const GERMAN: Record<string, string> = {
  umlauts: "Grüße aus Köln! Die Straße am Bahnhof ist über 5 km lang; Äpfel, Öl und Übungshefte gibt's dort.",
  capitals: "ÄÖÜ äöü ß ẞ GROSSE STRASSE – „Anführungszeichen“ und ‚halbe‘ » französische « Zeichen …",
  words: "Fußgängerzonenüberwachungskamera, Donaudampfschifffahrtsgesellschaft, Grüßgott, Maß, Spaß, weiß",
  json: '{"stadt":"Zürich","nächte":3,"preis":129.90,"frühstück":true,"ziele":["Köln","Graz"],"x":null}',
  jsonPretty: JSON.stringify({ plan: [{ id: "w1", tool: "get_weather", args: { lat: 41.39, lon: 2.17 } }] }, null, 2),
  digits: "1234567 12345678901 0 007 3,5 °C −12,75 -12.75 1e-5 1.000.000 € 2^10 = 1024",
  dates: "2026-06-15, 15.06.2026, am 3. Mai 2026 um 14:30 Uhr, Mo–Fr 9–17 Uhr, KW 24",
  emoji: "🚆🌧️👍🏽 Gute Reise! 🇩🇪 ❤️ 🧳✈️ Sonne ☀︎",
  whitespace: "Zeile 1\n\n\tZeile 2\n    eingerückt\r\nEnde  \n\n\n   \t ",
  code: 'const ziel = await geocode({ name: "München" }); // Koordinaten\nif (ziel.lat > 48) { return ziel; }',
};

/** The travel catalog as participants' models see it: the planner's system prompt and the data files. */
function travelTexts(catalog: Parameters<typeof buildPlannerSystemPrompt>[0]): Record<string, string> {
  return {
    plannerPrompt: buildPlannerSystemPrompt(catalog),
    places: readFileSync(join(root, "data", "travel", "places.json"), "utf8").slice(0, 6000),
    corpus: readFileSync(join(root, "data", "corpus", "laternenbilch.md"), "utf8").slice(0, 6000),
  };
}

describe("Llama 3 tokenizer parity of the tiny GGUF", { timeout: 120_000 }, () => {
  let llama: Llama;
  let model: LlamaModel;
  let texts: Record<string, string> = {};

  before(async () => {
    const paths = await ensureTinyModels();
    llama = await getLlama({ gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error });
    model = await llama.loadModel({ modelPath: paths.gguf });
    texts = { ...GERMAN, ...travelTexts(await createTravelFake().listTools()) };
  });

  after(async () => {
    await model?.dispose();
    await llama?.dispose();
  });

  it("gives exactly the reference token ids for German text, JSON, digits, dates, emoji and whitespace", () => {
    for (const [name, text] of Object.entries(texts)) {
      assert.deepEqual([...model.tokenize(text)], llama3ReferenceIds(text), `token ids differ for ${name}`);
    }
  });

  it("round-trips every text through tokenize and detokenize", () => {
    for (const [name, text] of Object.entries(texts)) assert.equal(model.detokenize(model.tokenize(text)), text, name);
  });

  it("counts the planner prompt as Llama 3 does, far below its character count", (t) => {
    const prompt = texts.plannerPrompt ?? "";
    const count = model.tokenize(prompt).length;
    t.diagnostic(`planner prompt: ${prompt.length} characters, ${count} Llama 3 tokens`);
    assert.equal(count, llama3ReferenceIds(prompt).length);
    assert.ok(count < prompt.length / 3, `${count} tokens for ${prompt.length} characters`);
  });

  it("reads Llama 3.1's special tokens as single control tokens", () => {
    const specials: Record<string, number> = {
      "<|begin_of_text|>": 128000,
      "<|end_of_text|>": 128001,
      "<|start_header_id|>": 128006,
      "<|end_header_id|>": 128007,
      "<|eom_id|>": 128008,
      "<|eot_id|>": 128009,
      "<|python_tag|>": 128010,
    };
    for (const [text, id] of Object.entries(specials)) {
      assert.deepEqual([...model.tokenize(text, true)], [id], text);
      assert.notDeepEqual([...model.tokenize(text)], [id], `${text} as plain text is not the control token`);
    }
    assert.equal(model.tokens.bos, 128000);
    assert.equal(model.tokens.eos, 128009);
  });
});
