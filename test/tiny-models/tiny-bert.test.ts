// The generated tiny BERT model, loaded by the real transformers.js from the local folder.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { basename, dirname } from "node:path";
import { env, pipeline, type FeatureExtractionPipeline } from "@huggingface/transformers";
import fc from "fast-check";
import { tinyModelPaths } from "../../lib/config.js";
import {
  buildTinyBert,
  TINY_BERT_DEFAULT_SEED,
  TINY_BERT_FILES,
  TINY_BERT_HIDDEN_SIZE,
  TinyBertOptionsError,
  writeTinyBert,
} from "../../scripts/dev/tiny-models/tiny-bert.js";

const TIMEOUT = { timeout: 60_000 };
const modelDir = tinyModelPaths().embeddingDir;
const POOLING = { pooling: "mean", normalize: true } as const;
// One thread keeps the test polite on small shared machines.
const SESSION_OPTIONS = { intraOpNumThreads: 1, interOpNumThreads: 1 };

/** (sentence, near-paraphrase, unrelated sentence) */
const TRIPLES: [string, string, string][] = [
  [
    "Der Zug nach Berlin fährt um acht Uhr ab.",
    "Um acht Uhr fährt der Zug nach Berlin.",
    "Im Garten blühen im Frühling viele Blumen.",
  ],
  [
    "Morgen wird das Wetter in München sonnig und warm.",
    "In München ist es morgen warm und sonnig.",
    "Das Modell beantwortet Fragen zu Dokumenten.",
  ],
  [
    "Das Hotel in Barcelona ist teuer.",
    "Das Hotelzimmer in Barcelona kostet viel Geld.",
    "Ich lerne jeden Tag neue Wörter.",
  ],
  ["Übermorgen regnet es in Köln.", "In Köln regnet es übermorgen stark.", "Die Straße ist geschlossen."],
];

const UMLAUT_SENTENCES = [
  "Grüße aus Düsseldorf: Die Straßenbahn fährt über die Brücke.",
  "Öffnungszeiten des Schlosses: täglich 9–17 Uhr, Eintritt 12,50 €.",
  "Äpfel, Birnen und Gemüse gibt es auf dem Wochenmarkt in Würzburg.",
  "ÜBERMORGEN SCHLIESST DAS MUSEUM FRÜHER (wegen Bauarbeiten).",
];

function cosine(a: readonly number[], b: readonly number[]): number {
  assert.equal(a.length, b.length);
  return a.reduce((sum, x, i) => sum + x * b[i]!, 0);
}

let fp32: FeatureExtractionPipeline;
let q8: FeatureExtractionPipeline;

async function embed(
  extractor: FeatureExtractionPipeline,
  texts: string[],
): Promise<{ dims: number[]; rows: number[][] }> {
  const out = await extractor(texts, POOLING);
  return { dims: out.dims, rows: out.tolist() as number[][] };
}

