// `npm run eval:rag` — retrieval quality on the Q&A set: hit@1/3/5 and MRR of the configured embedding
// model (EMBEDDING_MODEL) next to a lexical BM25 baseline over the same chunks, printed as a table.
//
// Options: --corpus <dir> (data/corpus) --qa <file> (<corpus>/qa.json) --model <id|path> --dtype <fp32|q8|…>
//          --max-chars <n> (500) --overlap <n> (1) --index <flat|hnsw> --no-headings --cache-dir <dir>
//          --rebuild --depth <n> (ranked list length for MRR, 10; at least 5)
//          --json (instead of the table: metrics and each question's first-hit rank as JSON)
// All options are checked before the corpus, the model or the cache are touched; a wrong one exits 2.
import { join, resolve } from "node:path";
import {
  Bm25Index,
  DEFAULT_CHUNKING,
  EMBEDDING_DTYPES,
  loadCorpus,
  openRagStore,
  RagError,
  searchText,
  type EmbeddingDtype,
  type IndexKind,
} from "../../../lib/rag/index.js";
import { findProjectRoot, loadConfig } from "../../../lib/index.js";
import {
  firstHitRank,
  formatMetricsTable,
  loadQaSet,
  locatePassages,
  retrievalMetrics,
} from "../../../lib/rag-eval/index.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";

const EVAL_RAG_OPTIONS = {
  corpus: { type: "string", value: "ORDNER", help: "Dokumente (Standard data/corpus)" },
  qa: { type: "string", value: "DATEI", help: "Fragen mit Belegstellen (Standard <corpus>/qa.json)" },
  model: { type: "string", value: "ID", help: "Embedding-Modell statt EMBEDDING_MODEL" },
  dtype: { type: "string", value: "D", help: `Gewichte des Embedding-Modells: ${EMBEDDING_DTYPES.join(", ")}` },
  "max-chars": { type: "string", value: "N", help: `Zeichen je Chunk (Standard ${DEFAULT_CHUNKING.maxChars})` },
  overlap: {
    type: "string",
    value: "N",
    help: `Sätze Überlappung zwischen Chunks (Standard ${DEFAULT_CHUNKING.overlapSentences})`,
  },
  index: { type: "string", value: "I", help: "flat (Standard) oder hnsw" },
  "no-headings": { type: "boolean", default: false, help: "Überschriften nicht mit einbetten" },
  "cache-dir": { type: "string", value: "ORDNER", help: "wo die berechneten Vektoren liegen (Standard .cache/rag)" },
  rebuild: { type: "boolean", default: false, help: "die Vektoren neu berechnen" },
  depth: { type: "string", value: "N", help: "Länge der Trefferliste für MRR (Standard 10, mindestens 5)" },
  json: { type: "boolean", default: false, help: "Kennzahlen und Rang je Frage als JSON statt der Tabelle" },
} as const;

export const command = defineCommand({
  name: "eval:rag",
  invocation: "npm run eval:rag --",
  summary: "Misst die Suche (Embeddings und BM25) auf den Fragen mit Belegstellen: Treffer, MRR, Rang je Frage.",
  options: EVAL_RAG_OPTIONS,
  run: ({ argv }) => run(argv),
});
const USAGE = command.usage;

interface EvalOptions {
  corpusDir: string;
  qaFile: string;
  model: string | undefined;
  dtype: EmbeddingDtype | undefined;
  chunking: { maxChars: number; overlapSentences: number };
  index: IndexKind;
  embedHeadings: boolean;
  cacheDir: string | undefined;
  rebuild: boolean;
  depth: number;
  json: boolean;
}

