// `npm run eval:rag` as a real subprocess on the tiny model and the fixture corpus.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runScript } from "../helpers/run-script.js";
import { FIXTURE_CORPUS, tempDir, tinyBertDir } from "./helpers.js";

const run = (args: string[], env: NodeJS.ProcessEnv) => runScript("eval-rag.ts", args, env);

test("eval:rag prints hit@k and MRR for the embedding model and BM25, then reuses its cache", async () => {
  const tmp = tempDir();
  try {
    const env = { EMBEDDING_MODEL: await tinyBertDir(), MODELS_OFFLINE: "1" };
    const args = ["--corpus", FIXTURE_CORPUS, "--cache-dir", tmp.dir, "--max-chars", "200"];
    const first = await run(args, env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /\| Methode +\| Fragen \| hit@1 \| hit@3 \| hit@5 \| MRR@10 \|/);
    assert.match(first.stdout, /\| Embeddings \(.*tiny-bert, q8\) \| +6 \| [01]\.\d{3} \| [01]\.\d{3} \| [01]\.\d{3} \| +[01]\.\d{3} \|/);
    assert.match(first.stdout, /\| BM25 \(lexikalisch\) +\| +6 \|/);
    assert.match(first.stdout, /neu gebaut/);
    const second = await run(args, env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /aus dem Cache/);
  } finally {
    tmp.cleanup();
  }
});

test("eval:rag exits 1 with a clear message when the corpus is missing", async () => {
  const result = await run(["--corpus", "gibt/es/nicht"], { EMBEDDING_MODEL: await tinyBertDir(), MODELS_OFFLINE: "1" });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /RagFileNotFoundError: Korpus-Ordner nicht gefunden/);
});