describe("tiny BERT model files", () => {
  test("same seed gives identical bytes, another seed other weights but the same tokenizer", TIMEOUT, () => {
    const a = buildTinyBert({ seed: 7 });
    const b = buildTinyBert({ seed: 7 });
    const c = buildTinyBert({ seed: 8 });
    for (const file of TINY_BERT_FILES) assert.deepEqual(a[file], b[file], file);
    assert.notDeepEqual(a["onnx/model.onnx"], c["onnx/model.onnx"]);
    assert.deepEqual(a["tokenizer.json"], c["tokenizer.json"]);
  });

  test("config and tokenizer describe a 64-dimensional BERT with a German WordPiece vocabulary", TIMEOUT, () => {
    const files = buildTinyBert();
    const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
    const config = decode(files["config.json"]);
    assert.equal(config.model_type, "bert");
    assert.equal(config.hidden_size, TINY_BERT_HIDDEN_SIZE);
    const tokenizer = decode(files["tokenizer.json"]) as {
      model: { type: string; vocab: Record<string, number> };
      normalizer: { normalizers: { type: string; strip_accents?: unknown; lowercase?: unknown }[] };
    };
    assert.equal(tokenizer.model.type, "WordPiece");
    const vocabSize = Object.keys(tokenizer.model.vocab).length;
    assert.equal(config.vocab_size, vocabSize);
    assert.ok(vocabSize >= 700 && vocabSize <= 1000, `vocabulary of ${vocabSize} tokens`);
    for (const token of ["ä", "##ö", "##ü", "ß", "##ß", "straße", "##ung"])
      assert.ok(token in tokenizer.model.vocab, token);
    const bert = tokenizer.normalizer.normalizers.find((n) => n.type === "BertNormalizer");
    assert.equal(bert?.strip_accents, false);
    assert.equal(bert?.lowercase, true);
    const total = Object.values(files).reduce((n, bytes) => n + bytes.length, 0);
    assert.ok(total > 200_000 && total < 800_000, `about 0.5 MB, got ${total} bytes`);
  });

  test("bad options are rejected with a typed error", () => {
    for (const seed of [-1, 1.5, 2 ** 32, Number.NaN]) {
      assert.throws(() => buildTinyBert({ seed }), TinyBertOptionsError);
    }
    return assert.rejects(writeTinyBert(""), TinyBertOptionsError);
  });
});

