// The hyper-parameters of the menu models, one row each with where every number comes from, and the
// tensor list a speed twin of that shape has (names, dims, ggml types as llama.cpp's Q4_K_M picks them).
// Pure: no file access; the twin writer (twin.ts) and the speed prediction (predict.ts) both use it.
import { GgmlType, ggmlTensorBytes } from "../tiny-models/gguf-writer.js";

export interface TwinShape {
  id: string;
  name: string;
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  feedForward: number;
  vocab: number;
  ropeBase: number;
  /** Llama 3 RoPE frequency scaling (HF rope_scaling, rope_type "llama3"); stored as rope_freqs.weight. */
  ropeScaling: { factor: number; lowFreqFactor: number; highFreqFactor: number; originalContext: number };
  /** true: the output matrix is the token embedding (no output.weight tensor). */
  tiedOutput: boolean;
  context: number;
  rmsEps: number;
  /** Where the numbers come from. */
  source: string;
}

const LLAMA3_VOCAB = 128256; // tokenizer.json of every Llama 3.x model; llama3-tokenizer-js has the same 128,256
const LLAMA3_RMS_EPS = 1e-5;

/** Twin shapes by menu id (ids of MODEL_CHOICES in lib/llm/model-files.ts, plus the 1B). */
export const TWIN_SHAPES: readonly TwinShape[] = [
  {
    id: "llama-3.2-1b",
    name: "Llama 3.2 1B Instruct",
    // config.json: num_hidden_layers 16, hidden_size 2048, num_attention_heads 32, num_key_value_heads 8,
    // head_dim 64, intermediate_size 8192, vocab_size 128256, rope_theta 500000, rope_scaling {factor 32,
    // low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192}, tie_word_embeddings
    // true, max_position_embeddings 131072, rms_norm_eps 1e-5.
    source: "huggingface.co/meta-llama/Llama-3.2-1B-Instruct config.json",
    layers: 16,
    hidden: 2048,
    heads: 32,
    kvHeads: 8,
    headDim: 64,
    feedForward: 8192,
    vocab: LLAMA3_VOCAB,
    ropeBase: 500000,
    ropeScaling: { factor: 32, lowFreqFactor: 1, highFreqFactor: 4, originalContext: 8192 },
    tiedOutput: true,
    context: 131072,
    rmsEps: LLAMA3_RMS_EPS,
  },
  {
    id: "llama-3.2-3b",
    name: "Llama 3.2 3B Instruct",
    // config.json: num_hidden_layers 28, hidden_size 3072, num_attention_heads 24, num_key_value_heads 8,
    // head_dim 128, intermediate_size 8192, rope as the 1B (factor 32), tie_word_embeddings true.
    source: "huggingface.co/meta-llama/Llama-3.2-3B-Instruct config.json",
    layers: 28,
    hidden: 3072,
    heads: 24,
    kvHeads: 8,
    headDim: 128,
    feedForward: 8192,
    vocab: LLAMA3_VOCAB,
    ropeBase: 500000,
    ropeScaling: { factor: 32, lowFreqFactor: 1, highFreqFactor: 4, originalContext: 8192 },
    tiedOutput: true,
    context: 131072,
    rmsEps: LLAMA3_RMS_EPS,
  },
  {
    id: "llama-3.1-8b",
    name: "Llama 3.1 8B Instruct",
    // config.json: num_hidden_layers 32, hidden_size 4096, num_attention_heads 32, num_key_value_heads 8,
    // intermediate_size 14336 (head_dim 4096/32 = 128), rope_scaling factor 8 (low 1, high 4, original
    // 8192), tie_word_embeddings false (separate lm_head), max_position_embeddings 131072.
    source: "huggingface.co/meta-llama/Llama-3.1-8B-Instruct config.json",
    layers: 32,
    hidden: 4096,
    heads: 32,
    kvHeads: 8,
    headDim: 128,
    feedForward: 14336,
    vocab: LLAMA3_VOCAB,
    ropeBase: 500000,
    ropeScaling: { factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalContext: 8192 },
    tiedOutput: false,
    context: 131072,
    rmsEps: LLAMA3_RMS_EPS,
  },
];

export type TwinQuant = "q4_k_m" | "f16";
export const TWIN_QUANTS: readonly TwinQuant[] = ["q4_k_m", "f16"];
/** general.file_type (llama_ftype): MOSTLY_F16 = 1, MOSTLY_Q4_K_M = 15. */
export const FILE_TYPE: Record<TwinQuant, number> = { f16: 1, q4_k_m: 15 };

/** Menu models without a twin, and why (said by doctor --tempo's predictions, which skip them). */
export const WITHOUT_TWIN: Readonly<Record<string, string>> = {
  "qwen2.5-7b":
    "qwen2 architecture with Q/K/V biases and Qwen's own 152,064-token vocabulary, which no installed package carries offline",
};

export function twinShape(id: string): TwinShape | undefined {
  return TWIN_SHAPES.find((s) => s.id === id);
}

