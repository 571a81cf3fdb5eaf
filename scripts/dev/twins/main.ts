// Speed twins: random-weight GGUFs with a menu model's exact shapes, real Llama 3.1 tokenizer and
// Q4_K_M type mix. They cost per token what the real model costs (speed depends on shapes and types,
// not on trained values), so speed can be measured without downloading a model.
//
//   npm run models:twin -- <menu-id> --out <file> [--quant q4_k_m|f16] [--layers N]
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { findProjectRoot } from "../../../lib/config.js";
import { UsageError } from "../../node/parse-args-german.js";
import { GgmlType, gguf, type GgufValue } from "../tiny-models/gguf-writer.js";
import { writeGgufStream, type StreamTensor } from "../tiny-models/gguf-stream.js";
import { f32Bytes, randomTensorChunks } from "../tiny-models/ggml-random.js";
import { buildLlama3Vocab, llama3TokenizerMetadata } from "../tiny-models/llama3-vocab.js";
import {
  FILE_TYPE,
  llama3RopeFactors,
  TWIN_SHAPES,
  twinShape,
  twinTensors,
  type TwinQuant,
  type TwinShape,
} from "./shapes.js";

/** Bump when the bytes a twin gets change: cached twins (.cache/twins) are then written again. */
export const TWIN_GENERATOR_VERSION = 1;

export interface TwinOptions {
  quant?: TwinQuant;
  /** Fewer blocks than the model has (a layer-truncated twin); default: all. */
  layers?: number;
  seed?: number;
  onProgress?: (written: number, total: number) => void;
  signal?: AbortSignal;
}

/** The twin's metadata: the model's hyper-parameters and the real Llama 3.1 tokenizer. */
export function twinMetadata(shape: TwinShape, quant: TwinQuant, layers = shape.layers): Record<string, GgufValue> {
  const vocab = buildLlama3Vocab();
  return {
    "general.architecture": gguf.str("llama"),
    "general.type": gguf.str("model"),
    "general.name": gguf.str(
      `${shape.name} speed twin${layers !== shape.layers ? ` (${layers} of ${shape.layers} layers)` : ""}`,
    ),
    "general.description": gguf.str(
      "Random weights with the real model's shapes, for speed measurements; its output is meaningless.",
    ),
    "general.alignment": gguf.u32(32),
    "general.file_type": gguf.u32(FILE_TYPE[quant]),
    ...(quant === "f16" ? {} : { "general.quantization_version": gguf.u32(2) }),
    "llama.vocab_size": gguf.u32(shape.vocab),
    "llama.context_length": gguf.u32(shape.context),
    "llama.embedding_length": gguf.u32(shape.hidden),
    "llama.block_count": gguf.u32(layers),
    "llama.feed_forward_length": gguf.u32(shape.feedForward),
    "llama.attention.head_count": gguf.u32(shape.heads),
    "llama.attention.head_count_kv": gguf.u32(shape.kvHeads),
    "llama.attention.key_length": gguf.u32(shape.headDim),
    "llama.attention.value_length": gguf.u32(shape.headDim),
    "llama.attention.layer_norm_rms_epsilon": gguf.f32(shape.rmsEps),
    "llama.rope.freq_base": gguf.f32(shape.ropeBase),
    "llama.rope.dimension_count": gguf.u32(shape.headDim),
    ...llama3TokenizerMetadata(vocab),
  };
}

/** The twin's tensors as streams: norms 1.0, rope factors as convert_hf_to_gguf.py computes them, random blocks. */
export function twinStreamTensors(shape: TwinShape, quant: TwinQuant, layers = shape.layers, seed = 1): StreamTensor[] {
  return twinTensors(shape, quant, layers).map((t, i) => {
    let chunks: () => Iterable<Uint8Array>;
    if (t.name === "rope_freqs.weight") chunks = () => [f32Bytes(llama3RopeFactors(shape))];
    else if (t.type === GgmlType.F32) chunks = () => [f32Bytes(new Float32Array(t.dims[0] ?? 0).fill(1))];
    else chunks = () => randomTensorChunks(t.type, t.dims, seed * 7919 + i);
    return { name: t.name, dims: t.dims, type: t.type, chunks };
  });
}

/** Writes the twin of menu model `id` to `path`; returns its size in bytes. */
export async function writeTwin(id: string, path: string, options: TwinOptions = {}): Promise<number> {
  const shape = twinShape(id);
  if (!shape)
    throw new UsageError(`Unbekanntes Modell "${id}". Wähle eines von: ${TWIN_SHAPES.map((s) => s.id).join(", ")}`);
  const quant = options.quant ?? "q4_k_m";
  const layers = options.layers ?? shape.layers;
  if (!Number.isInteger(layers) || layers < 1 || layers > shape.layers) {
    throw new UsageError(`--layers muss zwischen 1 und ${shape.layers} liegen, erhalten: ${layers}`);
  }
  mkdirSync(dirname(resolve(path)), { recursive: true });
  return writeGgufStream(
    path,
    twinMetadata(shape, quant, layers),
    twinStreamTensors(shape, quant, layers, options.seed),
    options,
  );
}

/** A full twin in `.cache/twins` (written once per generator version). */
export async function cachedTwin(
  id: string,
  quant: TwinQuant = "q4_k_m",
  options: Omit<TwinOptions, "quant" | "layers"> = {},
): Promise<{ path: string; writeMs?: number; bytes?: number }> {
  const dir = join(findProjectRoot(), ".cache", "twins");
  const path = join(dir, `${id}-${quant}-v${TWIN_GENERATOR_VERSION}.gguf`);
  if (existsSync(path)) return { path };
  // Twins of older generator versions are stale: remove them before writing the new one.
  if (existsSync(dir))
    for (const f of readdirSync(dir)) if (f.startsWith(`${id}-${quant}-v`)) rmSync(join(dir, f), { force: true });
  const started = performance.now();
  const bytes = await writeTwin(id, path, { ...options, quant });
  return { path, writeMs: performance.now() - started, bytes };
}