function intOption(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || !Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name} erwartet eine ganze Zahl ≥ ${min}, erhalten: "${value}".\n\n${USAGE}`);
  }
  return n;
}

/** Parses and checks the command line; throws UsageError on anything invalid (exit code 0: --help). */
function parseEvalArgs(argv: string[], root: string): EvalOptions {
  const { values } = parseArgsGerman(
    {
      args: argv,
      options: command.options,
    },
    USAGE,
  );
  const index = values.index ?? "flat";
  if (index !== "flat" && index !== "hnsw")
    throw new UsageError(`--index erwartet flat oder hnsw, erhalten: "${index}".\n\n${USAGE}`);
  const dtype = values.dtype;
  if (dtype !== undefined && !(EMBEDDING_DTYPES as string[]).includes(dtype)) {
    throw new UsageError(
      `--dtype erwartet einen von ${EMBEDDING_DTYPES.join(", ")}, erhalten: "${dtype}".\n\n${USAGE}`,
    );
  }
  const corpusDir = resolve(root, values.corpus ?? join("data", "corpus"));
  return {
    corpusDir,
    qaFile: resolve(root, values.qa ?? join(corpusDir, "qa.json")),
    model: values.model,
    dtype: dtype as EmbeddingDtype | undefined,
    chunking: {
      maxChars: intOption("max-chars", values["max-chars"], DEFAULT_CHUNKING.maxChars, 1),
      overlapSentences: intOption("overlap", values.overlap, DEFAULT_CHUNKING.overlapSentences, 0),
    },
    index,
    embedHeadings: !values["no-headings"],
    cacheDir: values["cache-dir"],
    rebuild: values.rebuild,
    depth: Math.max(5, intOption("depth", values.depth, 10, 1)),
    json: values.json,
  };
}

async function main(argv: string[]): Promise<void> {
  const o = parseEvalArgs(argv, findProjectRoot());
  loadConfig(); // a broken .env says so before the corpus and the model are touched

  const documents = loadCorpus(o.corpusDir);
  const qa = loadQaSet(o.qaFile);
  const passages = locatePassages(qa, documents);

  const t0 = performance.now();
  const store = await openRagStore({
    documents,
    chunking: o.chunking,
    embedHeadings: o.embedHeadings,
    index: o.index,
    embedderOptions: { model: o.model, dtype: o.dtype },
    cacheDir: o.cacheDir,
    name: "eval",
    rebuild: o.rebuild,
    onStatus: (line) => console.error(line),
  });
  const buildMs = performance.now() - t0;

  try {
    const chunkRefs = store.chunks.map((c) => ({
      document: c.metadata.document,
      start: c.metadata.start,
      end: c.metadata.end,
    }));
    const none = { document: "", start: 0, end: 0 };
    const bm25 = new Bm25Index(store.chunks.map((c) => searchText(c, o.embedHeadings)));

    const queryVectors = await store.embedder.embed(qa.map((q) => q.question));
    const denseRanks = qa.map((_, i) => {
      const hits = store.searchVector(queryVectors[i] ?? [], o.depth);
      return firstHitRank(
        hits.map((h) => chunkRefs[h.id] ?? none),
        passages[i] ?? none,
      );
    });
    const bm25Ranks = qa.map((q, i) => {
      const hits = bm25.search(q.question, o.depth);
      return firstHitRank(
        hits.map((h) => chunkRefs[h.id] ?? none),
        passages[i] ?? none,
      );
    });

    const embedder = store.embedder;
    const rows = [
      { method: `Embeddings (${embedder.model}, ${embedder.dtype})`, metrics: retrievalMetrics(denseRanks) },
      { method: "BM25 (lexikalisch)", metrics: retrievalMetrics(bm25Ranks) },
    ];
    if (o.json) {
      const ranks = qa.map((q, i) => ({ id: q.id, embedding: denseRanks[i] ?? 0, bm25: bm25Ranks[i] ?? 0 }));
      const result = {
        corpus: o.corpusDir,
        qa: o.qaFile,
        chunks: store.chunks.length,
        chunking: o.chunking,
        embedHeadings: o.embedHeadings,
        index: store.manifest.index,
        model: embedder.model,
        dtype: embedder.dtype,
        depth: o.depth,
        fromCache: store.loadedFromCache,
        rows,
        ranks,
      };
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    console.log(
      `Korpus: ${o.corpusDir} (${documents.length} Dokumente, ${store.chunks.length} Chunks; maxChars ${o.chunking.maxChars}, ` +
        `Overlap ${o.chunking.overlapSentences} Satz/Sätze, Überschriften ${o.embedHeadings ? "mit" : "ohne"}, Index ${store.manifest.index})`,
    );
    console.log(
      `Q&A: ${o.qaFile} (${qa.length} Fragen) — Index ${store.loadedFromCache ? "aus dem Cache" : "neu gebaut"} in ${Math.round(buildMs)} ms\n`,
    );
    console.log(formatMetricsTable(rows, o.depth));
    const misses = qa.filter((_, i) => denseRanks[i] === 0).map((q) => q.id);
    if (misses.length > 0) console.log(`\nOhne Treffer unter den ersten ${o.depth} (Embeddings): ${misses.join(", ")}`);
  } finally {
    await store.dispose();
  }
}

/** Runs the evaluation; a RagError (no model, no corpus) is named with its message, exit code 1. */
async function run(argv: string[]): Promise<number> {
  try {
    await main(argv);
    return 0;
  } catch (error) {
    if (!(error instanceof RagError)) throw error;
    console.error(`${error.name}: ${error.message}`);
    return 1;
  }
}
