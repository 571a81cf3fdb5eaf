// The embedding model's place and weights, one rule for the embedder, `npm run models:pull` and
// `npm run doctor`: which ONNX dtypes exist, where a model id or path is loaded from (resolveEmbeddingModel,
// modelPlace), which dtype a folder is loaded with (presentDtype, pickDtype), which files it needs
// (embeddingModelFiles) and the content hash that goes into the embedder's fingerprint. No network, no
// transformers.js.
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { loadConfig } from "../config.js";
import { EmbeddingModelNotFoundError, RagInputError } from "./errors.js";

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

/** Throws a RagInputError for a dtype name transformers.js does not know (options from plain JavaScript). */
export function checkDtype(dtype: EmbeddingDtype | undefined): void {
  if (dtype !== undefined && !(dtype in DTYPE_FILES))
    throw new RagInputError(`Unbekannter dtype "${String(dtype)}"; erlaubt: ${EMBEDDING_DTYPES.join(", ")}.`, dtype);
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
export function presentDtype(dir: string, requested?: EmbeddingDtype): EmbeddingDtype | undefined {
  const has = (d: EmbeddingDtype) => existsSync(join(dir, "onnx", DTYPE_FILES[d]));
  if (requested) return has(requested) ? requested : undefined;
  return [DEFAULT_EMBEDDING_DTYPE, "fp32" as const].find(has);
}

/** The dtype to load from local folder `dir` (presentDtype), or an EmbeddingModelNotFoundError saying what is there. */
export function pickDtype(dir: string, requested: EmbeddingDtype | undefined, model: string): EmbeddingDtype {
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
  checkDtype(options.dtype);
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
