// Teil 2 — public names of lib/rag: sentences → chunks → embeddings → index → context → prompt.
export { splitSentences } from "./sentences.js";
export {
  chunkDocuments,
  chunkText,
  DEFAULT_CHUNKING,
  type Chunk,
  type ChunkingOptions,
  type ChunkMetadata,
  type CorpusDocument,
} from "./chunking.js";
export { defaultCorpusDir, loadCorpus, type LoadCorpusOptions } from "./corpus.js";
export { createEmbedder, type Embedder, type EmbedderOptions } from "./embedder.js";
export {
  DEFAULT_EMBEDDING_DTYPE,
  EMBEDDING_DTYPES,
  embeddingModelFiles,
  type EmbeddingModelFiles,
  type EmbeddingDtype,
} from "./embedding-model.js";
export { pullEmbeddingModel } from "./embedding-pull.js";
export {
  VectorIndex,
  type IndexKind,
  type IndexMetric,
  type SearchHit,
  type VectorIndexOptions,
} from "./vector-index.js";
export {
  CONTEXT_SEPARATOR,
  defaultRagCacheDir,
  openRagStore,
  RagStore,
  searchText,
  storeHash,
  type OpenRagStoreOptions,
  type RagContext,
  type RetrievedChunk,
} from "./store.js";
export { buildRagMessages, TRAVEL_PLANNER_PERSONA } from "./prompt.js";
export { Bm25Index, type Bm25Hit } from "./bm25.js";
export {
  DimensionMismatchError,
  EmbeddingModelLoadError,
  EmbeddingModelNotFoundError,
  EmptyCorpusError,
  HnswUnavailableError,
  IndexStoreError,
  RagError,
  RagFileNotFoundError,
  RagInputError,
} from "./errors.js";
// Types of the public signatures (options, results, event parts), for lib/index.ts and the API reference.
export type { Bm25Options } from "./bm25.js";
export type { EmbedOptions } from "./embedder.js";
export type { StoreBuildOptions, StoreManifest } from "./store.js";
export type { ProgressMode } from "./progress.js";