describe("tiny BERT in transformers.js", () => {
  before(async () => {
    await writeTinyBert(modelDir, { seed: TINY_BERT_DEFAULT_SEED });
    env.localModelPath = dirname(modelDir);
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    fp32 = await pipeline("feature-extraction", basename(modelDir), {
      dtype: "fp32",
      session_options: SESSION_OPTIONS,
    });
    q8 = await pipeline("feature-extraction", basename(modelDir), { dtype: "q8", session_options: SESSION_OPTIONS });
  });

  after(async () => {
    await fp32?.dispose();
    await q8?.dispose();
  });

  test("mean-pooled, normalised vectors: dims [n, 64], unit length", TIMEOUT, async () => {
    const texts = TRIPLES.flat();
    const { dims, rows } = await embed(fp32, texts);
    assert.deepEqual(dims, [texts.length, TINY_BERT_HIDDEN_SIZE]);
    for (const row of rows) {
      assert.ok(row.every(Number.isFinite));
      assert.ok(Math.abs(Math.hypot(...row) - 1) < 1e-5, `norm ${Math.hypot(...row)}`);
    }
  });

  test("identical text gives an identical vector, also when batched with longer texts", TIMEOUT, async () => {
    const text = "Wie wird das Wetter morgen in Zürich?";
    const alone = await embed(fp32, [text]);
    const again = await embed(fp32, [text]);
    assert.deepEqual(alone.rows, again.rows);
    const batched = await embed(fp32, [UMLAUT_SENTENCES[1]!, text, TRIPLES[0]![0]]);
    // Padding must not change a vector: the model masks padded positions.
    assert.ok(cosine(alone.rows[0]!, batched.rows[1]!) > 0.99999);
  });

  test("last_hidden_state is [batch, seq, 64] and zero at padded positions", TIMEOUT, async () => {
    const texts = ["Hallo", "Der Zug nach Berlin fährt um acht Uhr ab."];
    const out = await fp32(texts, { pooling: "none" });
    const [batch, seq, hidden] = out.dims;
    assert.equal(batch, 2);
    assert.equal(hidden, TINY_BERT_HIDDEN_SIZE);
    const states = out.tolist() as number[][][];
    const shortLength = fp32.tokenizer.tokenize(texts[0]!).length + 2; // + [CLS] and [SEP]
    assert.ok(seq! > shortLength);
    for (let position = 0; position < seq!; position++) {
      const zero = states[0]![position]!.every((x) => x === 0);
      assert.equal(zero, position >= shortLength, `position ${position}`);
    }
  });

  test("German text with umlauts, ß, digits and punctuation tokenizes without [UNK]", TIMEOUT, () => {
    const tokenizer = fp32.tokenizer;
    const unk = tokenizer.unk_token_id;
    assert.equal(typeof unk, "number");
    for (const sentence of UMLAUT_SENTENCES) {
      const tokens = tokenizer.tokenize(sentence);
      assert.ok(!tokens.includes("[UNK]"), `${sentence} → ${tokens.join(" ")}`);
      assert.ok(
        tokens.some((t) => /[äöüß]/.test(t)),
        `umlauts kept: ${tokens.join(" ")}`,
      );
      const ids = tokenizer(sentence).input_ids.tolist() as bigint[][];
      assert.ok(!ids[0]!.includes(BigInt(unk!)));
    }
    // Decomposed umlauts (a + U+0308, as some file systems store them) map to the same tokens.
    const nfc = "Grüße aus Köln";
    assert.deepEqual(tokenizer.tokenize(nfc.normalize("NFD")), tokenizer.tokenize(nfc));
    // Any text over a German alphabet with digits and punctuation avoids [UNK].
    const alphabet = [..."abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ0123456789 .,;:!?-–()\"„“'€%&/"];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 60 }), (text) => {
        assert.ok(!tokenizer.tokenize(text).includes("[UNK]"), text);
      }),
      { numRuns: 300 },
    );
  });

  test("a sentence is closer to its paraphrase than to an unrelated sentence", TIMEOUT, async () => {
    for (const [sentence, paraphrase, unrelated] of TRIPLES) {
      const { rows } = await embed(fp32, [sentence, paraphrase, unrelated]);
      const near = cosine(rows[0]!, rows[1]!);
      const far = cosine(rows[0]!, rows[2]!);
      assert.ok(near > far + 0.1, `${sentence}: paraphrase ${near.toFixed(3)} vs unrelated ${far.toFixed(3)}`);
    }
  });

  test("word forms that share letters are closer than unrelated words (character n-grams)", TIMEOUT, async () => {
    for (const [word, form, other] of [
      ["Zug", "Züge", "Käse"],
      ["Stadt", "Städte", "Wetter"],
      ["Frage", "Fragen", "Brot"],
    ]) {
      // Each word is one vocabulary token, so only the n-gram vectors can make forms similar.
      assert.equal(fp32.tokenizer.tokenize(form!).length, 1, form);
      const { rows } = await embed(fp32, [word!, form!, other!]);
      const near = cosine(rows[0]!, rows[1]!);
      const far = cosine(rows[0]!, rows[2]!);
      assert.ok(near > far + 0.05, `${word}: ${form} ${near.toFixed(3)} vs ${other} ${far.toFixed(3)}`);
    }
  });

  test("the q8 model (model_quantized.onnx) loads and agrees with fp32", TIMEOUT, async () => {
    const texts = TRIPLES.flat();
    const a = await embed(fp32, texts);
    const b = await embed(q8, texts);
    assert.deepEqual(b.dims, a.dims);
    texts.forEach((text, i) => assert.ok(cosine(a.rows[i]!, b.rows[i]!) > 0.99, text));
    const [sentence, paraphrase, unrelated] = TRIPLES[0]!;
    const { rows } = await embed(q8, [sentence, paraphrase, unrelated]);
    assert.ok(cosine(rows[0]!, rows[1]!) > cosine(rows[0]!, rows[2]!));
  });

  test("texts longer than the 512 positions are truncated, not rejected", TIMEOUT, async () => {
    const long = Array.from({ length: 400 }, (_, i) => `Satz ${i} über Reisen.`).join(" ");
    const { dims, rows } = await embed(fp32, [long, "kurz"]);
    assert.deepEqual(dims, [2, TINY_BERT_HIDDEN_SIZE]);
    assert.ok(rows[0]!.every(Number.isFinite));
  });
});
