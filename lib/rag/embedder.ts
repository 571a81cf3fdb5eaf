// Sentence embeddings with transformers.js (feature extraction, mean pooling, L2-normalised).
//
// Which model: `options.model`, else EMBEDDING_MODEL (loadConfig().embeddingModel).
// - a path (absolute, ./…, or an existing folder relative to the project root) → that local folder;
// - a model id ("Xenova/paraphrase-multilingual-MiniLM-L12-v2") → `<MODELS_DIR>/<id>/` if it exists there,
//   else downloaded from the Hugging Face hub into `<MODELS_DIR>/<id>/` (with progress), unless
//   MODELS_OFFLINE=1 / `offline: true`, which gives an EmbeddingModelNotFoundError saying where to put files.
// transformers.js is loaded lazily (it starts onnxruntime); it has a CommonJS build, so tslab can load it.
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { FeatureExtractionPipeline } from "@huggingface/transformers";
import { loadConfig } from "../config.js";
import { EmbeddingModelLoadError, EmbeddingModelNotFoundError, RagInputError } from "./errors.js";
import { createProgress, type ProgressMode } from "./progress.js";

/** ONNX weight variants transformers.js knows; the file is `onnx/model<suffix>.onnx`. */
export const DTYPE_FILES = {
  fp32: "model.onnx",
  fp16: "model_fp16.onnx",
  q8: "model_quantized.onnx",
  int8: "model_int8.onnx",
  uint8: "model_uint8.onnx",
  q4: "model_q4.onnx",
  q4f16: "model_q4f16.onnx",
  bnb4: "model_bnb4.onnx",
} as const;

export type EmbeddingDtype = keyof typeof DTYPE_FILES;

/**
 * Default weights: the 8-bit quantised ONNX file (onnx/model_quantized.onnx). Measured on a 2-core CPU:
 * the tiny test model is equally fast in fp32 and q8 (its q8 file only stores int8 weights; run time is
 * tokenizer overhead), so it cannot decide this. A MiniLM-L12-shaped stack of matrix products (12 layers,
 * 384/1536) ran 1.5–3× faster with onnxruntime's dynamic int8 kernels than in fp32, and the q8 file is
 * about 4× smaller to download. Compare retrieval quality with `npm run eval:rag -- --dtype fp32`.
 * When only model.onnx exists locally and no dtype was asked for, fp32 is used instead.
 */
export const DEFAULT_EMBEDDING_DTYPE: EmbeddingDtype = "q8";

export interface EmbedderOptions {
  /** Model id or local folder (default: EMBEDDING_MODEL). */
  model?: string;
  /** ONNX weights to use (default DEFAULT_EMBEDDING_DTYPE, with fp32 fallback if only that exists). */
  dtype?: EmbeddingDtype;
  /** Never download (default: MODELS_OFFLINE). */
  offline?: boolean;
  /** Folder with local models and download target (default: MODELS_DIR). */
  modelsDir?: string;
  /** Texts per forward pass (default 32). */
  batchSize?: number;
  /** Progress bar for embed() calls with many texts (default "auto": terminal only); false also hides download progress. */
  progress?: ProgressMode;
  /** Hub mirror to download from (default: HF_ENDPOINT or https://huggingface.co/). */
  remoteHost?: string;
  /** onnxruntime CPU threads (default: onnxruntime's choice). */
  threads?: number;
}

export interface EmbedOptions {
  batchSize?: number;
  progress?: ProgressMode;
  /** Called after every batch with the number of texts done so far. */
  onProgress?: (done: number, total: number) => void;
}

export interface Embedder {
  /** The model as configured (id or path). */
  readonly model: string;
  /** The local folder the weights were loaded from. */
  readonly modelDir: string;
  readonly dtype: EmbeddingDtype;
  /** Vector length. */
  readonly dimension: number;
  /** Changes when the model, its weight file or dtype change (used for cache hashes). */
  readonly fingerprint: string;
  /** One unit-length vector per text, in input order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** The vector of one text (e.g. a query). */
  embedOne(text: string): Promise<Float32Array>;
  dispose(): Promise<void>;
}

type Transformers = typeof import("@huggingface/transformers");

let transformersModule: Promise<Transformers> | undefined;

function loadTransformers(): Promise<Transformers> {
  transformersModule ??= import("@huggingface/transformers");
  return transformersModule;
}

/** Where a model comes from: a local folder, or a hub id still to be downloaded into `targetDir`. */
export type ResolvedModel = { kind: "local"; dir: string } | { kind: "remote"; id: string; targetDir: string };

