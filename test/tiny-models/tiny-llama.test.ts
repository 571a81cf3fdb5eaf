// The generated tiny Llama GGUF: a deterministic file with Llama 3.1's real vocabulary that real
// node-llama-cpp loads, tokenizes German text with, wraps in its Llama 3.1 chat format, and generates
// from without rambling (exact tokenizer parity: llama3-tokens.test.ts).
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import {
  getLlama,
  Llama3_1ChatWrapper,
  LlamaChatSession,
  LlamaLogLevel,
  readGgufFileInfo,
  resolveChatWrapper,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
} from "node-llama-cpp";
import { tinyModelPaths } from "../../lib/config.js";
import {
  encodeGguf,
  float32ToFloat16Bits,
  GgmlType,
  gguf,
  GgufValueType,
  GgufWriteError,
  writeGgufFile,
} from "../../scripts/dev/tiny-models/gguf-writer.js";
import {
  encodeTinyLlamaGguf,
  TINY_LLAMA_DEFAULT_SEED,
  writeTinyLlamaGguf,
} from "../../scripts/dev/tiny-models/tiny-llama.js";
import { GRAMMAR_SCHEMAS, grammarRounds } from "../helpers/grammar-rounds.js";
import { halfBitsToFloat } from "../helpers/half-float.js";

describe("GGUF writer", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "gguf-writer-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes typed metadata, arrays and 32-byte aligned F32/F16 tensors that node-llama-cpp reads back", async () => {
    const path = join(dir, "mini.gguf");
    const f32Data = Float32Array.from([1.5, -2.25, 3, 0.125, 7]);
    const f16Data = Float32Array.from([1, -0.5, 65504, 0.1, 0, -3, 2.5]);
    await writeGgufFile(
      path,
      {
        "general.architecture": gguf.str("llama"),
        "test.u8": { type: GgufValueType.UINT8, value: 200 },
        "test.i16": { type: GgufValueType.INT16, value: -1234 },
        "test.u32": gguf.u32(4_000_000_000),
        "test.i32": gguf.i32(-7),
        "test.u64": gguf.u64(2n ** 40n),
        "test.f32": gguf.f32(0.5),
        "test.f64": { type: GgufValueType.FLOAT64, value: Math.PI },
        "test.bool": gguf.bool(true),
        "test.text": gguf.str("Grüße aus Köln"),
        "test.words": gguf.strings(["ä", "", "Straße"]),
        "test.ints": gguf.i32s([1, -2, 3]),
        "test.floats": gguf.f32s([0.25, -1]),
      },
      [
        { name: "a", dims: [5], type: GgmlType.F32, data: f32Data },
        { name: "b", dims: [7, 1], type: GgmlType.F16, data: f16Data },
      ],
    );
    const info = await readGgufFileInfo(path, { logWarnings: false });
    assert.equal(info.version, 3);
    const test = (info.metadata as unknown as { test: Record<string, unknown> }).test;
    assert.equal(test.u8, 200);
    assert.equal(test.i16, -1234);
    assert.equal(test.u32, 4_000_000_000);
    assert.equal(test.i32, -7);
    assert.equal(BigInt(test.u64 as number | bigint), 2n ** 40n);
    assert.equal(test.f32, 0.5);
    assert.equal(test.f64, Math.PI);
    assert.equal(test.bool, true);
    assert.equal(test.text, "Grüße aus Köln");
    assert.deepEqual(test.words, ["ä", "", "Straße"]);
    assert.deepEqual(test.ints, [1, -2, 3]);
    assert.deepEqual(test.floats, [0.25, -1]);

    const tensors = info.tensorInfo ?? [];
    assert.deepEqual(
      tensors.map((t) => [t.name, t.dimensions.map(Number), Number(t.ggmlType)]),
      [
        ["a", [5], 0],
        ["b", [7, 1], 1],
      ],
    );
    const bytes = await readFile(path);
    for (const t of tensors) assert.equal(Number(t.fileOffset) % 32, 0, `tensor ${t.name} is not 32-byte aligned`);
    const [a, b] = tensors.map((t) => Number(t.fileOffset));
    assert.deepEqual(
      [...f32Data].map((_, i) => bytes.readFloatLE((a ?? 0) + i * 4)),
      [...f32Data],
    );
    const halves = [...f16Data].map((_, i) => halfBitsToFloat(bytes.readUInt16LE((b ?? 0) + i * 2)));
    halves.forEach((h, i) => assert.ok(Math.abs(h - (f16Data[i] ?? 0)) <= Math.abs(f16Data[i] ?? 0) * 2 ** -11));
    assert.equal(bytes.length % 32, 0);
  });

  it("converts float32 to float16 with round-to-nearest", () => {
    assert.equal(float32ToFloat16Bits(1), 0x3c00);
    assert.equal(float32ToFloat16Bits(-2), 0xc000);
    assert.equal(float32ToFloat16Bits(65504), 0x7bff);
    assert.equal(float32ToFloat16Bits(1e6), 0x7c00);
    assert.equal(float32ToFloat16Bits(2 ** -24), 0x0001);
    assert.equal(float32ToFloat16Bits(-0), 0x8000);
    fc.assert(
      fc.property(fc.float({ min: -60000, max: 60000, noNaN: true }), (x) => {
        const back = halfBitsToFloat(float32ToFloat16Bits(x));
        // half precision: relative error ≤ 2^-11 for normals, absolute ≤ 2^-25 for subnormals
        return Math.abs(back - x) <= Math.max(Math.abs(x) * 2 ** -11, 2 ** -25);
      }),
    );
  });

  it("rejects inconsistent input with a GgufWriteError", () => {
    assert.throws(
      () => encodeGguf({}, [{ name: "x", dims: [3, 2], type: GgmlType.F32, data: new Float32Array(5) }]),
      GgufWriteError,
    );
    assert.throws(() => encodeGguf({ k: gguf.u32(1.5) }, []), GgufWriteError);
    assert.throws(() => encodeGguf({ k: { type: GgufValueType.STRING, value: 3 } }, []), GgufWriteError);
    const t = { name: "x", dims: [1], type: GgmlType.F32, data: new Float32Array(1) };
    assert.throws(() => encodeGguf({}, [t, t]), GgufWriteError);
  });
});

