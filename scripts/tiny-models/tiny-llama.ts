// Generates a tiny random-weight Llama GGUF for tests (no downloads, nothing committed).
// CLI: npx tsx scripts/tiny-models/tiny-llama.ts <out.gguf> [--seed N]
//
// Random weights alone make a model ramble until maxTokens. To make generation terminate, the
// attention/FFN outputs are kept small, so the final hidden state is close to the embedding of the
// last token; the output matrix then reads designed "features" from it:
//   - dimension 0 is the same for every token, so its output column is a per-token bias
//     (favour closing quotes/brackets, penalise control tokens, whitespace, exponents, …);
//   - dimensions 1..N encode the class of the last token ("after a digit", "after a quote", …),
//     so their output columns are "after X prefer Y" rules.
// Plain chat thus says one short sentence ("Das ist gut.") and ends with <|eot_id|>; under a
// JSON grammar strings get one sentence and close, numbers stay one digit, arrays close soon.
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { encodeGguf, GgmlType, gguf, writeGgufFile, type GgufTensor, type GgufValue } from "./gguf-writer.js";
import { mulberry32 } from "./prng.js";
import {
  buildTinyVocab, isValidUtf8Token, SENTENCE_WORDS, TINY_LLAMA_CHAT_TEMPLATE, TokenType, type TinyVocab,
} from "./tiny-llama-vocab.js";

export { mulberry32 };

export const TINY_LLAMA_DEFAULT_SEED = 20240726;

export const TINY_LLAMA_SHAPE = {
  embedding: 64,
  blocks: 2,
  heads: 4,
  kvHeads: 4,
  feedForward: 128,
  context: 32768,
  ropeBase: 500000,
} as const;


function gaussian(rand: () => number): () => number {
  return () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
}

// Classes of the last token; each owns one embedding dimension (1 + class index).
const CLASSES = [
  "newline", "quote", "starter", "verb", "adjective", "ending", "other", "digit", "colon",
  "openBracket", "openBrace", "closeBrace", "closeBracket", "comma", "space",
] as const;
type TokenClass = (typeof CLASSES)[number];

