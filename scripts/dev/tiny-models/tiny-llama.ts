// Generates a tiny random-weight Llama GGUF for tests (no downloads, nothing committed).
// CLI: npx tsx scripts/dev/tiny-models/tiny-llama.ts <out.gguf> [--seed N]
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
import { buildLlama3Vocab, llama3TokenizerMetadata } from "./llama3-vocab.js";
import { isValidUtf8Token, TokenType, type TinyVocab } from "./tiny-llama-vocab.js";

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

/**
 * Words the model "says": a sentence is one starter, one verb, one adjective and an ending, each a
 * single Llama 3 token. A chat answer ("Das ist gut.") ends with "." and then end-of-turn; a JSON
 * string ("Es bleibt klar!") uses other words and ends with "!" and then its closing quote. Two
 * chains, because the model only sees the last token, and under a grammar every first choice the
 * grammar rejects costs a pass over the whole vocabulary (end-of-turn inside a string would be one).
 */
export const SENTENCE_WORDS = {
  chat: {
    starters: ["Das", "Hier"],
    verbs: [" ist", " wird"],
    adjectives: [" schön", " gut", " möglich"],
    ending: ".",
  },
  json: {
    starters: ["Es", "Dies"],
    verbs: [" bleibt", " wäre"],
    adjectives: [" klar", " richtig", " einfach"],
    ending: "!",
  },
} as const;

// Classes of the last token; each owns one embedding dimension (1 + class index).
const CLASSES = [
  "newline",
  "quote",
  "starter",
  "verb",
  "adjective",
  "ending",
  "jsonStarter",
  "jsonVerb",
  "jsonAdjective",
  "jsonEnding",
  "other",
  "digit",
  "colon",
  "openBracket",
  "openBrace",
  "closeBrace",
  "closeBracket",
  "comma",
  "space",
] as const;
type TokenClass = (typeof CLASSES)[number];

