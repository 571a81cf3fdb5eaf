// Sentence embeddings with transformers.js (feature extraction, mean pooling, L2-normalised).
//
// Which model: `options.model`, else EMBEDDING_MODEL (loadConfig().embeddingModel).
// - a path (absolute, ./…, or an existing folder relative to the project root) → that local folder;
// - a model id ("Xenova/paraphrase-multilingual-MiniLM-L12-v2") → `<MODELS_DIR>/<id>/` if it exists there,
//   else downloaded from the Hugging Face hub into `<MODELS_DIR>/<id>/` (with progress), unless
//   MODELS_OFFLINE=1 / `offline: true`, which gives an EmbeddingModelNotFoundError saying where to put files.
// transformers.js is loaded lazily (it starts onnxruntime); it has a CommonJS build, so tslab can load it.
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { FeatureExtractionPipeline } from "@huggingface/transformers";
import { loadConfig, tinyModelPaths } from "../config.js";
import { EmbedderClosedError, EmbeddingModelLoadError, EmbeddingModelNotFoundError, RagInputError } from "./errors.js";
import { announcePracticeMode, forParticipants } from "../notebook/notices.js";
import { inNotebook } from "../notebook/output.js";
import { progressLine, type ProgressLine } from "../notebook/progress.js";
import { liveInstance, releaseLiveInstance } from "../notebook/live-instances.js";
import { createProgressBar, type ProgressMode } from "./progress.js";
import { errorText, germanNumber, ignore } from "../util.js";

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

/** All dtype names createEmbedder accepts. */
export const EMBEDDING_DTYPES = Object.keys(DTYPE_FILES) as EmbeddingDtype[];

/**
 * Default weights: the 8-bit quantised ONNX file (onnx/model_quantized.onnx), about a quarter of the
 * fp32 file's size to download. Its speed has NOT been measured on the real
 * paraphrase-multilingual-MiniLM-L12-v2 in this kit (it was built offline). What was measured, on a
 * 2-core CPU: the tiny test model runs equally fast in fp32 and q8 (its run time is tokenizer overhead),
 * and a synthetic stack of 12 MatMul layers with MiniLM-L12's matrix sizes (384 × 1536) — no attention,
 * no tokenizer, random weights — ran 1.5–3× faster with onnxruntime's dynamic int8 MatMul than in fp32.
 * That suggests, but does not prove, that q8 is faster for the real model. To check on a machine with
 * the model: `BENCH_REAL_MODEL=1 npm run bench -- rag-embed` (throughput fp32 vs q8) and
 * `npm run eval:rag -- --dtype fp32` vs the default (retrieval quality).
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
  return (
    isAbsolute(model) ||
    model.startsWith(".") ||
    model.startsWith("~") ||
    model.includes("\\") ||
    model.split("/").length > 2
  );
}

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/**
 * The one place rule of the embedding model (createEmbedder, embeddingModelFiles, so models:pull and
 * doctor): a path (or an existing folder, relative to the kit) is that folder; anything else is a hub id
 * whose copy lives in `<modelsDir>/<id>/`.
 */
function modelPlace(model: string, modelsDir: string, root: string): { dir: string; isPath: boolean } {
  const asPath = resolve(root, model);
  return looksLikePath(model) || isDir(asPath)
    ? { dir: asPath, isPath: true }
    : { dir: join(modelsDir, model), isPath: false };
}

/** Decides where `model` is loaded from; throws EmbeddingModelNotFoundError if nowhere. */
export function resolveEmbeddingModel(
  model: string,
  options: { modelsDir: string; root: string; offline: boolean },
): ResolvedModel {
  const candidates: string[] = [];
  const place = modelPlace(model, options.modelsDir, options.root);
  if (place.isPath) {
    const dir = place.dir;
    candidates.push(dir);
    if (isDir(dir) && existsSync(join(dir, "config.json"))) return { kind: "local", dir };
    throw new EmbeddingModelNotFoundError(
      model,
      candidates,
      isDir(dir) ? "config.json fehlt im Ordner" : "Ordner existiert nicht",
    );
  }
  const local = place.dir;
  candidates.push(local);
  if (existsSync(join(local, "config.json"))) return { kind: "local", dir: local };
  if (!HUB_ID.test(model))
    throw new EmbeddingModelNotFoundError(model, candidates, "weder Ordner noch gültige Modell-ID");
  if (options.offline)
    throw new EmbeddingModelNotFoundError(model, candidates, "nicht lokal vorhanden und MODELS_OFFLINE=1");
  return { kind: "remote", id: model, targetDir: local };
}

