// BM25 baseline and the retrieval metrics used by `npm run eval:rag`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import {
  Bm25Index,
  chunkDocuments,
  IndexStoreError,
  loadCorpus,
  RagFileNotFoundError,
  RagInputError,
} from "../../lib/rag/index.js";
import {
  firstHitRank,
  formatMetricsTable,
  loadQaSet,
  locatePassages,
  retrievalMetrics,
} from "../../lib/rag-eval/evaluation.js";
import { tokenize as bm25Tokenize } from "../../lib/rag/bm25.js";
import { isHit } from "../../lib/rag-eval/evaluation.js";
import { FIXTURE_CORPUS, FIXTURES } from "./helpers.js";

test("BM25 ranks the text that shares the rare query terms first", () => {
  const texts = [
    "Der Nebelfuchs frisst Schnecken und Käfer.",
    "Der Uferweg führt nach Moosburg.",
    "Im Herbst frisst der Nebelfuchs Brombeeren.",
    "Der Biergarten am Wehr hat im Sommer geöffnet.",
  ];
  const bm25 = new Bm25Index(texts);
  assert.equal(bm25.search("Wohin führt der Uferweg?", 1)[0]?.id, 1);
  assert.equal(bm25.search("Brombeeren im Herbst", 1)[0]?.id, 2);
  assert.deepEqual(bm25.search("Quantenphysik", 3), []);
  const ranked = bm25.search("Nebelfuchs frisst", 4);
  assert.deepEqual(ranked.map((h) => h.id).sort(), [0, 2]);
  assert.ok(ranked.every((h, i) => i === 0 || (ranked[i - 1]?.score ?? 0) >= h.score));
  assert.deepEqual(bm25Tokenize("Die Käfer und die Schnecken!"), ["käfer", "schneck"]);
  assert.throws(() => bm25.search("x", 0), RagInputError);
});

test("passages are located in their documents; a hit needs the same document and half the passage", () => {
  const documents = loadCorpus(FIXTURE_CORPUS);
  const qa = loadQaSet(join(FIXTURE_CORPUS, "qa.json"));
  const where = locatePassages(qa, documents);
  where.forEach((p, i) => {
    const doc = documents.find((d) => d.name === p.document);
    assert.equal(doc?.text.slice(p.start, p.end), qa[i]?.passage);
  });
  const passage = { document: "a.md", start: 100, end: 200 };
  assert.equal(isHit({ document: "a.md", start: 50, end: 260 }, passage), true);
  assert.equal(isHit({ document: "a.md", start: 140, end: 400 }, passage), true, "60 % of the passage");
  assert.equal(
    isHit({ document: "a.md", start: 160, end: 400 }, passage),
    false,
    "40 % of the passage, 16 % of the chunk",
  );
  assert.equal(isHit({ document: "a.md", start: 150, end: 180 }, passage), true, "chunk inside a long passage");
  assert.equal(isHit({ document: "b.md", start: 100, end: 200 }, passage), false);
  assert.equal(isHit({ document: "a.md", start: 200, end: 300 }, passage), false);

  const chunks = chunkDocuments(documents, { maxChars: 200 }).map((c) => c.metadata);
  assert.ok(
    where.every((p) => firstHitRank(chunks, p) > 0),
    "every passage is in some chunk",
  );
  assert.throws(() => locatePassages([{ ...(qa[0] ?? qa[1]!), passage: "Steht nirgends." }], documents), RagInputError);
  assert.throws(() => loadQaSet(join(FIXTURES, "fehlt.json")), RagFileNotFoundError);
  assert.throws(() => loadQaSet(join(FIXTURE_CORPUS, "nebelfuchs.md")), IndexStoreError);
});

test("hit@k and MRR from first-hit ranks; table formatting", () => {
  const m = retrievalMetrics([1, 2, 4, 0]);
  assert.equal(m.questions, 4);
  assert.equal(m.hitAt1, 0.25);
  assert.equal(m.hitAt3, 0.5);
  assert.equal(m.hitAt5, 0.75);
  assert.equal(m.mrr, (1 + 0.5 + 0.25) / 4);
  const table = formatMetricsTable([{ method: "BM25", metrics: m }], 10);
  assert.match(table, /\| Methode \| Fragen \| hit@1 \| hit@3 \| hit@5 \| MRR@10 \|/);
  assert.match(table, /\| BM25 +\| +4 \| 0,250 \| 0,500 \| 0,750 \| +0,438 \|/);
  assert.deepEqual(retrievalMetrics([]), { questions: 0, hitAt1: 0, hitAt3: 0, hitAt5: 0, mrr: 0 });
});
