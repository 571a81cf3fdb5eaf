// Generates a tiny BERT-style feature-extraction model for transformers.js, without downloads or
// Python: a WordPiece tokenizer for German text and an ONNX graph (opset 13) that maps tokens to
// 64-dimensional vectors. Not trained: word vectors are sums of hashed character n-gram vectors,
// so words that share letters get similar vectors, and mean-pooled sentences that share words are
// similar. A weak but repeatable signal for tests of the RAG code; same seed → same bytes.
//
// CLI: npx tsx scripts/dev/tiny-models/tiny-bert.ts <dir> [--seed <n>]
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeModel, OnnxDataType, type GraphSpec, type NodeSpec, type TensorSpec } from "./onnx-proto.js";
import { isSplitPunctuation, SPECIAL_TOKENS, STOP_WORDS, tinyBertVocabulary } from "./tiny-bert-vocab.js";
import { mulberry32 } from "./prng.js";
import { errorText } from "../../../lib/util.js";
import { KitError } from "../../../lib/errors.js";

export const TINY_BERT_HIDDEN_SIZE = 64;
export const TINY_BERT_MAX_POSITIONS = 512;
export const TINY_BERT_DEFAULT_SEED = 20240917;
const OPSET = 13;
const TYPE_VOCAB_SIZE = 2;

export class TinyBertOptionsError extends KitError {
  override name = "TinyBertOptionsError";
  constructor(
    message: string,
    readonly input: unknown,
  ) {
    super(message);
  }
}

export interface TinyBertOptions {
  /** Unsigned 32-bit integer; changes the weights, not the vocabulary. */
  seed?: number;
}

/** Files of the model folder, relative to it; onnx/model.onnx comes last (see writeTinyBert). */
export const TINY_BERT_FILES = [
  "config.json",
  "tokenizer.json",
  "tokenizer_config.json",
  "special_tokens_map.json",
  "onnx/model_quantized.onnx",
  "onnx/model.onnx",
] as const;

/** Relative path inside the model folder → file content. */
export type TinyBertFiles = Record<(typeof TINY_BERT_FILES)[number], Uint8Array>;

// ---------------------------------------------------------------------------------------------
// Deterministic numbers (integer arithmetic and sqrt only, so every platform gives the same bits)

/** FNV-1a over the UTF-8 bytes of `text`, started from a seed-dependent basis. */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Approximately standard-normal values (Irwin–Hall sum of four uniforms). */
function gaussians(rng: () => number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = (rng() + rng() + rng() + rng() - 2) * Math.sqrt(3);
  return out;
}

function normalize(v: Float64Array): Float64Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm > 0 ? v.map((x) => x / norm) : v;
}

// ---------------------------------------------------------------------------------------------
// Word vectors from hashed character n-grams

/** Letters folded to ASCII for the n-grams only, so "Züge" shares grams with "Zug". */
function foldForGrams(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ß/g, "ss")
    .replace(/æ/g, "ae")
    .replace(/œ/g, "oe")
    .replace(/ø/g, "o");
}

function charGrams(marked: string): string[] {
  const chars = [...marked];
  if (chars.length < 3) return [marked];
  const grams: string[] = [];
  for (let n = 3; n <= 5; n++) {
    for (let i = 0; i + n <= chars.length; i++) grams.push(chars.slice(i, i + n).join(""));
  }
  return grams;
}

const STOP_WORD_SET = new Set(STOP_WORDS);

/** Vector length by kind of token: content words dominate a mean-pooled sentence. */
function tokenWeight(token: string): number {
  if (token === "[PAD]") return 0;
  if (token === "[CLS]" || token === "[SEP]") return 0.1;
  if ((SPECIAL_TOKENS as readonly string[]).includes(token)) return 0.5;
  const core = token.startsWith("##") ? token.slice(2) : token;
  if ([...core].length === 1) return isSplitPunctuation(core) ? 0.25 : 0.5;
  if (STOP_WORD_SET.has(token)) return 0.35;
  return token.startsWith("##") ? 0.8 : 1;
}

function tokenVector(token: string, seed: number, dim: number): Float64Array {
  const weight = tokenWeight(token);
  if (weight === 0) return new Float64Array(dim);
  const own = normalize(gaussians(mulberry32(hash32(`token:${token}`, seed)), dim));
  if ((SPECIAL_TOKENS as readonly string[]).includes(token)) return own.map((x) => x * weight);
  const isPiece = token.startsWith("##");
  const core = foldForGrams(isPiece ? token.slice(2) : token);
  const marked = isPiece ? `#${core}` : `<${core}>`;
  const grams = new Float64Array(dim);
  for (const gram of charGrams(marked)) {
    const g = gaussians(mulberry32(hash32(`gram:${gram}`, seed)), dim);
    for (let i = 0; i < dim; i++) grams[i]! += g[i]!;
  }
  const shared = normalize(grams);
  const mixed = normalize(shared.map((x, i) => 0.75 * x + 0.5 * own[i]!));
  return mixed.map((x) => x * weight);
}

