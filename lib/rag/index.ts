// Teil 2 — public names of lib/rag: sentences → chunks → embeddings → index → context → prompt.
export { splitSentences, splitSentencesWithOffsets, type SentenceSpan } from "./sentences.js";
export { GERMAN_LANGUAGE } from "./german-abbreviations.js";
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
export {
  createEmbedder,
  DEFAULT_EMBEDDING_DTYPE,
  EMBEDDING_DTYPES,
  embeddingModelFiles,
  pullEmbeddingModel,
  resolveEmbeddingModel,
  type EmbeddingModelFiles,
  type EmbedOptions,
  type Embedder,
  type EmbedderOptions,
  type EmbeddingDtype,
} from "./embedder.js";
export { DEFAULT_HNSW_EF_SEARCH, VectorIndex, type IndexKind, type IndexMetric, type SearchHit, type VectorIndexOptions } from "./vector-index.js";
export {
  chunkingFingerprint,
  CONTEXT_SEPARATOR,
  defaultRagCacheDir,
  getRagContext,
  openRagStore,
  RagStore,
  searchText,
  storeHash,
  type ChunkingPipeline,
  type OpenRagStoreOptions,
  type RagContext,
  type RetrievedChunk,
  type StoreBuildOptions,
  type StoreManifest,
} from "./store.js";
export { buildRagMessages, CONTEXT_END, CONTEXT_RULES, CONTEXT_START, TRAVEL_PLANNER_PERSONA } from "./prompt.js";
export { Bm25Index, tokenize as bm25Tokenize, type Bm25Hit, type Bm25Options } from "./bm25.js";
export {
  firstHitRank,
  formatMetricsTable,
  isHit,
  loadQaSet,
  locatePassages,
  retrievalMetrics,
  type QaItem,
  type RetrievalMetrics,
} from "./evaluation.js";
export type { ProgressMode } from "./progress.js";
export {
  DimensionMismatchError,
  EmbeddingModelLoadError,
  EmbeddingModelNotFoundError,
  EmptyCorpusError,
  IndexStoreError,
  RagError,
  RagFileNotFoundError,
  RagInputError,
} from "./errors.js";
