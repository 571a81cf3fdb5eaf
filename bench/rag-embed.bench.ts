// Embedding throughput (chunks/s) by batch size and dtype for the configured model (EMBEDDING_MODEL;
// falls back to the tiny test model when the configured one is not available offline), and the RAG
// store from its cache vs rebuilt (chunking + embedding + indexing).
//
// fp32 vs q8 only means something for the real model (BENCH_REAL_MODEL=1 npm run bench -- rag-embed):
// the tiny model's q8 file stores int8 weights behind DequantizeLinear nodes feeding float32 MatMuls, so
// no int8 kernels run, and scripts/dev/tiny-models has no size option for a MiniLM-L12-shaped model.
//
// npx tsx bench/rag-embed.bench.ts [--texts 256] [--batches 1,8,16,32,64]
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig, tinyModelPaths } from "../lib/config.js";
import {
  chunkDocuments,
  createEmbedder,
  DEFAULT_EMBEDDING_DTYPE,
  EmbeddingModelNotFoundError,
  loadCorpus,
  openRagStore,
  type CorpusDocument,
  type EmbeddingDtype,
} from "../lib/rag/index.js";
import { printMarkdownTable } from "./markdown-table.js";

const { values } = parseArgs({ options: { texts: { type: "string" }, batches: { type: "string" } } });
const textCount = Number(values.texts ?? 256);
const batchSizes = (values.batches ?? "1,8,16,32,64").split(",").map(Number);

const config = loadConfig();
let model = config.embeddingModel;
try {
  const probe = await createEmbedder({ model, progress: false });
  await probe.dispose();
} catch (error) {
  if (!(error instanceof EmbeddingModelNotFoundError)) throw error;
  console.log(`Note: ${model} is not available (${error.reason}); measuring the tiny test model.`);
  model = tinyModelPaths().embeddingDir;
}
if (resolve(config.root, model) === tinyModelPaths().embeddingDir) {
  console.log(
    "Note: tiny test model — its q8 file dequantises int8 weights for float32 MatMuls, so fp32 vs q8 says nothing about the real model.\n",
  );
}

const corpusDir = join(config.root, "data", "corpus");
const documents: CorpusDocument[] = existsSync(corpusDir)
  ? loadCorpus(corpusDir)
  : loadCorpus(join(config.root, "test", "rag", "fixtures", "corpus"));
const chunks = chunkDocuments(documents).map((c) => c.text);
const texts = Array.from({ length: textCount }, (_, i) => chunks[i % chunks.length] ?? "");
const avgChars = texts.reduce((s, t) => s + t.length, 0) / texts.length;

const rows: string[][] = [];
for (const dtype of ["fp32", "q8"] as EmbeddingDtype[]) {
  let embedder;
  try {
    embedder = await createEmbedder({ model, dtype, progress: false });
  } catch (error) {
    if (error instanceof EmbeddingModelNotFoundError) {
      rows.push([dtype, "–", "not present", ""]);
      continue;
    }
    throw error;
  }
  await embedder.embed(texts.slice(0, 16), { batchSize: 8 }); // warm-up
  for (const batchSize of batchSizes) {
    let bestMs = Infinity;
    for (let round = 0; round < 2; round++) {
      const t = performance.now();
      await embedder.embed(texts, { batchSize, progress: false });
      bestMs = Math.min(bestMs, performance.now() - t);
    }
    rows.push([
      dtype,
      String(batchSize),
      (texts.length / (bestMs / 1000)).toFixed(0),
      (bestMs / texts.length).toFixed(2),
    ]);
  }
  await embedder.dispose();
}

console.log(
  `Embedding throughput — model ${model}, ${texts.length} chunks (mean ${avgChars.toFixed(0)} chars), best of 2 runs\n`,
);
printMarkdownTable(["dtype", "Batch", "Chunks/s", "ms/chunk"], rows);

// Store: rebuild (chunk + embed + index + save) vs load from the cache.
const cacheDir = mkdtempSync(join(tmpdir(), "rag-embed-bench-"));
try {
  const embedder = await createEmbedder({ model, progress: false });
  const t0 = performance.now();
  const built = await openRagStore({ documents, embedder, cacheDir, rebuild: true });
  const buildMs = performance.now() - t0;
  const t1 = performance.now();
  const loaded = await openRagStore({ documents, embedder, cacheDir });
  const loadMs = performance.now() - t1;
  console.log(
    `\nRAG store (${built.chunks.length} chunks, dtype ${embedder.dtype}; default dtype ${DEFAULT_EMBEDDING_DTYPE})\n`,
  );
  printMarkdownTable(
    ["Step", "ms"],
    [
      ["rebuild (chunk, embed, index, save)", buildMs.toFixed(0)],
      [`load from cache (${loaded.loadedFromCache ? "same hash" : "ERROR: rebuilt"})`, loadMs.toFixed(0)],
      ["Factor", `${(buildMs / loadMs).toFixed(1)}×`],
    ],
  );
  await embedder.dispose();
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