/** Random orthogonal matrix (modified Gram–Schmidt on Gaussian rows), times `scale`. */
function orthogonal(rng: () => number, dim: number, scale: number): Float64Array[] {
  const rows: Float64Array[] = [];
  for (let r = 0; r < dim; r++) {
    let v = gaussians(rng, dim);
    for (const q of rows) {
      let dot = 0;
      for (let i = 0; i < dim; i++) dot += v[i]! * q[i]!;
      v = v.map((x, i) => x - dot * q[i]!);
    }
    rows.push(normalize(v));
  }
  return rows.map((row) => row.map((x) => x * scale));
}

interface Weights {
  vocab: string[];
  word: Float32Array; // [vocab, hidden]
  position: Float32Array; // [positions, hidden]
  tokenType: Float32Array; // [2, hidden]
  dense: Float32Array; // [hidden, hidden]
  bias: Float32Array; // [hidden]
}

function makeWeights(seed: number): Weights {
  const h = TINY_BERT_HIDDEN_SIZE;
  const vocab = tinyBertVocabulary();
  const word = new Float32Array(vocab.length * h);
  vocab.forEach((token, id) => word.set(tokenVector(token, seed, h), id * h));
  const rng = mulberry32(hash32("layers", seed));
  const position = Float32Array.from(gaussians(rng, TINY_BERT_MAX_POSITIONS * h), (x) => x * 0.02);
  const tokenType = Float32Array.from(gaussians(rng, TYPE_VOCAB_SIZE * h), (x) => x * 0.02);
  // Scale 2 keeps tanh mostly in its near-linear range, so similarities survive the layer.
  const dense = new Float32Array(h * h);
  orthogonal(rng, h, 2).forEach((row, r) => dense.set(row, r * h));
  const bias = Float32Array.from(gaussians(rng, h), (x) => x * 0.01);
  return { vocab, word, position, tokenType, dense, bias };
}

// ---------------------------------------------------------------------------------------------
// ONNX graphs

const i64 = (name: string, values: number[], dims: number[] = [values.length]): TensorSpec => ({
  name,
  dims,
  dataType: OnnxDataType.INT64,
  data: BigInt64Array.from(values, (v) => BigInt(v)),
});

const f32 = (name: string, data: Float32Array, dims: number[]): TensorSpec => ({
  name,
  dims,
  dataType: OnnxDataType.FLOAT,
  data,
});

/** Symmetric int8 quantisation, one scale per row (`rows` rows) or one for all (`rows` = 1). */
function quantize(data: Float32Array, rows: number): { q: Int8Array; scales: Float32Array } {
  const cols = data.length / rows;
  const q = new Int8Array(data.length);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let c = 0; c < cols; c++) max = Math.max(max, Math.abs(data[r * cols + c]!));
    const scale = Math.fround(max > 0 ? max / 127 : 1);
    scales[r] = scale;
    for (let c = 0; c < cols; c++)
      q[r * cols + c] = Math.max(-127, Math.min(127, Math.round(data[r * cols + c]! / scale)));
  }
  return { q, scales };
}

/**
 * Adds `name` as a float tensor to the graph: as a plain initializer, or (quantised) as int8
 * initializer + DequantizeLinear node.
 */
function weightSource(
  name: string,
  data: Float32Array,
  dims: number[],
  quantized: "none" | "per-row" | "per-tensor",
): { initializers: TensorSpec[]; nodes: NodeSpec[] } {
  if (quantized === "none") return { initializers: [f32(name, data, dims)], nodes: [] };
  const rows = quantized === "per-row" ? dims[0]! : 1;
  const { q, scales } = quantize(data, rows);
  const scaleDims = quantized === "per-row" ? [rows] : [];
  return {
    initializers: [
      { name: `${name}_quantized`, dims, dataType: OnnxDataType.INT8, data: q },
      f32(`${name}_scale`, scales, scaleDims),
      { name: `${name}_zero_point`, dims: scaleDims, dataType: OnnxDataType.INT8, data: new Int8Array(rows) },
    ],
    nodes: [
      {
        opType: "DequantizeLinear",
        name: `dequantize_${name}`,
        inputs: [`${name}_quantized`, `${name}_scale`, `${name}_zero_point`],
        outputs: [name],
        ...(quantized === "per-row" ? { attributes: { axis: { int: 0 } } } : {}),
      },
    ],
  };
}