describe("tiny Llama GGUF", { timeout: 600_000 }, () => {
  const modelPath = tinyModelPaths().gguf;
  const warnings: string[] = [];
  let llama: Llama;
  let model: LlamaModel;
  let context: LlamaContext;
  let sequence: LlamaContextSequence;
  let session: LlamaChatSession;

  before(async () => {
    await ensureTinyModels(); // the generator's current output for the default seed (its version stamp says so)
    llama = await getLlama({
      gpu: false,
      build: "never",
      maxThreads: 1,
      logLevel: LlamaLogLevel.warn,
      logger: (level, message) => {
        if (level === LlamaLogLevel.warn || level === LlamaLogLevel.error || level === LlamaLogLevel.fatal)
          warnings.push(message);
      },
    });
    model = await llama.loadModel({ modelPath });
    context = await model.createContext({ contextSize: 1024, threads: 1, sequences: 1 });
    sequence = context.getSequence();
    session = new LlamaChatSession({ contextSequence: sequence });
  });

  after(async () => {
    session?.dispose();
    await sequence?.dispose();
    await context?.dispose();
    await model?.dispose();
    await llama?.dispose();
  });

  it("is byte-identical for the same seed and differs for another seed", async (t) => {
    const dir = await mkdtemp(join(tmpdir(), "tiny-llama-"));
    t.after(() => rm(dir, { recursive: true, force: true }));
    // modelPath is the generator's output for the default seed (ensureTinyModels); each generation takes seconds.
    const started = performance.now();
    await writeTinyLlamaGguf(join(dir, "a.gguf"), { seed: TINY_LLAMA_DEFAULT_SEED });
    const ms = performance.now() - started;
    const c = encodeTinyLlamaGguf({ seed: 8 });
    const [a, b] = await Promise.all([join(dir, "a.gguf"), modelPath].map((p) => readFile(p)));
    assert.ok(a && b);
    assert.ok(a.equals(b), "same seed must give the same bytes");
    assert.ok(!a.equals(c), "another seed must give other weights");
    assert.equal(a.length, c.length);
    t.diagnostic(`file size ${a.length} bytes, written in ${Math.round(ms)} ms`);
    await assert.rejects(writeTinyLlamaGguf(join(dir, "d.gguf"), { seed: 1.5 }), TypeError);
  });

  it("describes a small Llama with Llama 3's tokenizer", async () => {
    const info = await readGgufFileInfo(modelPath, { logWarnings: false });
    const meta = info.metadata;
    assert.equal(meta.general.architecture, "llama");
    const arch = info.architectureMetadata;
    assert.equal(arch.embedding_length, 64);
    assert.equal(arch.block_count, 2);
    assert.equal(arch.attention?.head_count, 4);
    assert.equal(arch.attention?.head_count_kv, 4);
    assert.equal(arch.feed_forward_length, 128);
    assert.equal(arch.context_length, 32768);
    assert.equal(arch.rope?.freq_base, 500000);
    assert.equal(meta.tokenizer.ggml.model, "gpt2");
    assert.equal(meta.tokenizer.ggml.pre, "llama-bpe");
    const tokens = meta.tokenizer.ggml.tokens;
    assert.equal(tokens.length, 128256, "Llama 3's full vocabulary");
    assert.equal(tokens[220], "Ġ"); // byte-level alphabet: space is U+0120
    assert.equal(tokens[6127], "Ġist");
    assert.equal(meta.tokenizer.ggml.merges?.length, 280147);
    assert.equal(meta.tokenizer.ggml.merges?.[0], "Ġ Ġ");
    const types = meta.tokenizer.ggml.token_type ?? [];
    for (const special of [
      "<|begin_of_text|>",
      "<|end_of_text|>",
      "<|start_header_id|>",
      "<|end_header_id|>",
      "<|eot_id|>",
      "<|eom_id|>",
      "<|python_tag|>",
    ]) {
      const id = tokens.indexOf(special);
      assert.ok(id >= 128000, `${special} missing`);
      assert.equal(types[id], 3, `${special} must be a control token`);
    }
    assert.equal(tokens[meta.tokenizer.ggml.bos_token_id ?? -1], "<|begin_of_text|>");
    assert.equal(tokens[meta.tokenizer.ggml.eos_token_id ?? -1], "<|eot_id|>");
    assert.match(meta.tokenizer.chat_template ?? "", /<\|start_header_id\|>/);
    for (const t of info.tensorInfo ?? []) assert.equal(Number(t.fileOffset) % 32, 0);
  });

  it("loads in node-llama-cpp without warnings", () => {
    assert.deepEqual(warnings, []);
    assert.equal(model.tokens.bosString, "<|begin_of_text|>");
    assert.equal(model.tokens.eosString, "<|eot_id|>");
  });

  it("round-trips German text, umlauts and JSON through tokenize/detokenize", () => {
    const texts = [
      "Grüße aus München! Die Straße in Köln ist schön, über Düsseldorf geht's nach Nürnberg.",
      "ÄÖÜ äöü ß – „Anführungszeichen“ und Emoji 🚆 sowie 3,5 °C.",
      '{"stadt":"Zürich","naechte":3,"liste":[1,2],"ok":true}',
      "Zeile 1\n\nZeile 2\t  Ende",
    ];
    for (const text of texts) assert.equal(model.detokenize(model.tokenize(text)), text);
    assert.deepEqual(model.tokenize("<|eom_id|>", true), [128008]);
    assert.deepEqual(model.tokenize("<|eot_id|>", true), [128009]);
  });

  it("uses node-llama-cpp's Llama 3.1 chat wrapper", () => {
    assert.ok(resolveChatWrapper(model) instanceof Llama3_1ChatWrapper);
    assert.ok(session.chatWrapper instanceof Llama3_1ChatWrapper);
  });

  it("answers plain chat prompts with text and stops at end-of-turn", async (t) => {
    const prompts = [
      "Hallo!",
      "Wie wird das Wetter morgen in Hamburg?",
      "Erzähl mir etwas über Berlin.",
      "Was kostet ein Zimmer?",
      "Plane einen Ausflug nach Köln.",
      "Danke für die Hilfe.",
      "Welcher Zug fährt nach Wien?",
      "Gibt es Frühstück?",
      "Wie groß ist München?",
      "Nenne drei Museen.",
      "Was ist 2+2?",
      "Übersetze: good morning",
      "Bitte kurz antworten.",
      "Ich möchte nach Zürich reisen.",
      "Wie lange dauert der Flug?",
      "Was soll ich einpacken?",
      "Gute Nacht!",
      "Kannst du mir helfen?",
      "Wo ist der Bahnhof?",
      "Schreib ein Gedicht über Öl und Äpfel.",
    ];
    let endedAtEot = 0;
    let tokens = 0;
    const started = performance.now();
    for (const [i, prompt] of prompts.entries()) {
      const result = await session.promptWithMeta(prompt, {
        maxTokens: 48,
        temperature: i % 2 === 0 ? 0 : 0.8,
        seed: i + 1,
      });
      assert.ok(result.responseText.trim().length > 0, `empty answer for ${prompt}`);
      if (result.stopReason === "eogToken") endedAtEot++;
      tokens += model.tokenize(result.responseText).length;
      session.resetChatHistory();
    }
    const ms = performance.now() - started;
    t.diagnostic(
      `chat: ${endedAtEot}/${prompts.length} ended at end-of-turn, ${(ms / prompts.length).toFixed(1)} ms/prompt, ~${Math.round((tokens / ms) * 1000)} tokens/s`,
    );
    assert.ok(endedAtEot >= prompts.length * 0.9, `only ${endedAtEot}/${prompts.length} answers ended at end-of-turn`);
  });

  it("generates complete, schema-valid JSON under a JSON-schema grammar (each schema at each temperature)", async (t) => {
    // The soak (18 runs a schema): npm run bench -- tiny-grammar.
    const r = await grammarRounds(llama, session, sequence, 4);
    t.diagnostic(r.summary);
    assert.equal(r.runs, Object.keys(GRAMMAR_SCHEMAS).length * 4);
    assert.deepEqual(r.failures, []);
    assert.equal(r.exponentForms, 0);
  });
});
