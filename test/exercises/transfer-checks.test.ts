// The domain-transfer checks: the retrieval step on the second text (against lib's own result on the
// tiny embedder), and (see math-transfer) arithmetic against the math server. Empty exercises get ❌
// everywhere; typical mistakes get a ❌ in the case about them.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createEmbedder } from "../../lib/rag/embedder.js";
import { CONTEXT_SEPARATOR, type RagStore } from "../../lib/rag/store.js";
import { openUebungStore, retrieveContextCheck, type RetrieveContextFn } from "../../lib/exercises/transfer-checks.js";
import type { CheckFunction } from "../../lib/exercises/check-runner.js";
import { tempDir, tinyBertDir } from "../rag/helpers.js";

const quiet = { log: () => {} };

describe("retrieveContext check (Aufgabe 2, second text)", () => {
  let store: RagStore;
  let check: CheckFunction<RetrieveContextFn>;
  const tmp = tempDir("uebung-store-");
  before(async () => {
    const embedder = await createEmbedder({ model: await tinyBertDir(), dtype: "fp32", progress: false });
    store = await openUebungStore({ embedder, cacheDir: tmp.dir });
    check = await retrieveContextCheck(store);
  });
  after(async () => {
    await store?.embedder.dispose();
    tmp.cleanup();
  });

  test("the second text gives several chunks", () => {
    assert.ok(store.chunks.length >= 4, `${store.chunks.length} chunks`);
    assert.ok(store.chunks.some((c) => c.text.includes("Ziffernräder")));
  });

  test("a solution written from the parts (embed → search → join) passes every case", async () => {
    const solution: RetrieveContextFn = async (s, question, k) => {
      const vector = await s.embedder.embedOne(question);
      return s.searchVector(vector, k).map((hit) => hit.text).join(CONTEXT_SEPARATOR);
    };
    const report = await check(solution, quiet);
    assert.equal(report.failed, 0, JSON.stringify(report.cases.filter((c) => !c.ok)));
  });

  test("the empty exercise fails every case", async () => {
    const report = await check(() => {
      throw new Error("Noch nicht gelöst");
    }, quiet);
    assert.equal(report.passed, 0);
  });

  test("typical mistakes: wrong separator, reversed order, k ignored", async () => {
    const hits = async (s: RagStore, q: string, k: number) => s.searchVector(await s.embedder.embedOne(q), k).map((h) => h.text);
    const sep = await check(async (s, q, k) => (await hits(s, q, k)).join("\n"), quiet);
    assert.ok(sep.cases.some((c) => !c.ok && /CONTEXT_SEPARATOR/.test(c.problem ?? "")));
    const reversed = await check(async (s, q, k) => (await hits(s, q, k)).reverse().join(CONTEXT_SEPARATOR), quiet);
    assert.ok(reversed.cases.some((c) => !c.ok && /Reihenfolge/.test(c.problem ?? "")));
    const fixedK = await check(async (s, q) => (await hits(s, q, 1)).join(CONTEXT_SEPARATOR), quiet);
    assert.ok(fixedK.cases.some((c) => !c.ok && /erwarteten Chunks/.test(c.problem ?? "")));
  });
});
