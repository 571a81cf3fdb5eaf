// `npm run eval:rag` — retrieval quality on the Q&A set: hit@1/3/5 and MRR of the configured embedding
// model (EMBEDDING_MODEL) next to a lexical BM25 baseline over the same chunks, printed as a table.
//
// Options: --corpus <dir> (data/corpus) --qa <file> (<corpus>/qa.json) --model <id|path> --dtype <fp32|q8|…>
//          --max-chars <n> (500) --overlap <n> (1) --index <flat|hnsw> --no-headings --cache-dir <dir>
//          --rebuild --depth <n> (ranked list length for MRR, 10) --json
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../lib/config.js";
import {
  Bm25Index,
  DEFAULT_CHUNKING,
  firstHitRank,
  formatMetricsTable,
  loadCorpus,
  loadQaSet,
  locatePassages,
  openRagStore,
  RagError,
  retrievalMetrics,
  searchText,
  type EmbeddingDtype,
  type IndexKind,
} from "../lib/rag/index.js";

function intOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} erwartet eine ganze Zahl ≥ 0, erhalten: ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      corpus: { type: "string" },
      qa: { type: "string" },
      model: { type: "string" },
      dtype: { type: "string" },
      "max-chars": { type: "string" },
      overlap: { type: "string" },
      index: { type: "string" },
      "no-headings": { type: "boolean", default: false },
      "cache-dir": { type: "string" },
      rebuild: { type: "boolean", default: false },
      depth: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const config = loadConfig();
  const corpusDir = resolve(config.root, values.corpus ?? join("data", "corpus"));
  const qaFile = resolve(config.root, values.qa ?? join(corpusDir, "qa.json"));
  const depth = Math.max(5, intOption("depth", values.depth, 10));
  const chunking = {
    maxChars: intOption("max-chars", values["max-chars"], DEFAULT_CHUNKING.maxChars),
    overlapSentences: intOption("overlap", values.overlap, DEFAULT_CHUNKING.overlapSentences),
  };
  const embedHeadings = !values["no-headings"];

  const documents = loadCorpus(corpusDir);
  const qa = loadQaSet(qaFile);
  const passages = locatePassages(qa, documents);

  const t0 = performance.now();
  const store = await openRagStore({
    documents,
    chunking,
    embedHeadings,
    index: (values.index ?? "flat") as IndexKind,
    embedderOptions: { model: values.model, dtype: values.dtype as EmbeddingDtype | undefined },
    cacheDir: values["cache-dir"],
    name: "eval",
    rebuild: values.rebuild,
    onStatus: (line) => console.error(line),
  });
  const buildMs = performance.now() - t0;

  const chunkRefs = store.chunks.map((c) => ({ document: c.metadata.document, start: c.metadata.start, end: c.metadata.end }));
  const bm25 = new Bm25Index(store.chunks.map((c) => searchText(c, embedHeadings)));

  const queryVectors = await store.embedder.embed(qa.map((q) => q.question));
  const denseRanks = qa.map((_, i) => {
    const hits = store.searchVector(queryVectors[i] ?? [], depth);
    return firstHitRank(hits.map((h) => chunkRefs[h.id] ?? { document: "", start: 0, end: 0 }), passages[i] ?? { document: "", start: 0, end: 0 });
  });
  const bm25Ranks = qa.map((q, i) => {
    const hits = bm25.search(q.question, depth);
    return firstHitRank(hits.map((h) => chunkRefs[h.id] ?? { document: "", start: 0, end: 0 }), passages[i] ?? { document: "", start: 0, end: 0 });
  });

  const embedder = store.embedder;
  const rows = [
    { method: `Embeddings (${embedder.model}, ${embedder.dtype})`, metrics: retrievalMetrics(denseRanks) },
    { method: "BM25 (lexikalisch)", metrics: retrievalMetrics(bm25Ranks) },
  ];
  console.log(
    `Korpus: ${corpusDir} (${documents.length} Dokumente, ${store.chunks.length} Chunks; maxChars ${chunking.maxChars}, ` +
      `Overlap ${chunking.overlapSentences} Satz/Sätze, Überschriften ${embedHeadings ? "mit" : "ohne"}, Index ${store.manifest.index})`,
  );
  console.log(`Q&A: ${qaFile} (${qa.length} Fragen) — Index ${store.loadedFromCache ? "aus dem Cache" : "neu gebaut"} in ${Math.round(buildMs)} ms\n`);
  console.log(formatMetricsTable(rows, depth));
  if (values.json) {
    const misses = qa.filter((_, i) => denseRanks[i] === 0).map((q) => q.id);
    console.log(JSON.stringify({ chunking, embedHeadings, model: embedder.model, dtype: embedder.dtype, rows, denseMisses: misses }, null, 2));
  }
  await store.dispose();
}

main().catch((error: unknown) => {
  if (error instanceof RagError) console.error(`${error.name}: ${error.message}`);
  else console.error(error);
  process.exitCode = 1;
});
