// The RAG store: chunks + their embeddings in a vector index, persisted as `<name>.faiss` (exact FAISS
// index) or `<name>.usearch` (HNSW graph) and `<name>.json` (manifest + chunk texts and metadata).
// A content hash over the corpus text, the embedding model (id, dtype, weight file), the chunking
// parameters, the index settings and the version of the sentence splitter and chunker
// (CHUNKER_VERSION) decides whether a persisted store can be reused; any change rebuilds it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { loadConfig } from "../config.js";
import { chunkDocuments, DEFAULT_CHUNKING, type Chunk, type CorpusDocument } from "./chunking.js";
import { loadCorpus } from "./corpus.js";
import { createEmbedder, type Embedder, type EmbedderOptions } from "./embedder.js";
import {
  DimensionMismatchError,
  EmptyCorpusError,
  IndexStoreError,
  RagFileNotFoundError,
  RagInputError,
} from "./errors.js";
import type { ProgressMode } from "./progress.js";
import { VectorIndex, type IndexKind } from "./vector-index.js";
import { errorText } from "../util.js";

const FORMAT = "rag-store/2";
/** What stands between two chunks in a context string (RagContext.context). */
export const CONTEXT_SEPARATOR = "\n\n---\n\n";

export interface StoreBuildOptions {
  /** Chunking parameters (defaults: maxChars 500, overlapSentences 1). */
  chunking?: { maxChars?: number; overlapSentences?: number };
  /** "flat" (exact, default) or "hnsw" (approximate, for large corpora). */
  index?: IndexKind;
  /** Prefix each chunk's Markdown headings to the text that is embedded (default true). */
  embedHeadings?: boolean;
  /** Progress bar while embedding (default "auto": terminal only). */
  progress?: ProgressMode;
  /** Chunks per embedding forward pass, whole number ≥ 1 (default: the embedder's, 32). */
  batchSize?: number;
  /** Chunker version that goes into the content hash (default `CHUNKER_VERSION` of store.ts); for tests. */
  chunkerVersion?: string;
}

export interface RetrievedChunk {
  /** Position of the chunk in `store.chunks`. */
  id: number;
  text: string;
  /** Cosine similarity (inner product of unit vectors): 1 = same direction. */
  score: number;
  metadata: Chunk["metadata"];
}

export interface RagContext {
  query: string;
  chunks: RetrievedChunk[];
  /** The chunk texts joined with "\n\n---\n\n", ready for a prompt. */
  context: string;
}

/** What `store.json` records about a saved store: how it was built and its chunks. */
export interface StoreManifest {
  format: typeof FORMAT;
  hash: string;
  createdAt: string;
  model: string;
  dtype: string;
  fingerprint: string;
  dimension: number;
  index: IndexKind;
  chunking: { maxChars: number; overlapSentences: number };
  embedHeadings: boolean;
  chunker: string;
  documents: { name: string; sha256: string; chars: number }[];
  chunks: Chunk[];
}

// The schema checks a manifest read from disk; `satisfies` ties its output to the interface above
// (public types stay plain interfaces, so notebooks type-check without zod's declarations).
const metadataSchema = z.object({
  document: z.string(),
  paragraph: z.number().int().min(0),
  index: z.number().int().min(0),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  headings: z.array(z.string()),
});

const manifestSchema = z.object({
  format: z.literal(FORMAT),
  hash: z.string(),
  createdAt: z.string(),
  model: z.string(),
  dtype: z.string(),
  fingerprint: z.string(),
  dimension: z.number().int().min(1),
  index: z.enum(["flat", "hnsw"]),
  chunking: z.object({ maxChars: z.number().int().min(1), overlapSentences: z.number().int().min(0) }),
  embedHeadings: z.boolean(),
  chunker: z.string(),
  documents: z.array(z.object({ name: z.string(), sha256: z.string(), chars: z.number().int().min(0) })),
  chunks: z.array(z.object({ text: z.string(), metadata: metadataSchema })),
}) satisfies z.ZodType<StoreManifest>;

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Checks every build option (throws RagInputError) and fills in the defaults. */
function normalizeBuildOptions(options: StoreBuildOptions) {
  const chunking = {
    maxChars: options.chunking?.maxChars ?? DEFAULT_CHUNKING.maxChars,
    overlapSentences: options.chunking?.overlapSentences ?? DEFAULT_CHUNKING.overlapSentences,
  };
  if (!Number.isInteger(chunking.maxChars) || chunking.maxChars < 1) {
    throw new RagInputError(
      `maxChars muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(chunking.maxChars)}.`,
      chunking.maxChars,
    );
  }
  if (!Number.isInteger(chunking.overlapSentences) || chunking.overlapSentences < 0) {
    throw new RagInputError(
      `overlapSentences muss eine ganze Zahl ≥ 0 sein, erhalten: ${String(chunking.overlapSentences)}.`,
      chunking.overlapSentences,
    );
  }
  const index = options.index ?? "flat";
  if (index !== "flat" && index !== "hnsw")
    throw new RagInputError(`Unbekannte Index-Art "${String(index)}" (erlaubt: flat, hnsw).`, index);
  const embedHeadings = options.embedHeadings ?? true;
  if (typeof embedHeadings !== "boolean")
    throw new RagInputError(
      `embedHeadings muss true oder false sein, erhalten: ${String(embedHeadings)}.`,
      embedHeadings,
    );
  const chunker = options.chunkerVersion ?? CHUNKER_VERSION;
  return { chunking, index, embedHeadings, chunker };
}