const HUB_ID = /^[\w.-]+\/[\w.-]+$|^[\w.-]+$/u;

function looksLikePath(model: string): boolean {
  return isAbsolute(model) || model.startsWith(".") || model.startsWith("~") || model.includes("\\") || model.split("/").length > 2;
}

/** Decides where `model` is loaded from; throws EmbeddingModelNotFoundError if nowhere. */
export function resolveEmbeddingModel(model: string, options: { modelsDir: string; root: string; offline: boolean }): ResolvedModel {
  const candidates: string[] = [];
  const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
  if (looksLikePath(model) || isDir(resolve(options.root, model))) {
    const dir = resolve(options.root, model);
    candidates.push(dir);
    if (isDir(dir) && existsSync(join(dir, "config.json"))) return { kind: "local", dir };
    throw new EmbeddingModelNotFoundError(model, candidates, isDir(dir) ? "config.json fehlt im Ordner" : "Ordner existiert nicht");
  }
  const local = join(options.modelsDir, model);
  candidates.push(local);
  if (existsSync(join(local, "config.json"))) return { kind: "local", dir: local };
  if (!HUB_ID.test(model)) throw new EmbeddingModelNotFoundError(model, candidates, "weder Ordner noch gültige Modell-ID");
  if (options.offline) throw new EmbeddingModelNotFoundError(model, candidates, "nicht lokal vorhanden und MODELS_OFFLINE=1");
  return { kind: "remote", id: model, targetDir: local };
}

function pickDtype(dir: string, requested: EmbeddingDtype | undefined, model: string): EmbeddingDtype {
  const has = (d: EmbeddingDtype) => existsSync(join(dir, "onnx", DTYPE_FILES[d]));
  if (requested) {
    if (has(requested)) return requested;
    const present = (Object.keys(DTYPE_FILES) as EmbeddingDtype[]).filter(has);
    throw new EmbeddingModelNotFoundError(
      model,
      [join(dir, "onnx", DTYPE_FILES[requested])],
      `dtype ${requested} braucht onnx/${DTYPE_FILES[requested]}; vorhanden: ${present.join(", ") || "keine ONNX-Datei"}`,
    );
  }
  if (has(DEFAULT_EMBEDDING_DTYPE)) return DEFAULT_EMBEDDING_DTYPE;
  if (has("fp32")) return "fp32";
  throw new EmbeddingModelNotFoundError(model, [join(dir, "onnx", DTYPE_FILES[DEFAULT_EMBEDDING_DTYPE]), join(dir, "onnx", DTYPE_FILES.fp32)], "keine ONNX-Datei gefunden");
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1) throw new RagInputError(`${name} muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(value)}. / ${name} must be an integer ≥ 1.`, value);
  return v;
}

/** A download progress printer for transformers.js' progress_callback (bar in a terminal, lines otherwise). */
function downloadReporter(model: string) {
  const tty = Boolean(process.stderr.isTTY);
  const lastPercent = new Map<string, number>();
  return (info: { status: string; file?: string; progress?: number; loaded?: number; total?: number }) => {
    if (info.status !== "progress" || !info.file) return;
    const percent = Math.floor(info.progress ?? 0);
    const step = tty ? 1 : 25;
    const last = lastPercent.get(info.file) ?? -step;
    if (percent < last + step && percent < 100) return;
    if (percent === last) return;
    lastPercent.set(info.file, percent);
    const mb = (n: number | undefined) => ((n ?? 0) / 1e6).toFixed(1);
    const line = `Lade ${model}/${info.file}: ${percent} % (${mb(info.loaded)} von ${mb(info.total)} MB)`;
    if (tty) process.stderr.write(`\r${line}${percent >= 100 ? "\n" : ""}`);
    else process.stderr.write(line + "\n");
  };
}

let remoteLock: Promise<unknown> = Promise.resolve();

