// RAG over a folder of your own Markdown files: load → chunk → embed → index → query.
//
//   npx tsx examples/rag-own-folder.ts [folder] [question] [k]
//
// Default folder: examples/data/notizen (three short German notes). Every *.md file except README.md is
// read. The embedding model comes from the usual settings (EMBEDDING_MODEL, .env); the index is cached
// in .cache/examples/ and rebuilt only when the files, the model or the chunking change.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCorpus, openRagStore } from "../lib/index.js";

const folder = resolve(process.argv[2] ?? fileURLToPath(new URL("./data/notizen/", import.meta.url)));
const question = process.argv[3] ?? "Was kann man bei Regen unternehmen?";
const k = Number(process.argv[4] ?? 3);

// 1. Load: one document per Markdown file ({ name, text }), sorted by file name.
const documents = loadCorpus(folder);
console.log(`Ordner: ${folder}`);
console.log(`Dateien: ${documents.map((d) => d.name).join(", ")}`);

// 2.–4. Chunk (by paragraph and sentence, headings kept as metadata), embed every chunk, index the
// vectors. openRagStore does all three and saves the result; the next run loads it from the cache.
const store = await openRagStore({
  documents,
  cacheDir: ".cache/examples",
  name: "own-folder",
  chunking: { maxChars: 300 },
  onStatus: (line) => console.log(`RAG: ${line}`),
});

try {
  console.log(`Chunks: ${store.chunks.length}`);
  // 5. Query: the k chunks whose vectors are most similar to the question's (cosine similarity).
  const hits = await store.search(question, Math.min(k, store.chunks.length));
  console.log(`\nFrage: ${question}\n`);
  for (const [rank, hit] of hits.entries()) {
    const section = hit.metadata.headings.at(-1) ?? "";
    console.log(
      `${rank + 1}. score=${hit.score.toFixed(3)}  ${hit.metadata.document}${section ? ` › ${section}` : ""}`,
    );
    console.log(`   ${hit.text.replace(/\s+/g, " ").slice(0, 160)}`);
  }
} finally {
  await store.dispose(); // releases the embedding model
}
