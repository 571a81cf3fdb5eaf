// Sentence embeddings with transformers.js (feature extraction, mean pooling, L2-normalised).
//
// Which model: `options.model`, else EMBEDDING_MODEL (loadConfig().embeddingModel).
// - a path (absolute, ./…, or an existing folder relative to the project root) → that local folder;
// - a model id ("Xenova/paraphrase-multilingual-MiniLM-L12-v2") → `<MODELS_DIR>/<id>/` if it exists there,
//   else downloaded from the Hugging Face hub into `<MODELS_DIR>/<id>/` (with progress), unless
//   MODELS_OFFLINE=1 / `offline: true`, which gives an EmbeddingModelNotFoundError saying where to put files.
// transformers.js is loaded lazily (it starts onnxruntime); it has a CommonJS build, so tslab can load it.
// The place and dtype rule lives in embedding-model.ts, the hub download in embedding-download.ts.
import { resolve } from "node:path";
import type { FeatureExtractionPipeline } from "@huggingface/transformers";
import { loadConfig, tinyModelPaths } from "../config.js";
import { EmbedderClosedError, EmbeddingModelLoadError, EmbeddingModelNotFoundError, RagInputError } from "./errors.js";
import { announcePracticeMode, forParticipants } from "../notebook/notices.js";
import { inNotebook } from "../notebook/output.js";
import { liveInstance, releaseLiveInstance } from "../notebook/live-instances.js";
import { createProgressBar, type ProgressMode } from "./progress.js";
import { errorText } from "../util.js";
import {
  checkDtype,
  DEFAULT_EMBEDDING_DTYPE,
  modelContentHash,
  pickDtype,
  resolveEmbeddingModel,
  type EmbeddingDtype,
} from "./embedding-model.js";
import { loadFromHub, loadTransformers } from "./embedding-download.js";

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
  /** Texts per forward pass, whole number ≥ 1 (default: the embedder's `batchSize`, 32). */
  batchSize?: number;
  /** Progress bar for this call (default: the embedder's `progress`, "auto": terminal only). */
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
  /**
   * Model id/path, dtype and a content hash of the weights and tokenizer files (used for cache hashes).
   * File times are not part of it: a copied model keeps its fingerprint.
   */
  readonly fingerprint: string;
  /**
   * The kit's generated test model (hashed n-grams, no learned meaning): its search numbers say nothing about
   * real embeddings, so rehearsal outputs that compare them must say so.
   */
  readonly testModel: boolean;
  /** One unit-length vector per text, in input order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
  /** The vector of one text (e.g. a query). */
  embedOne(text: string): Promise<Float32Array>;
  /** Frees the model's ONNX session; the embedder is unusable afterwards. */
  dispose(): Promise<void>;
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1)
    throw new RagInputError(`${name} muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(value)}.`, value);
  return v;
}

const SLOT = "embedder";

/** Whether `modelDir` is the kit's generated test model (Embedder.testModel). */
function isTestModelDir(modelDir: string): boolean {
  return resolve(modelDir) === resolve(tinyModelPaths(loadConfig().root).embeddingDir);
}

/**
 * Loads the embedding model (see the file comment for how it is found). Inside a notebook kernel the
 * embedder is kept once: running the cell again with the same options returns the live one ("Run All"),
 * other options dispose it first; a failure prints one German paragraph.
 */
export async function createEmbedder(options: EmbedderOptions = {}): Promise<Embedder> {
  if (!inNotebook()) return openEmbedder(options);
  announcePracticeMode();
  try {
    const key = JSON.stringify({ ...options, model: options.model ?? loadConfig().embeddingModel });
    return await liveInstance(SLOT, key, { create: () => openEmbedder(options), dispose: (e) => e.dispose() });
  } catch (error) {
    throw forParticipants(error);
  }
}