/**
 * The one dtype rule (createEmbedder, embeddingModelFiles and so `npm run models:pull` and `npm run doctor`):
 * the requested dtype when its weights are in the folder; without a request the default (q8), else fp32
 * weights that are already there; undefined when the folder has none of them.
 */
function presentDtype(dir: string, requested?: EmbeddingDtype): EmbeddingDtype | undefined {
  const has = (d: EmbeddingDtype) => existsSync(join(dir, "onnx", DTYPE_FILES[d]));
  if (requested) return has(requested) ? requested : undefined;
  return [DEFAULT_EMBEDDING_DTYPE, "fp32" as const].find(has);
}

function pickDtype(dir: string, requested: EmbeddingDtype | undefined, model: string): EmbeddingDtype {
  const present = presentDtype(dir, requested);
  if (present) return present;
  if (requested) {
    const has = (d: EmbeddingDtype) => existsSync(join(dir, "onnx", DTYPE_FILES[d]));
    const others = (Object.keys(DTYPE_FILES) as EmbeddingDtype[]).filter(has);
    throw new EmbeddingModelNotFoundError(
      model,
      [join(dir, "onnx", DTYPE_FILES[requested])],
      `dtype ${requested} braucht onnx/${DTYPE_FILES[requested]}; vorhanden: ${others.join(", ") || "keine ONNX-Datei"}`,
    );
  }
  throw new EmbeddingModelNotFoundError(
    model,
    [join(dir, "onnx", DTYPE_FILES[DEFAULT_EMBEDDING_DTYPE]), join(dir, "onnx", DTYPE_FILES.fp32)],
    "keine ONNX-Datei gefunden",
  );
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1)
    throw new RagInputError(`${name} muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(value)}.`, value);
  return v;
}

/** A download progress printer for transformers.js' progress_callback (bar in a terminal, lines otherwise). */
function downloadReporter(model: string) {
  const tty = Boolean(process.stderr.isTTY);
  const lastPercent = new Map<string, number>();
  const lines = new Map<string, ProgressLine | null>();
  const mb = (n: number | undefined) => germanNumber((n ?? 0) / 1e6, 1);
  return (info: { status: string; file?: string; progress?: number; loaded?: number; total?: number }) => {
    if (info.status !== "progress" || !info.file) return;
    if (inNotebook()) {
      // In a notebook: one line per file that updates in place.
      if (!lines.has(info.file)) lines.set(info.file, progressLine(`Lade ${model}/${info.file}`));
      const line = lines.get(info.file);
      const size = `${mb(info.loaded)} von ${mb(info.total)} MB`;
      if ((info.progress ?? 0) >= 100) line?.done(size);
      else line?.update((info.progress ?? 0) / 100, size);
      return;
    }
    const percent = Math.floor(info.progress ?? 0);
    const step = tty ? 1 : 25;
    const last = lastPercent.get(info.file) ?? -step;
    if (percent < last + step && percent < 100) return;
    if (percent === last) return;
    lastPercent.set(info.file, percent);
    const line = `Lade ${model}/${info.file}: ${percent} % (${mb(info.loaded)} von ${mb(info.total)} MB)`;
    if (tty) process.stderr.write(`\r${line}${percent >= 100 ? "\n" : ""}`);
    else process.stderr.write(line + "\n");
  };
}

/** Files next to the weights that change what the model computes (tokenisation, pooling set-up). */
const MODEL_SIDE_FILES = [
  "config.json",
  "tokenizer.json",
  "tokenizer_config.json",
  "special_tokens_map.json",
  "vocab.txt",
];
const EDGE_BYTES = 1024 * 1024;