function buildGraph(w: Weights, quantized: boolean): GraphSpec {
  const h = TINY_BERT_HIDDEN_SIZE;
  const sources = [
    weightSource("word_embeddings", w.word, [w.vocab.length, h], quantized ? "per-row" : "none"),
    weightSource("position_embeddings", w.position, [TINY_BERT_MAX_POSITIONS, h], quantized ? "per-tensor" : "none"),
    weightSource("dense_weight", w.dense, [h, h], quantized ? "per-tensor" : "none"),
  ];
  const initializers: TensorSpec[] = [
    ...sources.flatMap((s) => s.initializers),
    f32("token_type_embeddings", w.tokenType, [TYPE_VOCAB_SIZE, h]),
    f32("dense_bias", w.bias, [h]),
    i64("seq_axis", [1], []),
    i64("range_start", [0], []),
    i64("range_step", [1], []),
    i64("mask_axes", [2]),
  ];
  const node = (
    opType: string,
    inputs: string[],
    outputs: string[],
    attributes?: NodeSpec["attributes"],
  ): NodeSpec => ({
    opType,
    name: outputs[0]!,
    inputs,
    outputs,
    ...(attributes ? { attributes } : {}),
  });
  const nodes: NodeSpec[] = [
    ...sources.flatMap((s) => s.nodes),
    node("Gather", ["word_embeddings", "input_ids"], ["word_vectors"]),
    node("Shape", ["input_ids"], ["input_shape"]),
    node("Gather", ["input_shape", "seq_axis"], ["seq_len"]),
    node("Range", ["range_start", "seq_len", "range_step"], ["position_ids"]),
    node("Gather", ["position_embeddings", "position_ids"], ["position_vectors"]),
    node("Gather", ["token_type_embeddings", "token_type_ids"], ["type_vectors"]),
    node("Add", ["word_vectors", "position_vectors"], ["word_and_position"]),
    node("Add", ["word_and_position", "type_vectors"], ["embeddings"]),
    node("MatMul", ["embeddings", "dense_weight"], ["projected"]),
    node("Add", ["projected", "dense_bias"], ["pre_activation"]),
    node("Tanh", ["pre_activation"], ["activated"]),
    node("Cast", ["attention_mask"], ["mask_float"], { to: { int: OnnxDataType.FLOAT } }),
    node("Unsqueeze", ["mask_float", "mask_axes"], ["mask_3d"]),
    node("Mul", ["activated", "mask_3d"], ["last_hidden_state"]),
  ];
  const tokenInput = (name: string) => ({
    name,
    elemType: OnnxDataType.INT64,
    shape: ["batch_size", "sequence_length"],
  });
  return {
    name: quantized ? "tiny_bert_quantized" : "tiny_bert",
    nodes,
    initializers,
    inputs: [tokenInput("input_ids"), tokenInput("attention_mask"), tokenInput("token_type_ids")],
    outputs: [{ name: "last_hidden_state", elemType: OnnxDataType.FLOAT, shape: ["batch_size", "sequence_length", h] }],
  };
}

// ---------------------------------------------------------------------------------------------
// Tokenizer and config files