async function openEmbedder(options: EmbedderOptions): Promise<Embedder> {
  const config = loadConfig();
  const model = options.model ?? config.embeddingModel;
  const modelsDir = options.modelsDir ? resolve(config.root, options.modelsDir) : config.modelsDir;
  const offline = options.offline ?? config.modelsOffline;
  const defaultBatch = positiveInt("batchSize", options.batchSize, 32);
  if (options.threads !== undefined) positiveInt("threads", options.threads, 1);
  checkDtype(options.dtype);
  const resolved = resolveEmbeddingModel(model, { modelsDir, root: config.root, offline });
  const { pipeline } = await loadTransformers();
  const sessionOptions = options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : undefined;

  let dir: string;
  let dtype: EmbeddingDtype;
  let extractor: FeatureExtractionPipeline;
  try {
    if (resolved.kind === "local") {
      dir = resolved.dir;
      dtype = pickDtype(dir, options.dtype, model);
      // An absolute folder is not a hub id, so transformers.js reads its files directly.
      extractor = await pipeline("feature-extraction", dir, {
        dtype,
        device: "cpu",
        local_files_only: true,
        session_options: sessionOptions,
      });
    } else {
      dir = resolved.targetDir;
      dtype = options.dtype ?? DEFAULT_EMBEDDING_DTYPE;
      extractor = await loadFromHub(resolved.id, {
        dtype,
        modelsDir,
        remoteHost: options.remoteHost,
        progress: options.progress !== false,
        sessionOptions,
      });
    }
  } catch (error) {
    if (error instanceof EmbeddingModelNotFoundError) throw error;
    throw new EmbeddingModelLoadError(model, errorText(error));
  }

  const fingerprint = `${model}|${dtype}|${modelContentHash(dir, dtype)}`;

  // After dispose() (a notebook's clean-up cell, also under "Run All") the next use loads the weights
  // again from the local folder; only a failed reload says in German that it is closed.
  let disposed: Promise<void> | undefined;
  let reloading: Promise<FeatureExtractionPipeline> | undefined;
  const reload = async (): Promise<FeatureExtractionPipeline> => {
    await disposed;
    console.log("Das Embedding-Modell war freigegeben (Aufräumen-Zelle) – es wird neu geladen.");
    try {
      return await pipeline("feature-extraction", dir, {
        dtype,
        device: "cpu",
        local_files_only: true,
        session_options: sessionOptions,
      });
    } catch {
      throw forParticipants(new EmbedderClosedError());
    }
  };
  const runBatch = async (texts: string[]): Promise<Float32Array[]> => {
    if (disposed) {
      reloading ??= reload().finally(() => (reloading = undefined));
      extractor = await reloading;
      disposed = undefined;
    }
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
      throw new RagInputError("embed erwartet ein Array von Texten (string[]).", texts);
    }
    const batchSize = positiveInt("batchSize", embedOptions.batchSize, defaultBatch);
    // Sort by length so that each batch pads to a similar length; restore the input order afterwards.
    const order = texts.map((_, i) => i).sort((a, b) => (texts[a]?.length ?? 0) - (texts[b]?.length ?? 0));
    const result = new Array<Float32Array>(texts.length);
    const bar = createProgressBar(
      "Embeddings",
      texts.length,
      embedOptions.progress ?? options.progress ?? "auto",
      batchSize * 4,
    );
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

  const embedder: Embedder = {
    model,
    modelDir: dir,
    dtype,
    dimension,
    fingerprint,
    testModel: isTestModelDir(dir),
    embed,
    async embedOne(text: string) {
      if (typeof text !== "string") throw new RagInputError("embedOne erwartet einen Text (string).", text);
      const [v] = await runBatch([text]);
      if (!v) throw new EmbeddingModelLoadError(model, "keine Ausgabe für den Text");
      return v;
    },
    dispose() {
      releaseLiveInstance(SLOT, embedder);
      disposed ??= extractor.dispose();
      return disposed;
    },
  };
  return embedder;
}