/** The text that is embedded (and BM25-indexed) for a chunk: its headings, then its text. */
export function searchText(chunk: Chunk, embedHeadings: boolean): string {
  return embedHeadings && chunk.metadata.headings.length > 0
    ? `${chunk.metadata.headings.join(" › ")}\n${chunk.text}`
    : chunk.text;
}

/**
 * German text with the cases where sentence and chunk boundaries are easy to get wrong: abbreviations,
 * dates, ordinals, decimals, years and numbers before a sentence end, quotes, headings, list items,
 * line breaks, an over-long sentence and an over-long word. Changing it changes every store hash.
 */
/**
 * Version of the sentence splitter, its rule tables, the chunker and the embedded text (searchText).
 * Bump it with any change to lib/rag/sentences.ts, german-abbreviations.ts, chunking.ts or searchText:
 * stores cached by older code are then rebuilt instead of silently reused.
 */
export const CHUNKER_VERSION = "2";

/**
 * The content hash a store is keyed by: corpus text, model fingerprint (incl. dtype), chunking
 * parameters, index settings and the chunker version.
 */
export function storeHash(
  documents: readonly CorpusDocument[],
  embedder: Pick<Embedder, "fingerprint">,
  options: StoreBuildOptions = {},
): string {
  const o = normalizeBuildOptions(options);
  const key = {
    format: FORMAT,
    model: embedder.fingerprint,
    chunking: o.chunking,
    chunker: o.chunker,
    index: o.index,
    embedHeadings: o.embedHeadings,
    documents: documents.map((d) => [d.name, sha256(d.text)]),
  };
  return sha256(JSON.stringify(key));
}

function checkQuery(query: string, k: number): void {
  if (typeof query !== "string" || query.trim() === "") {
    throw new RagInputError("Die Suchanfrage ist leer; bitte eine Frage als Text übergeben.", query);
  }
  if (!Number.isInteger(k) || k < 1)
    throw new RagInputError(`k muss eine ganze Zahl ≥ 1 sein, erhalten: ${String(k)}.`, k);
}

/**
 * A searchable corpus: its chunks, their embeddings in a VectorIndex and the embedder for queries.
 * Made by {@link openRagStore} (cached on disk) or RagStore.build; search() and context() retrieve.
 */
export class RagStore {
  /** True when {@link openRagStore} loaded this store from its cache instead of building it. */
  loadedFromCache = false;
  /** Set by {@link openRagStore} when it created the embedder itself; then dispose() releases it. */
  ownsEmbedder = false;

  private constructor(
    readonly manifest: StoreManifest,
    readonly index: VectorIndex,
    readonly embedder: Embedder,
  ) {}

  /** Every chunk of the store, in index order. */
  get chunks(): StoreManifest["chunks"] {
    return this.manifest.chunks;
  }

  /** Content hash of corpus, embedding model and parameters: the cache key (see storeHash). */
  get hash(): string {
    return this.manifest.hash;
  }