/** Loads the embedding model (see the file comment for how it is found). */
export async function createEmbedder(options: EmbedderOptions = {}): Promise<Embedder> {
  const config = loadConfig();
  const model = options.model ?? config.embeddingModel;
  const modelsDir = options.modelsDir ? resolve(config.root, options.modelsDir) : config.modelsDir;
  const offline = options.offline ?? config.modelsOffline;
  const defaultBatch = positiveInt("batchSize", options.batchSize, 32);
  if (options.threads !== undefined) positiveInt("threads", options.threads, 1);
  if (options.dtype !== undefined && !(options.dtype in DTYPE_FILES)) {
    throw new RagInputError(`Unbekannter dtype "${String(options.dtype)}"; erlaubt: ${Object.keys(DTYPE_FILES).join(", ")}.`, options.dtype);
  }
  const resolved = resolveEmbeddingModel(model, { modelsDir, root: config.root, offline });
  const { pipeline, env } = await loadTransformers();
  const sessionOptions = options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : undefined;

  let dir: string;
  let dtype: EmbeddingDtype;
  let extractor: FeatureExtractionPipeline;
  try {
    if (resolved.kind === "local") {
      dir = resolved.dir;
      dtype = pickDtype(dir, options.dtype, model);
      // An absolute folder is not a hub id, so transformers.js reads its files directly.
      extractor = await pipeline("feature-extraction", dir, { dtype, device: "cpu", local_files_only: true, session_options: sessionOptions });
    } else {
      dir = resolved.targetDir;
      dtype = options.dtype ?? DEFAULT_EMBEDDING_DTYPE;
      const load = async () => {
        const saved = { remoteHost: env.remoteHost, allowRemoteModels: env.allowRemoteModels };
        env.remoteHost = options.remoteHost ?? process.env.HF_ENDPOINT ?? saved.remoteHost;
        env.allowRemoteModels = true;
        try {
          return await pipeline("feature-extraction", resolved.id, {
            dtype,
            device: "cpu",
            cache_dir: modelsDir,
            session_options: sessionOptions,
            progress_callback: options.progress === false ? undefined : downloadReporter(resolved.id),
          });
        } finally {
          env.remoteHost = saved.remoteHost;
          env.allowRemoteModels = saved.allowRemoteModels;
        }
      };
      const next = remoteLock.then(load, load);
      remoteLock = next.catch(() => undefined);
      extractor = await next;
    }
  } catch (error) {
    if (error instanceof EmbeddingModelNotFoundError) throw error;
    throw new EmbeddingModelLoadError(model, error instanceof Error ? error.message : String(error));
  }

  const weights = join(dir, "onnx", DTYPE_FILES[dtype]);
  const stat = existsSync(weights) ? statSync(weights) : undefined;
  const fingerprint = `${model}|${dtype}|${stat ? `${stat.size}:${Math.round(stat.mtimeMs)}` : "?"}`;

  const runBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const output = await extractor(texts, { pooling: "mean", normalize: true });
    const [rows = 0, dim = 0] = output.dims;
    const data = output.data as Float32Array;
    const vectors: Float32Array[] = [];
    for (let i = 0; i < rows; i++) vectors.push(data.slice(i * dim, (i + 1) * dim));
    output.dispose?.();
    return vectors;
  };

  const probe = await runBatch(["Test"]);
  const dimension = probe[0]?.length ?? 0;
  if (dimension === 0) throw new EmbeddingModelLoadError(model, "das Modell liefert leere Vektoren");

  const embed = async (texts: readonly string[], embedOptions: EmbedOptions = {}): Promise<Float32Array[]> => {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
      throw new RagInputError("embed erwartet ein Array von Texten (string[]). / embed expects string[].", texts);
    }
    const batchSize = positiveInt("batchSize", embedOptions.batchSize, defaultBatch);
    // Sort by length so that each batch pads to a similar length; restore the input order afterwards.
    const order = texts.map((_, i) => i).sort((a, b) => (texts[a]?.length ?? 0) - (texts[b]?.length ?? 0));
    const result = new Array<Float32Array>(texts.length);
    const bar = createProgress("Embeddings", texts.length, embedOptions.progress ?? options.progress ?? "auto", batchSize * 4);
    try {
      for (let i = 0; i < order.length; i += batchSize) {
        const ids = order.slice(i, i + batchSize);
        const vectors = await runBatch(ids.map((id) => texts[id] ?? ""));
        ids.forEach((id, j) => {
          const v = vectors[j];
          if (v) result[id] = v;
        });
        bar.increment(ids.length);
        embedOptions.onProgress?.(Math.min(i + batchSize, texts.length), texts.length);
      }
    } finally {
      bar.stop();
    }
    return result;
  };

  return {
    model,
    modelDir: dir,
    dtype,
    dimension,
    fingerprint,
    embed,
    async embedOne(text: string) {
      if (typeof text !== "string") throw new RagInputError("embedOne erwartet einen Text (string). / embedOne expects a string.", text);
      const [v] = await runBatch([text]);
      if (!v) throw new EmbeddingModelLoadError(model, "keine Ausgabe für den Text");
      return v;
    },
    async dispose() {
      await extractor.dispose();
    },
  };
}