function tokenizerJson(vocab: string[]): object {
  const id = (t: string) => vocab.indexOf(t);
  const special = (t: string) => ({ [t]: { id: t, ids: [id(t)], tokens: [t] } });
  const seq = (s: "A" | "B", typeId: number) => ({ Sequence: { id: s, type_id: typeId } });
  const tok = (t: string, typeId: number) => ({ SpecialToken: { id: t, type_id: typeId } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((t) => ({
      id: id(t),
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    // NFC first so decomposed umlauts (a + U+0308) match the vocabulary; strip_accents must be
    // false (not null), otherwise lowercasing also strips the umlauts.
    normalizer: {
      type: "Sequence",
      normalizers: [
        { type: "NFC" },
        { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: false, lowercase: true },
      ],
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [tok("[CLS]", 0), seq("A", 0), tok("[SEP]", 0)],
      pair: [tok("[CLS]", 0), seq("A", 0), tok("[SEP]", 0), seq("B", 1), tok("[SEP]", 1)],
      special_tokens: { ...special("[CLS]"), ...special("[SEP]") },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

const TOKENIZER_CONFIG = {
  tokenizer_class: "BertTokenizer",
  do_lower_case: true,
  strip_accents: false,
  tokenize_chinese_chars: true,
  model_max_length: TINY_BERT_MAX_POSITIONS,
  padding_side: "right",
  truncation_side: "right",
  clean_up_tokenization_spaces: true,
  cls_token: "[CLS]",
  sep_token: "[SEP]",
  pad_token: "[PAD]",
  unk_token: "[UNK]",
  mask_token: "[MASK]",
};

function configJson(vocabSize: number, seed: number): object {
  return {
    _name_or_path: "tiny-bert",
    architectures: ["BertModel"],
    model_type: "bert",
    vocab_size: vocabSize,
    hidden_size: TINY_BERT_HIDDEN_SIZE,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: TINY_BERT_HIDDEN_SIZE,
    hidden_act: "tanh",
    hidden_dropout_prob: 0,
    attention_probs_dropout_prob: 0,
    max_position_embeddings: TINY_BERT_MAX_POSITIONS,
    type_vocab_size: TYPE_VOCAB_SIZE,
    initializer_range: 0.02,
    layer_norm_eps: 1e-12,
    pad_token_id: 0,
    torch_dtype: "float32",
    tiny_model: {
      generator: "scripts/dev/tiny-models/tiny-bert.ts",
      seed,
      note: "Synthetic test model (not trained): hashed character n-gram word vectors, one dense tanh layer.",
    },
  };
}

// ---------------------------------------------------------------------------------------------

function checkSeed(seed: unknown): number {
  if (seed === undefined) return TINY_BERT_DEFAULT_SEED;
  if (typeof seed !== "number" || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new TinyBertOptionsError(`seed must be an integer from 0 to 4294967295, got ${String(seed)}`, seed);
  }
  return seed;
}

/** All files of the model folder in memory. Same seed → identical bytes. */
export function buildTinyBert(options: TinyBertOptions = {}): TinyBertFiles {
  const seed = checkSeed(options.seed);
  const weights = makeWeights(seed);
  const json = (value: object) => new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");
  const model = (quantized: boolean) =>
    encodeModel({
      graph: buildGraph(weights, quantized),
      opsetVersion: OPSET,
      irVersion: 8,
      producerName: "workshop-kit tiny-bert",
      producerVersion: "1",
      docString: "Synthetic BERT-style feature-extraction model for offline tests (not trained).",
      metadata: { seed: String(seed) },
    });
  return {
    "config.json": json(configJson(weights.vocab.length, seed)),
    "tokenizer.json": json(tokenizerJson(weights.vocab)),
    "tokenizer_config.json": json(TOKENIZER_CONFIG),
    "special_tokens_map.json": json({
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      mask_token: "[MASK]",
    }),
    "onnx/model_quantized.onnx": model(true),
    "onnx/model.onnx": model(false),
  };
}

/**
 * Writes the model folder: config.json, tokenizer.json, tokenizer_config.json,
 * special_tokens_map.json, onnx/model.onnx (fp32) and onnx/model_quantized.onnx (int8 weights).
 * Each file is replaced atomically; onnx/model.onnx is written last, so its presence means the
 * folder is complete.
 */
export async function writeTinyBert(dir: string, options: TinyBertOptions = {}): Promise<void> {
  if (typeof dir !== "string" || dir.trim() === "") {
    throw new TinyBertOptionsError("writeTinyBert needs a folder path, e.g. models/tiny/tiny-bert", dir);
  }
  const files = buildTinyBert(options);
  await mkdir(join(dir, "onnx"), { recursive: true });
  for (const relative of TINY_BERT_FILES) {
    // Write-then-rename, so a reader never sees a half-written file.
    const target = join(dir, relative);
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, files[relative]);
    await rename(temp, target);
  }
}

async function main(argv: string[]): Promise<void> {
  const seedAt = argv.indexOf("--seed");
  const seedText = seedAt >= 0 ? argv[seedAt + 1] : undefined;
  const dir = argv.find((a, i) => !a.startsWith("--") && (seedAt < 0 || i !== seedAt + 1));
  if (!dir || (seedAt >= 0 && !/^\d+$/.test(seedText ?? ""))) {
    console.error("usage: npx tsx scripts/dev/tiny-models/tiny-bert.ts <dir> [--seed <unsigned integer>]");
    process.exitCode = 2;
    return;
  }
  const started = performance.now();
  await writeTinyBert(dir, { seed: seedText === undefined ? undefined : Number(seedText) });
  const ms = Math.round(performance.now() - started);
  let total = 0;
  for (const relative of TINY_BERT_FILES) {
    const size = (await stat(join(dir, relative))).size;
    total += size;
    console.log(`${String(size).padStart(8)}  ${join(dir, relative)}`);
  }
  console.log(`${String(total).padStart(8)}  bytes in total, written in ${ms} ms`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(errorText(error));
    process.exitCode = 1;
  });
}