  /** Chunks the documents, embeds every chunk and indexes the vectors. */
  static async build(
    documents: readonly CorpusDocument[],
    embedder: Embedder,
    options: StoreBuildOptions = {},
  ): Promise<RagStore> {
    const o = normalizeBuildOptions(options);
    if (!Array.isArray(documents) || documents.length === 0) throw new EmptyCorpusError("übergebene Dokumentliste");
    const chunks = chunkDocuments(documents, o.chunking);
    if (chunks.length === 0)
      throw new EmptyCorpusError(
        `${documents.length === 1 ? "1 Dokument" : `${documents.length} Dokumente`} ohne Text`,
      );
    const vectors = await embedder.embed(
      chunks.map((c) => searchText(c, o.embedHeadings)),
      { progress: options.progress, batchSize: options.batchSize },
    );
    const first = vectors[0];
    if (first && first.length !== embedder.dimension)
      throw new DimensionMismatchError(embedder.dimension, first.length, "Embedding");
    const index = VectorIndex.create(embedder.dimension, { kind: o.index, metric: "ip" });
    index.add(vectors);
    const manifest: StoreManifest = {
      format: FORMAT,
      hash: storeHash(documents, embedder, options),
      createdAt: new Date().toISOString(),
      model: embedder.model,
      dtype: embedder.dtype,
      fingerprint: embedder.fingerprint,
      dimension: embedder.dimension,
      index: o.index,
      chunking: o.chunking,
      embedHeadings: o.embedHeadings,
      chunker: o.chunker,
      documents: documents.map((d) => ({ name: d.name, sha256: sha256(d.text), chars: d.text.length })),
      chunks,
    };
    return new RagStore(manifest, index, embedder);
  }

  /** Writes `<dir>/<name>.faiss` (or `.usearch`) and `<dir>/<name>.json` (atomically: temp file, then rename). */
  save(dir: string, name = "default"): void {
    const folder = resolve(loadConfig().root, dir);
    mkdirSync(folder, { recursive: true });
    const { indexFileFor, manifestFile } = storeFiles(folder, name);
    const indexFile = indexFileFor(this.manifest.index);
    const suffix = `.tmp-${process.pid}`;
    this.index.save(indexFile + suffix);
    writeFileSync(manifestFile + suffix, JSON.stringify(this.manifest));
    renameSync(indexFile + suffix, indexFile);
    renameSync(manifestFile + suffix, manifestFile);
  }

  /** Reads a store written by {@link save}; the embedder must be the model the store was built with. */
  static load(dir: string, embedder: Embedder, name = "default"): RagStore {
    const folder = resolve(loadConfig().root, dir);
    const { indexFileFor, manifestFile } = storeFiles(folder, name);
    if (!existsSync(manifestFile)) throw new RagFileNotFoundError(manifestFile, "Chunk-Speicher (JSON)");
    let manifest: StoreManifest;
    try {
      manifest = manifestSchema.parse(JSON.parse(readFileSync(manifestFile, "utf8")));
    } catch (error) {
      throw new IndexStoreError(manifestFile, errorText(error).slice(0, 500));
    }
    const indexFile = indexFileFor(manifest.index);
    if (!existsSync(indexFile)) throw new RagFileNotFoundError(indexFile, "Index-Datei");
    if (embedder.dimension !== manifest.dimension) {
      throw new DimensionMismatchError(
        manifest.dimension,
        embedder.dimension,
        `Modell ${embedder.model} gegenüber gespeichertem Index`,
      );
    }
    if (embedder.fingerprint !== manifest.fingerprint) {
      throw new IndexStoreError(
        manifestFile,
        `gebaut mit ${manifest.fingerprint}, geladen ist ${embedder.fingerprint}`,
      );
    }
    const index = VectorIndex.load(indexFile, { kind: manifest.index, metric: "ip", dimension: manifest.dimension });
    if (index.size !== manifest.chunks.length) {
      throw new IndexStoreError(indexFile, `${index.size} Vektoren, aber ${manifest.chunks.length} Chunks`);
    }
    return new RagStore(manifest, index, embedder);
  }

  /** The k chunks most similar to `query`, best first. */
  async search(query: string, k = 3): Promise<RetrievedChunk[]> {
    checkQuery(query, k);
    const vector = await this.embedder.embedOne(query);
    return this.searchVector(vector, k);
  }

  /** Like {@link search} with a query vector computed elsewhere. */
  searchVector(vector: ArrayLike<number>, k = 3): RetrievedChunk[] {
    return this.index.search(vector, k).flatMap(({ id, score }) => {
      const chunk = this.manifest.chunks[id];
      return chunk ? [{ id, text: chunk.text, score, metadata: chunk.metadata }] : [];
    });
  }

  /** Releases the embedding model if this store created it (openRagStore without `embedder`). */
  async dispose(): Promise<void> {
    if (this.ownsEmbedder) await this.embedder.dispose();
  }

