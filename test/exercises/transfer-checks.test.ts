// The retrieval transfer check (Aufgabe 2.4): a solution built from the parts passes against lib's own
// result on the second text (tiny embedder), the empty exercise fails every case, typical mistakes
// fail with the matching hint.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createEmbedder } from "../../lib/rag/embedder.js";
import { CONTEXT_SEPARATOR, type RagStore } from "../../lib/rag/store.js";
import { NotSolvedError } from "../../lib/exercises/check-runner.js";
import {
  checkRetrieveContext,
  type RetrievalParts,
  type RetrieveContextFn,
} from "../../lib/exercises/transfer-checks.js";
import {
  openUebungStore,
  provideUebungStore,
  releaseTransferResources,
} from "../../lib/exercises/transfer-resources.js";
import { tempDir, tinyBertDir } from "../rag/helpers.js";

const quiet = { log: () => {} };
const texts = async (index: RetrievalParts, q: string, k: number) =>
  (await index.search(await index.embed(q), k)).map((h) => h.text);

describe("checkRetrieveContext (Aufgabe 2.4, second text)", () => {
  let store: RagStore;
  const tmp = tempDir("uebung-store-");
  before(async () => {
    const embedder = await createEmbedder({ model: await tinyBertDir(), dtype: "fp32", progress: false });
    store = await openUebungStore({ embedder, cacheDir: tmp.dir });
    provideUebungStore(store);
  });
  after(async () => {
    await releaseTransferResources();
    await store?.embedder.dispose();
    tmp.cleanup();
  });

  test("the second text gives several chunks", () => {
    assert.ok(store.chunks.length >= 4, `${store.chunks.length} chunks`);
    assert.ok(store.chunks.some((c) => c.text.includes("Ziffernräder")));
  });

  test("a solution written from the parts (embed → search → join) passes every case", async () => {
    const solution: RetrieveContextFn = async (q, k, index) => (await texts(index, q, k)).join(CONTEXT_SEPARATOR);
    const report = await checkRetrieveContext(solution, quiet);
    assert.equal(report.failed, 0, JSON.stringify(report.cases.filter((c) => !c.ok)));
    assert.ok(report.total >= 4);
  });

  test("the empty exercise fails every case", async () => {
    const report = await checkRetrieveContext(() => {
      throw new NotSolvedError();
    }, quiet);
    assert.equal(report.passed, 0);
  });

  test("typical mistakes: wrong separator, reversed order, k ignored", async () => {
    const sep = await checkRetrieveContext(async (q, k, index) => (await texts(index, q, k)).join("\n"), quiet);
    assert.ok(sep.cases.some((c) => !c.ok && /CONTEXT_SEPARATOR/.test(c.problem ?? "")));
    const reversed = await checkRetrieveContext(
      async (q, k, index) => (await texts(index, q, k)).reverse().join(CONTEXT_SEPARATOR),
      quiet,
    );
    assert.ok(reversed.cases.some((c) => !c.ok && /Reihenfolge/.test(c.problem ?? "")));
    const fixedK = await checkRetrieveContext(
      async (q, _k, index) => (await texts(index, q, 1)).join(CONTEXT_SEPARATOR),
      quiet,
    );
    assert.ok(fixedK.cases.some((c) => !c.ok && /erwarteten Chunks/.test(c.problem ?? "")));
  });
});
