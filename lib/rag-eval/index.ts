// Teil 2 — measuring retrieval: a Q&A set whose answers are located in the corpus, hit@k and MRR per
// retrieval method (vector index, BM25), and their table; `npm run eval:rag` is its CLI.
export {
  firstHitRank,
  formatMetricsTable,
  isHit,
  loadQaSet,
  locatePassage,
  locatePassages,
  retrievalMetrics,
  type PassageLocation,
  type QaItem,
  type RetrievalMetrics,
} from "./evaluation.js";