  /** Top-k chunks plus the context string for a prompt: their texts joined by CONTEXT_SEPARATOR. */
  async getRagContext(query: string, k = 3): Promise<RagContext> {
    const chunks = await this.search(query, k);
    return { query, chunks, context: chunks.map((c) => c.text).join(CONTEXT_SEPARATOR) };
  }
}

/** The hash recorded in a manifest file, or undefined if it cannot be read. */
function storedHash(manifestFile: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(manifestFile, "utf8")) as { hash?: unknown };
    return typeof parsed.hash === "string" ? parsed.hash : undefined;
  } catch {
    return undefined;
  }
}

function storeFiles(folder: string, name: string) {
  if (!/^[\w.-]+$/u.test(name))
    throw new RagInputError(`Ungültiger Store-Name "${name}" (erlaubt: Buchstaben, Ziffern, . _ -).`, name);
  return {
    indexFileFor: (kind: IndexKind) => join(folder, `${name}.${kind === "hnsw" ? "usearch" : "faiss"}`),
    manifestFile: join(folder, `${name}.json`),
  };
}

export interface OpenRagStoreOptions extends StoreBuildOptions {
  /** Documents to index (default: loadCorpus(corpusDir)). */
  documents?: readonly CorpusDocument[];
  /** Corpus folder when `documents` is not given (default data/corpus). */
  corpusDir?: string;
  /** An embedder to use (default: createEmbedder(embedderOptions)). */
  embedder?: Embedder;
  /** Options for the embedder created when `embedder` is not given (default: createEmbedder's). */
  embedderOptions?: EmbedderOptions;
  /** Cache folder (default `<root>/.cache/rag`). */
  cacheDir?: string;
  /** File name stem inside the cache folder (default "default"). */
  name?: string;
  /** Build even if the cache is up to date. Default false. */
  rebuild?: boolean;
  /** Called with short status lines ("Index aus Cache geladen …"). */
  onStatus?: (line: string) => void;
}

/** Default cache folder of persisted stores: RAG_CACHE_DIR, else `<root>/.cache/rag`. */
export function defaultRagCacheDir(): string {
  return loadConfig().ragCacheDir;
}

/**
 * Loads the store from the cache if corpus, model and parameters are unchanged (same content hash);
 * otherwise builds it and saves it for next time.
 */
export async function openRagStore(options: OpenRagStoreOptions = {}): Promise<RagStore> {
  // Bad options fail here, before the corpus is read, the model loaded or the cache looked at.
  normalizeBuildOptions(options);
  storeFiles(options.cacheDir ?? ".", options.name ?? "default");
  const documents = options.documents ?? loadCorpus(options.corpusDir);
  if (documents.length === 0) throw new EmptyCorpusError("übergebene Dokumentliste");
  const ownsEmbedder = !options.embedder;
  const embedder = options.embedder ?? (await createEmbedder(options.embedderOptions));
  try {
    const store = await openWith(documents, embedder, options);
    store.ownsEmbedder = ownsEmbedder;
    return store;
  } catch (error) {
    if (ownsEmbedder) await embedder.dispose();
    throw error;
  }
}

async function openWith(
  documents: readonly CorpusDocument[],
  embedder: Embedder,
  options: OpenRagStoreOptions,
): Promise<RagStore> {
  const cacheDir = options.cacheDir ? resolve(loadConfig().root, options.cacheDir) : defaultRagCacheDir();
  const name = options.name ?? "default";
  const { manifestFile } = storeFiles(cacheDir, name);
  const hash = storeHash(documents, embedder, options);
  const status = options.onStatus ?? (() => {});
  if (!options.rebuild && existsSync(manifestFile)) {
    if (storedHash(manifestFile) !== hash) {
      status("Korpus, Modell oder Parameter geändert: Index wird neu gebaut.");
    } else {
      try {
        const store = RagStore.load(cacheDir, embedder, name);
        store.loadedFromCache = true;
        status(`Index aus dem Cache geladen (${store.chunks.length} Chunks): ${dirname(manifestFile)}`);
        return store;
      } catch (error) {
        status(
          `Gespeicherter Index nicht nutzbar (${error instanceof Error ? error.name : "Fehler"}): wird neu gebaut.`,
        );
        rmSync(manifestFile, { force: true });
      }
    }
  }
  const store = await RagStore.build(documents, embedder, options);
  store.save(cacheDir, name);
  status(`Index gebaut und gespeichert (${store.chunks.length} Chunks): ${cacheDir}`);
  return store;
}
