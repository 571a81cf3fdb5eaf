// `npm run eval:rag` as a real subprocess on the tiny model and the fixture corpus.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Bm25Index, loadCorpus, openRagStore, searchText } from "../../lib/rag/index.js";
import { firstHitRank, loadQaSet, locatePassages, retrievalMetrics } from "../../lib/rag-eval/evaluation.js";
import { runCommand } from "../helpers/run-script.js";
import { FIXTURE_CORPUS, tempDir, tinyBertDir } from "./helpers.js";

const run = (args: string[], env: NodeJS.ProcessEnv) => runCommand("eval:rag", args, env);

interface EvalJson {
  chunks: number;
  dtype: string;
  depth: number;
  fromCache: boolean;
  rows: Array<{
    method: string;
    metrics: { questions: number; hitAt1: number; hitAt3: number; hitAt5: number; mrr: number };
  }>;
  ranks: Array<{ id: string; embedding: number; bm25: number }>;
}

test("eval:rag prints hit@k and MRR for the embedding model and BM25, then reuses its cache", async () => {
  const tmp = tempDir();
  try {
    const env = { EMBEDDING_MODEL: await tinyBertDir(), MODELS_OFFLINE: "1" };
    const args = ["--corpus", FIXTURE_CORPUS, "--cache-dir", tmp.dir, "--max-chars", "200"];
    const first = await run(args, env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\| Methode +\| Fragen \| hit@1 \| hit@3 \| hit@5 \| MRR@10 \|/);
    assert.match(
      first.stdout,
      /\| Embeddings \(.*tiny-bert, q8\) \| +6 \| [01],\d{3} \| [01],\d{3} \| [01],\d{3} \| +[01],\d{3} \|/,
    );
    // BM25 does not depend on the embedding model: on the fixture corpus 5 of 6 questions have their
    // passage in the first chunk; "Wie schwer wird ein Nebelfuchs?" in the third (MRR (5 + 1/3) / 6).
    assert.match(first.stdout, /\| BM25 \(lexikalisch\) +\| +6 \| 0,833 \| 1,000 \| 1,000 \| +0,889 \|/);
    assert.match(first.stdout, /neu gebaut/);
    const second = await run(args, env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /aus dem Cache/);
  } finally {
    tmp.cleanup();
  }
});

test("eval:rag --json: both columns are computed over every question, as the library computes them", async () => {
  const tmp = tempDir();
  try {
    const model = await tinyBertDir();
    const result = await run(["--corpus", FIXTURE_CORPUS, "--cache-dir", tmp.dir, "--max-chars", "200", "--json"], {
      EMBEDDING_MODEL: model,
      MODELS_OFFLINE: "1",
    });
    assert.equal(result.code, 0, result.stderr);
    const out = JSON.parse(result.stdout) as EvalJson;

    // The same evaluation in this process, straight from lib/rag.
    const documents = loadCorpus(FIXTURE_CORPUS);
    const qa = loadQaSet(join(FIXTURE_CORPUS, "qa.json"));
    const passages = locatePassages(qa, documents);
    const store = await openRagStore({
      documents,
      chunking: { maxChars: 200 },
      embedderOptions: { model, progress: false },
      cacheDir: join(tmp.dir, "own"),
      name: "eval",
    });
    try {
      const refs = store.chunks.map((c) => c.metadata);
      const bm25 = new Bm25Index(store.chunks.map((c) => searchText(c, true)));
      const expected = await Promise.all(
        qa.map(async (q, i) => ({
          id: q.id,
          embedding: firstHitRank(
            (await store.search(q.question, 10)).map((h) => h.metadata),
            passages[i]!,
          ),
          bm25: firstHitRank(
            bm25.search(q.question, 10).map((h) => refs[h.id]!),
            passages[i]!,
          ),
        })),
      );
      assert.equal(out.chunks, store.chunks.length);
      assert.equal(out.dtype, store.embedder.dtype);
      assert.deepEqual(out.ranks, expected);
      assert.deepEqual(
        out.rows.map((r) => r.metrics),
        [retrievalMetrics(expected.map((r) => r.embedding)), retrievalMetrics(expected.map((r) => r.bm25))],
      );
    } finally {
      await store.dispose();
    }
    assert.deepEqual(
      out.ranks.map((r) => r.id),
      ["f1", "f2", "f3", "f4", "f5", "f6"],
    );
    assert.deepEqual(
      out.ranks.map((r) => r.bm25),
      [3, 1, 1, 1, 1, 1],
    );
    assert.ok(out.rows.every((r) => r.metrics.questions === 6));
  } finally {
    tmp.cleanup();
  }
});

test("eval:rag --index hnsw: the HNSW store (a .usearch file) ranks like the exact one on a small corpus", async () => {
  const tmp = tempDir();
  try {
    const env = { EMBEDDING_MODEL: await tinyBertDir(), MODELS_OFFLINE: "1" };
    const common = ["--corpus", FIXTURE_CORPUS, "--max-chars", "200", "--json"];
    const flat = await run([...common, "--cache-dir", join(tmp.dir, "flat")], env);
    const hnsw = await run([...common, "--cache-dir", join(tmp.dir, "hnsw"), "--index", "hnsw"], env);
    assert.equal(hnsw.code, 0, hnsw.stderr);
    assert.ok(readdirSync(join(tmp.dir, "hnsw")).includes("eval.usearch"));
    // ten chunks: efSearch 64 visits them all, so the approximate ranks are the exact ones
    assert.deepEqual((JSON.parse(hnsw.stdout) as EvalJson).ranks, (JSON.parse(flat.stdout) as EvalJson).ranks);
  } finally {
    tmp.cleanup();
  }
});

test("eval:rag checks its options before touching the cache or the model: German, the usage, exit code 2", async () => {
  const tmp = tempDir();
  try {
    const env = { EMBEDDING_MODEL: await tinyBertDir(), MODELS_OFFLINE: "1" };
    const cases: Array<[string[], RegExp]> = [
      [["--max-chars", "0"], /^--max-chars erwartet eine ganze Zahl ≥ 1/],
      [["--overlap=-1"], /^--overlap erwartet eine ganze Zahl ≥ 0/],
      [["--index", "ivf"], /^--index erwartet flat oder hnsw/],
      [["--dtype", "fp64"], /^--dtype erwartet einen von/],
      [["--gibt-es-nicht"], /^Unbekannte Option „--gibt-es-nicht“\./],
      [["--depth"], /^Die Option „--depth“ braucht einen Wert\. \(--depth N – Länge der Trefferliste/],
    ];
    for (const [extra, message] of cases) {
      const result = await run(["--corpus", FIXTURE_CORPUS, "--cache-dir", tmp.dir, ...extra], env);
      assert.equal(result.code, 2, extra.join(" "));
      assert.match(result.stderr, message);
      assert.match(result.stderr, /^Aufruf: npm run eval:rag/m, "the usage follows");
      assert.doesNotMatch(
        result.stderr,
        /Index|neu gebaut|Cache/,
        `${extra.join(" ")}: no cache activity before the error`,
      );
      assert.equal(result.stdout, "");
    }
    assert.deepEqual(existsSync(tmp.dir) ? readdirSync(tmp.dir) : [], [], "nothing written to the cache");
  } finally {
    tmp.cleanup();
  }
});

test("eval:rag exits 1 with a clear message when the corpus is missing", async () => {
  const result = await run(["--corpus", "gibt/es/nicht"], {
    EMBEDDING_MODEL: await tinyBertDir(),
    MODELS_OFFLINE: "1",
  });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /RagFileNotFoundError: Korpus-Ordner nicht gefunden/);
});