/** Designed logit contributions; the random part adds roughly N(0, 0.7) on top. */
function designLogits(vocab: TinyVocab): { bias: Float32Array; rules: Map<TokenClass, Float32Array>; classOf: TokenClass[] } {
  const n = vocab.tokens.length;
  const id = (t: string): number => vocab.idOf(t);
  const eot = id("<|eot_id|>");
  const digits = [..."0123456789"].map(id);
  const starters = SENTENCE_WORDS.starters.map(id);
  const verbs = SENTENCE_WORDS.verbs.map(id);
  const adjectives = SENTENCE_WORDS.adjectives.map(id);
  const endings = SENTENCE_WORDS.endings.map(id);
  const [quote, openBrace, closeBrace, openBracket, closeBracket, comma, dot] = ["\"", "{", "}", "[", "]", ",", "."].map(id);

  const bias = new Float32Array(n);
  const add = (arr: Float32Array, ids: number | undefined | readonly number[], value: number): void => {
    for (const i of typeof ids === "number" ? [ids] : ids ?? []) arr[i] = (arr[i] ?? 0) + value;
  };
  vocab.texts.forEach((text, i) => {
    const token = vocab.tokens[i] ?? "";
    if (vocab.tokenTypes[i] === TokenType.CONTROL) bias[i] = i === eot ? -4 : -30;
    else if (!isValidUtf8Token(token)) bias[i] = -14;
    else if (/^[\n]+$/.test(text)) bias[i] = -6;
    else if (/^[ \t]+$/.test(text)) bias[i] = -10;
    else if ([...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\u007f")) bias[i] = -20; // control characters
  });
  add(bias, quote, 6);
  add(bias, closeBrace, 5);
  add(bias, closeBracket, 5);
  add(bias, comma, 2);
  add(bias, openBrace, 2);
  add(bias, openBracket, 1);
  add(bias, digits.slice(1), 2);
  add(bias, digits[0], 1);
  add(bias, ["-", "+", "e", "E"].map(id), -5);
  add(bias, id("\\"), -14);

  const rules = new Map<TokenClass, Float32Array>(CLASSES.map((c) => [c, new Float32Array(n)]));
  const rule = (c: TokenClass, ids: number | undefined | readonly number[], value: number): void => add(rules.get(c) as Float32Array, ids, value);
  rule("newline", starters, 16);
  rule("newline", openBrace, 6);
  rule("newline", openBracket, 4);
  rule("quote", starters, 16);
  rule("starter", verbs, 16);
  rule("verb", adjectives, 16);
  rule("adjective", endings, 16);
  rule("ending", eot, 28);
  rule("ending", quote, 12);
  rule("ending", starters, 8); // a string that must be longer gets another sentence
  rule("other", endings, 10);
  rule("other", eot, 4);
  rule("digit", [closeBrace ?? -1, closeBracket ?? -1].filter((i) => i >= 0), 8);
  rule("digit", comma, 3);
  rule("digit", eot, 8);
  rule("digit", quote, 10); // inside a string a digit is followed by the closing quote
  rule("digit", digits, -12);
  rule("digit", dot, -12);
  rule("digit", ["e", "E"].map(id), -30);
  rule("colon", digits, 4);
  rule("colon", quote, 2);
  rule("openBracket", openBrace, 8);
  rule("openBracket", digits, 4);
  rule("openBracket", quote, 2);
  rule("openBracket", closeBracket, -8);
  rule("openBrace", quote, 4);
  rule("openBrace", closeBrace, -4);
  rule("closeBrace", closeBracket, 6);
  rule("closeBrace", closeBrace, 2);
  rule("closeBrace", eot, 18);
  rule("closeBrace", comma, -2);
  rule("closeBrace", quote, 10); // only reachable inside a string: close it
  rule("closeBracket", closeBrace, 6);
  rule("closeBracket", eot, 18);
  rule("closeBracket", quote, 10);
  rule("comma", quote, 4);
  rule("comma", openBrace, 4);
  rule("comma", digits, 2);
  rule("space", quote, 4);
  rule("space", digits, 4);
  rule("space", openBrace, 2);

  const sets: [TokenClass, readonly number[]][] = [["starter", starters], ["verb", verbs], ["adjective", adjectives]];
  const classOf = vocab.texts.map((text, i): TokenClass => {
    if (vocab.tokenTypes[i] === TokenType.CONTROL) return "newline"; // e.g. right after a header or BOS
    for (const [c, ids] of sets) if (ids.includes(i)) return c;
    if (!isValidUtf8Token(vocab.tokens[i] ?? "")) return "other";
    const last = text.at(-1) ?? "";
    if (last === "\n") return "newline";
    if (last === "\"") return "quote";
    if (".!?".includes(last)) return "ending";
    if (/[0-9]/.test(last)) return "digit";
    if (last === ":") return "colon";
    if (last === "[") return "openBracket";
    if (last === "{") return "openBrace";
    if (last === "}") return "closeBrace";
    if (last === "]") return "closeBracket";
    if (last === ",") return "comma";
    if (last === " " || last === "\t") return "space";
    return "other";
  });
  return { bias, rules, classOf };
}

function buildTensors(vocab: TinyVocab, seed: number): GgufTensor[] {
  const { embedding: d, blocks, feedForward: ff } = TINY_LLAMA_SHAPE;
  const n = vocab.tokens.length;
  const rand = gaussian(mulberry32(seed));
  const normal = (count: number, std: number): Float32Array => Float32Array.from({ length: count }, () => rand() * std);
  const ones = (count: number): Float32Array => new Float32Array(count).fill(1);

  const { bias, rules, classOf } = designLogits(vocab);
  const C = 3; // value of the bias dimension and of the active class dimension
  const firstNoiseDim = 1 + CLASSES.length;
  const noiseDims = d - firstNoiseDim;

  // Token embeddings: [C, one-hot class * C, noise], rescaled so each row has RMS exactly 1
  // (then RMSNorm leaves the designed dimensions untouched).
  const embd = new Float32Array(n * d);
  for (let v = 0; v < n; v++) {
    const row = embd.subarray(v * d, (v + 1) * d);
    row[0] = C;
    row[1 + CLASSES.indexOf(classOf[v] ?? "other")] = C;
    const noise = normal(noiseDims, 1);
    const noiseNorm = Math.sqrt(noise.reduce((s, x) => s + x * x, 0));
    const target = Math.sqrt(d - 2 * C * C);
    for (let j = 0; j < noiseDims; j++) row[firstNoiseDim + j] = ((noise[j] ?? 0) / noiseNorm) * target;
  }

  // Output matrix: row v gives logit(v) = bias[v] + rules[class(last)][v] + small random part.
  const output = new Float32Array(n * d);
  for (let v = 0; v < n; v++) {
    const row = output.subarray(v * d, (v + 1) * d);
    row[0] = (bias[v] ?? 0) / C;
    CLASSES.forEach((c, k) => {
      row[1 + k] = (rules.get(c)?.[v] ?? 0) / C;
    });
    const noise = normal(noiseDims, 0.1);
    row.set(noise, firstNoiseDim);
  }

  const f16 = (name: string, dims: number[], data: Float32Array): GgufTensor => ({ name, dims, type: GgmlType.F16, data });
  const f32 = (name: string, dims: number[], data: Float32Array): GgufTensor => ({ name, dims, type: GgmlType.F32, data });
  const tensors: GgufTensor[] = [f16("token_embd.weight", [d, n], embd), f32("output_norm.weight", [d], ones(d)), f16("output.weight", [d, n], output)];
  const initStd = 1 / Math.sqrt(d);
  for (let b = 0; b < blocks; b++) {
    const p = `blk.${b}.`;
    tensors.push(
      f32(p + "attn_norm.weight", [d], ones(d)),
      f16(p + "attn_q.weight", [d, d], normal(d * d, initStd)),
      f16(p + "attn_k.weight", [d, d], normal(d * d, initStd)),
      f16(p + "attn_v.weight", [d, d], normal(d * d, initStd)),
      // Small output projections keep the residual stream close to the token embedding.
      f16(p + "attn_output.weight", [d, d], normal(d * d, 0.01)),
      f32(p + "ffn_norm.weight", [d], ones(d)),
      f16(p + "ffn_gate.weight", [d, ff], normal(d * ff, initStd)),
      f16(p + "ffn_up.weight", [d, ff], normal(d * ff, initStd)),
      f16(p + "ffn_down.weight", [ff, d], normal(ff * d, 0.008)),
    );
  }
  return tensors;
}

function buildMetadata(vocab: TinyVocab): Record<string, GgufValue> {
  const s = TINY_LLAMA_SHAPE;
  return {
    "general.architecture": gguf.str("llama"),
    "general.type": gguf.str("model"),
    "general.name": gguf.str("Tiny Test Model"),
    "general.description": gguf.str("Random-weight model for offline tests of the workshop kit; its output is meaningless."),
    "general.alignment": gguf.u32(32),
    "general.file_type": gguf.u32(1), // mostly F16
    "llama.vocab_size": gguf.u32(vocab.tokens.length),
    "llama.context_length": gguf.u32(s.context),
    "llama.embedding_length": gguf.u32(s.embedding),
    "llama.block_count": gguf.u32(s.blocks),
    "llama.feed_forward_length": gguf.u32(s.feedForward),
    "llama.attention.head_count": gguf.u32(s.heads),
    "llama.attention.head_count_kv": gguf.u32(s.kvHeads),
    "llama.attention.layer_norm_rms_epsilon": gguf.f32(1e-5),
    "llama.rope.freq_base": gguf.f32(s.ropeBase),
    "llama.rope.dimension_count": gguf.u32(s.embedding / s.heads),
    "tokenizer.ggml.model": gguf.str("gpt2"),
    "tokenizer.ggml.pre": gguf.str("llama-bpe"),
    "tokenizer.ggml.tokens": gguf.strings(vocab.tokens),
    "tokenizer.ggml.token_type": gguf.i32s(vocab.tokenTypes),
    "tokenizer.ggml.merges": gguf.strings(vocab.merges),
    "tokenizer.ggml.bos_token_id": gguf.u32(vocab.idOf("<|begin_of_text|>")),
    "tokenizer.ggml.eos_token_id": gguf.u32(vocab.idOf("<|eot_id|>")),
    "tokenizer.ggml.padding_token_id": gguf.u32(vocab.idOf("<|finetune_right_pad_id|>")),
    "tokenizer.ggml.add_bos_token": gguf.bool(true),
    "tokenizer.chat_template": gguf.str(TINY_LLAMA_CHAT_TEMPLATE),
  };
}

export interface TinyLlamaOptions {
  /** PRNG seed for the random part of the weights (default TINY_LLAMA_DEFAULT_SEED). */
  seed?: number;
}

/** The complete GGUF file as bytes. Same seed → byte-identical output. */
export function encodeTinyLlamaGguf(options: TinyLlamaOptions = {}): Buffer {
  const seed = options.seed ?? TINY_LLAMA_DEFAULT_SEED;
  if (!Number.isInteger(seed)) throw new TypeError(`seed must be an integer, got ${String(seed)}`);
  const vocab = buildTinyVocab();
  return encodeGguf(buildMetadata(vocab), buildTensors(vocab, seed));
}

/** The tiny Llama's metadata and tensors (for writers other than encodeGguf, e.g. the streaming one). */
export function tinyLlamaGgufParts(options: TinyLlamaOptions = {}): { metadata: Record<string, GgufValue>; tensors: GgufTensor[] } {
  const seed = options.seed ?? TINY_LLAMA_DEFAULT_SEED;
  const vocab = buildTinyVocab();
  return { metadata: buildMetadata(vocab), tensors: buildTensors(vocab, seed) };
}

/** Writes the tiny Llama GGUF to `path` (parent folders are created). */
export async function writeTinyLlamaGguf(path: string, options: TinyLlamaOptions = {}): Promise<void> {
  const seed = options.seed ?? TINY_LLAMA_DEFAULT_SEED;
  if (!Number.isInteger(seed)) throw new TypeError(`seed must be an integer, got ${String(seed)}`);
  const vocab = buildTinyVocab();
  await mkdir(dirname(resolve(path)), { recursive: true });
  await writeGgufFile(path, buildMetadata(vocab), buildTensors(vocab, seed));
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf("--seed");
  const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : undefined;
  const out = args.find((a, i) => !a.startsWith("--") && (seedAt < 0 || i !== seedAt + 1));
  if (!out || (seed !== undefined && !Number.isInteger(seed))) {
    console.error("Aufruf: npx tsx scripts/tiny-models/tiny-llama.ts <ziel.gguf> [--seed <ganze Zahl>]");
    process.exit(2);
  }
  const started = performance.now();
  await writeTinyLlamaGguf(out, { seed });
  console.log(`${out} geschrieben (${Math.round(performance.now() - started)} ms)`);
}