/** Bias of every ordinary token (word pieces, other punctuation): far below the designed ones. */
const REST_BIAS = -8;
/** JSON structure characters and their bias as the first character of a structure token. */
const STRUCTURE_BIAS: Record<string, number> = { '"': 6, "}": 5, "]": 5, ",": 2, "{": 2, "[": 1, ":": 0 };
const STRUCTURE = /^[{}[\],:"]+$/;

/** Token ids grouped by decoded text: JSON structure tokens by first character, numbers, word lists. */
function tokenGroups(vocab: TinyVocab) {
  const structure = new Map<string, number[]>(Object.keys(STRUCTURE_BIAS).map((c) => [c, []]));
  const digits: number[] = [];
  const names: number[] = [];
  const exponentStarts: number[] = []; // e, E, +, -, . at the start: what turns "5" into "5e3"/"5.0"
  vocab.texts.forEach((text, i) => {
    if (vocab.tokenTypes[i] !== TokenType.NORMAL) return;
    if (STRUCTURE.test(text) && !/""|\[\]|\{\}/.test(text)) structure.get(text[0] ?? "")?.push(i);
    else if (/^[0-9]+$/.test(text)) digits.push(i);
    else if (/^[A-Za-z_$][A-Za-z0-9_]*$/.test(text)) names.push(i);
    if (/^[eE+\-.]/.test(text)) exponentStarts.push(i);
  });
  const chain = (w: (typeof SENTENCE_WORDS)["chat" | "json"]) => ({
    starters: w.starters.map((t) => vocab.idOf(t)),
    verbs: w.verbs.map((t) => vocab.idOf(t)),
    adjectives: w.adjectives.map((t) => vocab.idOf(t)),
    ending: vocab.idOf(w.ending),
  });
  const group = (c: string): number[] => structure.get(c) ?? [];
  return {
    structure,
    digits,
    names,
    exponentStarts,
    group,
    chat: chain(SENTENCE_WORDS.chat),
    json: chain(SENTENCE_WORDS.json),
  };
}

/** Per-token bias: control tokens, broken bytes, whitespace and the rest of the vocabulary pushed down. */
function baseBias(vocab: TinyVocab, g: ReturnType<typeof tokenGroups>, broken: readonly boolean[]): Float32Array {
  const eot = vocab.idOf("<|eot_id|>");
  const bias = new Float32Array(vocab.tokens.length);
  vocab.texts.forEach((text, i) => {
    if (vocab.tokenTypes[i] === TokenType.CONTROL) bias[i] = i === eot ? -4 : -30;
    else if (broken[i]) bias[i] = -14;
    else if (/^\s+$/.test(text)) bias[i] = text.includes("\n") ? -6 : -10;
    else if ([...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\u007f"))
      bias[i] = -20; // control characters
    else if (text.includes("\\")) bias[i] = -14;
    else bias[i] = REST_BIAS;
  });
  // Structure tokens: the bias of their first character, three less per further character (a string
  // that starts with `"],"` is valid JSON but no sentence).
  for (const [c, ids] of g.structure)
    for (const i of ids) bias[i] = (STRUCTURE_BIAS[c] ?? 0) - 3 * ((vocab.texts[i]?.length ?? 1) - 1);
  // Names (JSON keys, enum values, tool names): longer is likelier, so a key the grammar forces
  // comes as one token where Llama 3 has one — each token the grammar rejects costs a full pass.
  for (const i of g.names) bias[i] = REST_BIAS + Math.min(0.8 * (vocab.texts[i]?.length ?? 0), 8);
  for (const i of g.digits) bias[i] = vocab.texts[i] === "0" ? 1 : (vocab.texts[i]?.length ?? 1) === 1 ? 2 : 0;
  for (const i of g.exponentStarts) bias[i] = Math.min(bias[i] ?? 0, -5);
  for (const c of [g.chat, g.json]) for (const i of [...c.starters, ...c.verbs, ...c.adjectives, c.ending]) bias[i] = 0;
  return bias;
}

/** Designed logit contributions; the random part adds roughly N(0, 0.7) on top. */
function designLogits(vocab: TinyVocab): {
  bias: Float32Array;
  rules: Map<TokenClass, Float32Array>;
  classOf: TokenClass[];
} {
  const n = vocab.tokens.length;
  const eot = vocab.idOf("<|eot_id|>");
  const g = tokenGroups(vocab);
  const [quote, openBrace, closeBrace, openBracket, closeBracket, comma] = ['"', "{", "}", "[", "]", ","].map(g.group);
  const broken = vocab.tokens.map((t) => !isValidUtf8Token(t)); // lone bytes of a multi-byte character
  const bias = baseBias(vocab, g, broken);
  const add = (arr: Float32Array, ids: number | undefined | readonly number[], value: number): void => {
    for (const i of typeof ids === "number" ? [ids] : (ids ?? [])) arr[i] = (arr[i] ?? 0) + value;
  };

  const rules = new Map<TokenClass, Float32Array>(CLASSES.map((c) => [c, new Float32Array(n)]));
  const rule = (c: TokenClass, ids: number | undefined | readonly number[], value: number): void =>
    add(rules.get(c) as Float32Array, ids, value);
  const { chat, json } = g;
  // Closing a string and going on in one token saves the grammar's rejections: `"}` first (an object's
  // last value), then `"]` (arrays close soon), then `",`.
  const closers = new Map(['"}', '"]', '",'].map((t, k) => [vocab.idOf(t), 8 - k] as const));
  rule("newline", chat.starters, 16);
  rule("newline", openBrace, 6);
  rule("newline", openBracket, 4);
  rule("quote", json.starters, 16);
  rule("starter", chat.verbs, 16);
  rule("verb", chat.adjectives, 16);
  rule("adjective", chat.ending, 16);
  rule("ending", eot, 28);
  rule("ending", quote, 12);
  rule("jsonStarter", json.verbs, 16);
  rule("jsonVerb", json.adjectives, 16);
  rule("jsonAdjective", json.ending, 16);
  rule("jsonEnding", quote, 12);
  for (const [id, value] of closers) rule("jsonEnding", id, value);
  rule("jsonEnding", json.starters, 8); // a string that must be longer gets another sentence
  rule("jsonEnding", eot, 6);
  rule("other", [chat.ending, json.ending], 10);
  rule("other", eot, 4);
  rule("other", quote, 11); // after a name (a key, an enum value): its closing quote …
  rule("other", vocab.idOf('":'), 5); // … and for a key the colon with it
  rule("digit", closeBrace, 9);
  rule("digit", closeBracket, 8);
  rule("digit", comma, 3);
  rule("digit", eot, 8);
  rule("digit", quote, 6); // inside a string a digit is followed by the closing quote
  rule("digit", g.digits, -12);
  rule("digit", g.exponentStarts, -30);
  rule("colon", g.digits, 4);
  rule("colon", quote, 2);
  rule("openBracket", openBrace, 8);
  rule("openBracket", g.digits, 4);
  rule("openBracket", quote, 2);
  rule("openBracket", closeBracket, -8);
  rule("openBrace", quote, 4);
  rule("openBrace", closeBrace, -4);
  // After a closing bracket: close further, else end the turn (a complete JSON value's only choice).
  rule("closeBrace", closeBracket, 7);
  rule("closeBrace", closeBrace, 6);
  rule("closeBrace", eot, 12);
  rule("closeBrace", comma, 2);
  rule("closeBracket", closeBrace, 7);
  rule("closeBracket", closeBracket, 4);
  rule("closeBracket", eot, 12);
  rule("closeBracket", comma, 2);
  rule("comma", quote, 4);
  rule("comma", openBrace, 4);
  rule("comma", g.digits, 2);
  rule("space", quote, 4);
  rule("space", g.digits, 4);
  rule("space", openBrace, 2);

  const sets = new Map<number, TokenClass>([
    ...chat.starters.map((i) => [i, "starter"] as const),
    ...chat.verbs.map((i) => [i, "verb"] as const),
    ...chat.adjectives.map((i) => [i, "adjective"] as const),
    ...json.starters.map((i) => [i, "jsonStarter"] as const),
    ...json.verbs.map((i) => [i, "jsonVerb"] as const),
    ...json.adjectives.map((i) => [i, "jsonAdjective"] as const),
  ]);
  const classOf = vocab.texts.map((text, i): TokenClass => {
    if (vocab.tokenTypes[i] === TokenType.CONTROL) return "newline"; // e.g. right after a header or BOS
    const word = sets.get(i);
    if (word) return word;
    if (broken[i]) return "other";
    const last = text.at(-1) ?? "";
    if (last === "\n") return "newline";
    if (last === '"') return "quote";
    if (last === "!") return "jsonEnding";
    if (".?".includes(last)) return "ending";
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

/** Random numbers with mean 0 and variance 1: uniform, cheap enough for 16 million values. */
function unitNoise(rand: () => number): () => number {
  const scale = 2 * Math.sqrt(3);
  return () => (rand() - 0.5) * scale;
}

/** Token embeddings: [C, one-hot class * C, noise], each row with RMS exactly 1 (RMSNorm keeps it). */
function embeddingMatrix(classOf: readonly TokenClass[], d: number, noise: () => number): Float32Array {
  const n = classOf.length;
  const firstNoiseDim = 1 + CLASSES.length;
  const target = Math.sqrt(d - 2 * DESIGN_VALUE * DESIGN_VALUE);
  const embd = new Float32Array(n * d);
  for (let v = 0; v < n; v++) {
    const row = embd.subarray(v * d, (v + 1) * d);
    row[0] = DESIGN_VALUE;
    row[1 + CLASSES.indexOf(classOf[v] ?? "other")] = DESIGN_VALUE;
    let norm = 0;
    for (let j = firstNoiseDim; j < d; j++) {
      const x = noise();
      row[j] = x;
      norm += x * x;
    }
    const scale = target / Math.sqrt(norm);
    for (let j = firstNoiseDim; j < d; j++) row[j] = (row[j] ?? 0) * scale;
  }
  return embd;
}

/** Output matrix: row v gives logit(v) = bias[v] + rules[class(last)][v] + a small random part. */
function outputMatrix(design: ReturnType<typeof designLogits>, d: number, noise: () => number): Float32Array {
  const { bias, rules } = design;
  const n = bias.length;
  const ruleColumns = CLASSES.map((c) => rules.get(c) ?? new Float32Array(n));
  const output = new Float32Array(n * d);
  for (let v = 0; v < n; v++) {
    const at = v * d;
    output[at] = (bias[v] ?? 0) / DESIGN_VALUE;
    for (let k = 0; k < ruleColumns.length; k++) output[at + 1 + k] = (ruleColumns[k]?.[v] ?? 0) / DESIGN_VALUE;
    for (let j = 1 + CLASSES.length; j < d; j++) output[at + j] = noise() * 0.1;
  }
  return output;
}

/** Value of the bias dimension and of the active class dimension in every embedding row. */
const DESIGN_VALUE = 3;
let cachedDesign: { vocab: TinyVocab; design: ReturnType<typeof designLogits> } | undefined;

function buildTensors(vocab: TinyVocab, seed: number): GgufTensor[] {
  const { embedding: d, blocks, feedForward: ff } = TINY_LLAMA_SHAPE;
  const uniform = mulberry32(seed);
  const rand = gaussian(uniform);
  const normal = (count: number, std: number): Float32Array => Float32Array.from({ length: count }, () => rand() * std);
  const ones = (count: number): Float32Array => new Float32Array(count).fill(1);

  if (cachedDesign?.vocab !== vocab) cachedDesign = { vocab, design: designLogits(vocab) };
  const { design } = cachedDesign;
  const embd = embeddingMatrix(design.classOf, d, unitNoise(uniform));
  const output = outputMatrix(design, d, unitNoise(uniform));

  const f16 = (name: string, dims: number[], data: Float32Array): GgufTensor => ({
    name,
    dims,
    type: GgmlType.F16,
    data,
  });
  const f32 = (name: string, dims: number[], data: Float32Array): GgufTensor => ({
    name,
    dims,
    type: GgmlType.F32,
    data,
  });
  const tensors: GgufTensor[] = [
    f16("token_embd.weight", [d, vocab.tokens.length], embd),
    f32("output_norm.weight", [d], ones(d)),
    f16("output.weight", [d, vocab.tokens.length], output),
  ];
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
    "general.description": gguf.str(
      "Random-weight model for offline tests of the workshop kit; its output is meaningless.",
    ),
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
    ...llama3TokenizerMetadata(vocab),
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
  const vocab = buildLlama3Vocab();
  return encodeGguf(buildMetadata(vocab), buildTensors(vocab, seed));
}

/** The tiny Llama's metadata and tensors (for writers other than encodeGguf, e.g. the streaming one). */
export function tinyLlamaGgufParts(options: TinyLlamaOptions = {}): {
  metadata: Record<string, GgufValue>;
  tensors: GgufTensor[];
} {
  const seed = options.seed ?? TINY_LLAMA_DEFAULT_SEED;
  const vocab = buildLlama3Vocab();
  return { metadata: buildMetadata(vocab), tensors: buildTensors(vocab, seed) };
}

/** Writes the tiny Llama GGUF to `path` (parent folders are created). */
export async function writeTinyLlamaGguf(path: string, options: TinyLlamaOptions = {}): Promise<void> {
  const seed = options.seed ?? TINY_LLAMA_DEFAULT_SEED;
  if (!Number.isInteger(seed)) throw new TypeError(`seed must be an integer, got ${String(seed)}`);
  const vocab = buildLlama3Vocab();
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
    console.error("Aufruf: npx tsx scripts/dev/tiny-models/tiny-llama.ts <ziel.gguf> [--seed <ganze Zahl>]");
    process.exit(2);
  }
  const started = performance.now();
  await writeTinyLlamaGguf(out, { seed });
  console.log(`${out} geschrieben (${Math.round(performance.now() - started)} ms)`);
}