export interface TwinTensor {
  name: string;
  dims: number[];
  type: GgmlType;
  bytes: number;
  /** Block index, or undefined for the embedding, the output and the global norms. */
  layer?: number;
}

/** llama-quant.cpp's use_more_bits: which layers Q4_K_M gives Q6_K for attn_v and ffn_down. */
export function useMoreBits(layer: number, layers: number): boolean {
  const eighth = Math.floor(layers / 8);
  return layer < eighth || layer >= Math.floor((7 * layers) / 8) || (layer - eighth) % 3 === 2;
}

/** The rope_freqs.weight values convert_hf_to_gguf.py writes for Llama 3 frequency scaling. */
export function llama3RopeFactors(shape: TwinShape): number[] {
  const { factor, lowFreqFactor, highFreqFactor, originalContext } = shape.ropeScaling;
  const lowWavelen = originalContext / lowFreqFactor;
  const highWavelen = originalContext / highFreqFactor;
  const factors: number[] = [];
  for (let i = 0; i < shape.headDim; i += 2) {
    const wavelen = (2 * Math.PI) / (1 / shape.ropeBase ** (i / shape.headDim));
    if (wavelen < highWavelen) factors.push(1);
    else if (wavelen > lowWavelen) factors.push(factor);
    else {
      const smooth = (originalContext / wavelen - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
      factors.push(1 / ((1 - smooth) / factor + smooth));
    }
  }
  return factors;
}

/** Every tensor of the twin, in file order. `layers` below the shape's makes a layer-truncated twin. */
export function twinTensors(shape: TwinShape, quant: TwinQuant, layers = shape.layers): TwinTensor[] {
  const { hidden: d, feedForward: ff, vocab, headDim } = shape;
  const q4 = quant === "q4_k_m";
  const matrix = q4 ? GgmlType.Q4_K : GgmlType.F16;
  const more = (i: number): GgmlType => (q4 && useMoreBits(i, layers) ? GgmlType.Q6_K : matrix);
  const output = q4 ? GgmlType.Q6_K : GgmlType.F16;
  const t = (name: string, dims: number[], type: GgmlType, layer?: number): TwinTensor => ({
    name,
    dims,
    type,
    bytes: ggmlTensorBytes(type, dims),
    layer,
  });
  const list: TwinTensor[] = [
    t("rope_freqs.weight", [headDim / 2], GgmlType.F32),
    t("token_embd.weight", [d, vocab], shape.tiedOutput ? output : matrix),
  ];
  for (let i = 0; i < layers; i++) {
    const p = `blk.${i}.`;
    list.push(
      t(p + "attn_norm.weight", [d], GgmlType.F32, i),
      t(p + "attn_q.weight", [d, shape.heads * headDim], matrix, i),
      t(p + "attn_k.weight", [d, shape.kvHeads * headDim], matrix, i),
      t(p + "attn_v.weight", [d, shape.kvHeads * headDim], more(i), i),
      t(p + "attn_output.weight", [shape.heads * headDim, d], matrix, i),
      t(p + "ffn_norm.weight", [d], GgmlType.F32, i),
      t(p + "ffn_gate.weight", [d, ff], matrix, i),
      t(p + "ffn_up.weight", [d, ff], matrix, i),
      t(p + "ffn_down.weight", [ff, d], more(i), i),
    );
  }
  list.push(t("output_norm.weight", [d], GgmlType.F32));
  if (!shape.tiedOutput) list.push(t("output.weight", [d, vocab], output));
  return list;
}

/** What one token costs: bytes of weights read and multiply-adds, per layer and for the output. */
export interface TokenCost {
  layers: number;
  /** Weight bytes of one block (all layers summed / layers). */
  bytesPerLayer: number;
  /** Bytes of the output matrix (token_embd when tied), read once per generated token. */
  outputBytes: number;
  /** Matrix weights (multiply-adds per token) of one block. */
  paramsPerLayer: number;
  outputParams: number;
  /** Attention multiply-adds per token per layer per cached position (QK and V products). */
  attentionPerPosition: number;
  /** KV cache bytes per token per layer (F16 K and V). */
  kvBytesPerLayer: number;
}

export function tokenCost(shape: TwinShape, quant: TwinQuant, layers = shape.layers): TokenCost {
  const tensors = twinTensors(shape, quant, layers);
  const inLayers = tensors.filter((t) => t.layer !== undefined && t.dims.length === 2);
  const out = tensors.find((t) => t.name === (shape.tiedOutput ? "token_embd.weight" : "output.weight"));
  const elements = (t: TwinTensor): number => t.dims.reduce((a, b) => a * b, 1);
  return {
    layers,
    bytesPerLayer: inLayers.reduce((s, t) => s + t.bytes, 0) / layers,
    outputBytes: out?.bytes ?? 0,
    paramsPerLayer: inLayers.reduce((s, t) => s + elements(t), 0) / layers,
    outputParams: out ? elements(out) : 0,
    attentionPerPosition: 2 * shape.heads * shape.headDim,
    kvBytesPerLayer: 2 * shape.kvHeads * shape.headDim * 2,
  };
}