/**
 * A hash of a model folder's content as loaded with `dtype`: size, first and last MiB of the weight
 * file, and the tokenizer/config files. No timestamps or paths, so a copied folder (cp from a USB
 * stick, another MODELS_DIR) keeps its hash; new weights or a new tokenizer change it. (A change
 * confined to the middle of a large weight file that keeps its size is not seen — reading all of a
 * 470 MB file on every start would cost seconds.)
 */
export function modelContentHash(dir: string, dtype: EmbeddingDtype): string {
  const hash = createHash("sha256");
  const weights = join(dir, "onnx", DTYPE_FILES[dtype]);
  if (existsSync(weights)) {
    const size = statSync(weights).size;
    hash.update(`weights ${DTYPE_FILES[dtype]} ${size}\n`);
    const fd = openSync(weights, "r");
    try {
      const read = (position: number, length: number) => {
        const buf = Buffer.alloc(length);
        const n = readSync(fd, buf, 0, length, position);
        hash.update(buf.subarray(0, n));
      };
      if (size <= 2 * EDGE_BYTES) read(0, size);
      else {
        read(0, EDGE_BYTES);
        read(size - EDGE_BYTES, EDGE_BYTES);
      }
    } finally {
      closeSync(fd);
    }
  } else {
    hash.update("weights ?\n");
  }
  for (const name of MODEL_SIDE_FILES) {
    const file = join(dir, name);
    if (existsSync(file)) hash.update(`${name}\n`).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

let remoteLock: Promise<unknown> = Promise.resolve();

/**
 * Loads hub model `id` with transformers.js, downloading missing files into `<modelsDir>/<id>/` (the
 * folder resolveEmbeddingModel looks in). Calls are serialised: they change transformers.js' global env.
 */
async function loadFromHub(
  id: string,
  o: { dtype: EmbeddingDtype; modelsDir: string; remoteHost?: string; progress: boolean; sessionOptions?: object },
): Promise<FeatureExtractionPipeline> {
  const { pipeline, env } = await loadTransformers();
  const load = async () => {
    const saved = { remoteHost: env.remoteHost, allowRemoteModels: env.allowRemoteModels };
    env.remoteHost = o.remoteHost ?? process.env.HF_ENDPOINT ?? saved.remoteHost;
    env.allowRemoteModels = true;
    try {
      return await pipeline("feature-extraction", id, {
        dtype: o.dtype,
        device: "cpu",
        cache_dir: o.modelsDir,
        session_options: o.sessionOptions,
        progress_callback: o.progress ? downloadReporter(id) : undefined,
      });
    } finally {
      env.remoteHost = saved.remoteHost;
      env.allowRemoteModels = saved.allowRemoteModels;
    }
  };
  const next = remoteLock.then(load, load);
  remoteLock = next.catch(ignore("the caller gets this load's failure; the next load runs anyway"));
  return next;
}

/** Files the embedder needs in a model folder, besides the weights of the chosen dtype. */
const REQUIRED_MODEL_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json"];

export interface EmbeddingModelFiles {
  /** The model as configured (id or path). */
  model: string;
  /** The folder the embedder loads it from (`<MODELS_DIR>/<id>/` for a hub id). */
  dir: string;
  dtype: EmbeddingDtype;
  /** Files the embedder needs, relative to `dir`. */
  required: string[];
  /** The subset of `required` that is not there. */
  missing: string[];
  /** True for a hub id (missing files can be downloaded into `dir`), false for a local folder. */
  downloadable: boolean;
}

/**
 * Which files the embedding model needs for `dtype` and which are missing — without network.
 * Defaults: EMBEDDING_MODEL, DEFAULT_EMBEDDING_DTYPE, MODELS_DIR.
 */
export function embeddingModelFiles(
  options: { model?: string; dtype?: EmbeddingDtype; modelsDir?: string } = {},
): EmbeddingModelFiles {
  const config = loadConfig();
  const model = options.model ?? config.embeddingModel;
  const modelsDir = options.modelsDir ? resolve(config.root, options.modelsDir) : config.modelsDir;
  if (options.dtype !== undefined && !(options.dtype in DTYPE_FILES)) {
    throw new RagInputError(
      `Unbekannter dtype "${String(options.dtype)}"; erlaubt: ${EMBEDDING_DTYPES.join(", ")}.`,
      options.dtype,
    );
  }
  const { dir, isPath } = modelPlace(model, modelsDir, config.root);
  if (!isPath && !HUB_ID.test(model))
    throw new EmbeddingModelNotFoundError(model, [dir], "weder Ordner noch gültige Modell-ID");
  // Without an explicit dtype, weights that are already there do (the rule createEmbedder loads by).
  const dtype = options.dtype ?? presentDtype(dir) ?? DEFAULT_EMBEDDING_DTYPE;
  const required = [...REQUIRED_MODEL_FILES, `onnx/${DTYPE_FILES[dtype]}`];
  return {
    model,
    dir,
    dtype,
    required,
    missing: required.filter((f) => !existsSync(join(dir, f))),
    downloadable: !isPath,
  };
}

/**
 * Makes sure the embedding model is complete in its folder: downloads the missing files of a hub model
 * into `<MODELS_DIR>/<id>/` (with progress on stderr unless `progress: false`), where createEmbedder
 * finds them afterwards without network. Returns the state before the download.
 * Throws EmbeddingModelNotFoundError when files are missing and cannot be downloaded (a local folder,
 * or offline: MODELS_OFFLINE=1 / `offline: true`), EmbeddingModelLoadError when the download fails.
 */
export async function pullEmbeddingModel(
  options: {
    model?: string;
    dtype?: EmbeddingDtype;
    modelsDir?: string;
    offline?: boolean;
    remoteHost?: string;
    progress?: boolean;
  } = {},
): Promise<EmbeddingModelFiles> {
  const config = loadConfig();
  const files = embeddingModelFiles(options);
  if (files.missing.length === 0) return files;
  const missing = `es fehlt: ${files.missing.join(", ")}`;
  if (!files.downloadable)
    throw new EmbeddingModelNotFoundError(
      files.model,
      [files.dir],
      `${missing} (lokaler Ordner, wird nicht heruntergeladen)`,
    );
  if (options.offline ?? config.modelsOffline)
    throw new EmbeddingModelNotFoundError(files.model, [files.dir], `${missing}, und MODELS_OFFLINE=1`);
  const modelsDir = options.modelsDir ? resolve(config.root, options.modelsDir) : config.modelsDir;
  let extractor: FeatureExtractionPipeline;
  try {
    extractor = await loadFromHub(files.model, {
      dtype: files.dtype,
      modelsDir,
      remoteHost: options.remoteHost,
      progress: options.progress !== false,
    });
  } catch (error) {
    throw new EmbeddingModelLoadError(files.model, errorText(error));
  }
  await extractor.dispose();
  const still = files.required.filter((f) => !existsSync(join(files.dir, f)));
  if (still.length > 0)
    throw new EmbeddingModelLoadError(
      files.model,
      `nach dem Download fehlt noch: ${still.join(", ")} (in ${files.dir})`,
    );
  return files;
}

const SLOT = "embedder";

/**
 * Loads the embedding model (see the file comment for how it is found). Inside a notebook kernel the
 * embedder is kept once: running the cell again with the same options returns the live one ("Run All"),
 * other options dispose it first; a failure prints one German paragraph.
 */
/** Whether `modelDir` is the kit's generated test model (Embedder.testModel). */
function isTestModelDir(modelDir: string): boolean {
  return resolve(modelDir) === resolve(tinyModelPaths(loadConfig().root).embeddingDir);
}

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
  if (options.dtype !== undefined && !(options.dtype in DTYPE_FILES)) {
    throw new RagInputError(
      `Unbekannter dtype "${String(options.dtype)}"; erlaubt: ${Object.keys(DTYPE_FILES).join(", ")}.`,
      options.dtype,
    );
  }
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
