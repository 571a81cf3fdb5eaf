// The RAG store end to end on real components: tiny ONNX model, FAISS, files in a temp folder.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import {
  createEmbedder,
  DimensionMismatchError,
  EmptyCorpusError,
  IndexStoreError,
  loadCorpus,
  openRagStore,
  RagFileNotFoundError,
  RagInputError,
  RagStore,
  type CorpusDocument,
  type Embedder,
} from "../../lib/rag/index.js";
import { CHUNKER_VERSION, CONTEXT_SEPARATOR } from "../../lib/rag/store.js";
import { writeTinyBert } from "../../scripts/dev/tiny-models/tiny-bert.js";
import { FIXTURE_CORPUS, tempDir, tinyBertDir } from "./helpers.js";

let embedder: Embedder;
let documents: CorpusDocument[];
const tmp = tempDir();

before(async () => {
  embedder = await createEmbedder({ model: await tinyBertDir(), dtype: "fp32", progress: false });
  documents = loadCorpus(FIXTURE_CORPUS);
});
after(async () => {
  await embedder?.dispose();
  tmp.cleanup();
});

const QUERIES = ["Wie schwer wird ein Nebelfuchs?", "Wo beginnt der Uferweg?", "Was frisst er im Herbst?"];

test("loadCorpus reads the Markdown files sorted by name and skips README.md", () => {
  assert.deepEqual(
    documents.map((d) => d.name),
    ["nebelfuchs.md", "wanderweg.md"],
  );
});

test("build → search → getRagContext: k chunks with scores and metadata, joined with ---", async () => {
  const store = await RagStore.build(documents, embedder, { chunking: { maxChars: 200, overlapSentences: 1 } });
  assert.ok(store.chunks.length >= 8);
  assert.equal(store.index.size, store.chunks.length);
  const result = await store.getRagContext(QUERIES[0] ?? "", 3);
  assert.equal(result.chunks.length, 3);
  assert.equal(result.context, result.chunks.map((c) => c.text).join(CONTEXT_SEPARATOR));
  for (const c of result.chunks) {
    assert.ok(["nebelfuchs.md", "wanderweg.md"].includes(c.metadata.document));
    const doc = documents.find((d) => d.name === c.metadata.document);
    assert.equal(doc?.text.slice(c.metadata.start, c.metadata.end), c.text);
    assert.ok(c.score <= 1 + 1e-5 && c.score >= -1 - 1e-5);
  }
  assert.ok(result.chunks.every((c, i) => i === 0 || (result.chunks[i - 1]?.score ?? 0) >= c.score));
  const all = await store.search(QUERIES[1] ?? "", 1000);
  assert.equal(all.length, store.chunks.length);
});

test("save/load round trip returns identical results", async () => {
  const dir = join(tmp.dir, "roundtrip");
  const built = await RagStore.build(documents, embedder, { chunking: { maxChars: 150, overlapSentences: 1 } });
  built.save(dir, "teil2");
  const loaded = RagStore.load(dir, embedder, "teil2");
  assert.deepEqual(loaded.chunks, built.chunks);
  assert.equal(loaded.hash, built.hash);
  for (const q of QUERIES) assert.deepEqual(await loaded.search(q, 4), await built.search(q, 4));
  const hnsw = await RagStore.build(documents, embedder, { index: "hnsw" });
  hnsw.save(dir, "hnsw");
  assert.ok(
    existsSync(join(dir, "hnsw.usearch")) && !existsSync(join(dir, "hnsw.faiss")),
    "an HNSW store is a USearch file",
  );
  const hnswLoaded = RagStore.load(dir, embedder, "hnsw");
  assert.equal(hnswLoaded.manifest.index, "hnsw");
  for (const q of QUERIES) assert.deepEqual(await hnswLoaded.search(q, 3), await hnsw.search(q, 3));
});

test("the cache is reused until corpus, model, dtype, chunking or index settings change", async () => {
  const cacheDir = join(tmp.dir, "cache");
  const open = (extra: Partial<Parameters<typeof openRagStore>[0]> = {}) =>
    openRagStore({ documents, embedder, cacheDir, chunking: { maxChars: 200, overlapSentences: 1 }, ...extra });

  const first = await open();
  assert.equal(first.loadedFromCache, false);
  const second = await open();
  assert.equal(second.loadedFromCache, true);
  assert.equal(second.hash, first.hash);
  assert.deepEqual(await second.search(QUERIES[0] ?? "", 3), await first.search(QUERIES[0] ?? "", 3));
  assert.equal((await open({ rebuild: true })).loadedFromCache, false);

  const changes: Array<[string, Partial<Parameters<typeof openRagStore>[0]>]> = [
    ["maxChars", { chunking: { maxChars: 120, overlapSentences: 1 } }],
    ["overlap", { chunking: { maxChars: 200, overlapSentences: 0 } }],
    ["index", { index: "hnsw" }],
    ["headings", { embedHeadings: false }],
    [
      "corpus",
      {
        documents: [
          ...documents.slice(0, 1),
          { name: "wanderweg.md", text: (documents[1]?.text ?? "") + "\nNeu: Ein Kiosk am Wehr.\n" },
        ],
      },
    ],
  ];
  const seen = new Set([first.hash]);
  for (const [what, change] of changes) {
    const changed = await open(change);
    assert.equal(changed.loadedFromCache, false, `${what} change must rebuild`);
    assert.ok(!seen.has(changed.hash), `${what} change must change the hash`);
    seen.add(changed.hash);
    assert.equal((await open(change)).loadedFromCache, true, `${what}: unchanged afterwards → cache`);
  }

  const q8 = await createEmbedder({ model: await tinyBertDir(), dtype: "q8", progress: false });
  try {
    assert.equal((await open({ embedder: q8 })).loadedFromCache, false, "dtype change must rebuild");
    assert.equal((await open({ embedder: q8 })).loadedFromCache, true);
  } finally {
    await q8.dispose();
  }
  const otherModelDir = join(tmp.dir, "tiny-bert-seed-1");
  await writeTinyBert(otherModelDir, { seed: 1 });
  const other = await createEmbedder({ model: otherModelDir, dtype: "fp32", progress: false });
  try {
    assert.equal((await open({ embedder: other })).loadedFromCache, false, "model change must rebuild");
  } finally {
    await other.dispose();
  }
});

test("a store cached by another chunker version is rebuilt", async () => {
  const cacheDir = join(tmp.dir, "cache-chunker");
  const built = await openRagStore({ documents, embedder, cacheDir, chunkerVersion: "old" });
  assert.equal(built.loadedFromCache, false);
  assert.equal(built.manifest.chunker, "old");
  assert.equal((await openRagStore({ documents, embedder, cacheDir, chunkerVersion: "old" })).loadedFromCache, true);
  const lines: string[] = [];
  const updated = await openRagStore({ documents, embedder, cacheDir, onStatus: (l) => lines.push(l) });
  assert.equal(updated.loadedFromCache, false, "store from an older chunker must be rebuilt");
  assert.equal(updated.manifest.chunker, CHUNKER_VERSION);
  assert.match(lines.join("\n"), /neu gebaut/);
});

test("bad options fail before the corpus, the model or the cache are touched", async () => {
  const lines: string[] = [];
  const bad: Array<Parameters<typeof openRagStore>[0]> = [
    { chunking: { maxChars: 0 } },
    { chunking: { maxChars: 2.5 } },
    { chunking: { overlapSentences: -1 } },
    { index: "ivf" as "flat" },
    { name: "../ausbruch" },
  ];
  for (const options of bad) {
    await assert.rejects(
      // A corpus folder and a model that do not exist: an error about them would mean they were tried first.
      openRagStore({
        corpusDir: join(tmp.dir, "gibt-es-nicht"),
        embedderOptions: { model: "./gibt/es/nicht", offline: true },
        onStatus: (l) => lines.push(l),
        ...options,
      }),
      RagInputError,
      JSON.stringify(options),
    );
  }
  assert.deepEqual(lines, []);
  await assert.rejects(RagStore.build(documents, embedder, { chunking: { maxChars: -3 } }), RagInputError);
});

test("a copied or touched model reuses the cache; changed model files rebuild it", async () => {
  const cacheDir = join(tmp.dir, "cache-model-copy");
  const stick = join(tmp.dir, "usb-stick");
  const laptop = join(tmp.dir, "laptop-models");
  // A plain copy (new file times), as from a USB stick into another MODELS_DIR.
  cpSync(await tinyBertDir(), join(stick, "kit-test", "tiny-bert"), { recursive: true });
  cpSync(join(stick, "kit-test"), join(laptop, "kit-test"), { recursive: true });
  const open = async (modelsDir: string) => {
    const e = await createEmbedder({
      model: "kit-test/tiny-bert",
      modelsDir,
      offline: true,
      dtype: "fp32",
      progress: false,
    });
    try {
      const store = await openRagStore({ documents, embedder: e, cacheDir });
      return { fromCache: store.loadedFromCache, fingerprint: e.fingerprint };
    } finally {
      await e.dispose();
    }
  };
  const first = await open(stick);
  assert.equal(first.fromCache, false);
  assert.equal((await open(laptop)).fromCache, true, "copied model → same fingerprint → cache");
  const weights = join(laptop, "kit-test", "tiny-bert", "onnx", "model.onnx");
  utimesSync(weights, new Date("2001-02-03T04:05:06Z"), new Date("2001-02-03T04:05:06Z"));
  assert.equal((await open(laptop)).fromCache, true, "touched weights → cache");

  const config = join(laptop, "kit-test", "tiny-bert", "config.json");
  writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, "utf8")), kit_note: "geändert" }));
  const changedConfig = await open(laptop);
  assert.equal(changedConfig.fromCache, false, "changed config.json → rebuild");
  assert.notEqual(changedConfig.fingerprint, first.fingerprint);

  const otherWeights = join(tmp.dir, "tiny-bert-seed-2");
  await writeTinyBert(otherWeights, { seed: 2 });
  cpSync(join(otherWeights, "onnx", "model.onnx"), join(stick, "kit-test", "tiny-bert", "onnx", "model.onnx"));
  assert.equal((await open(stick)).fromCache, false, "changed weights → rebuild");
});

test("empty corpus, missing files and broken stores give typed errors", async () => {
  await assert.rejects(RagStore.build([], embedder), EmptyCorpusError);
  await assert.rejects(
    RagStore.build([{ name: "leer.md", text: "  \n\n# Nur eine Überschrift\n" }], embedder),
    EmptyCorpusError,
  );
  await assert.rejects(openRagStore({ documents: [], embedder, cacheDir: join(tmp.dir, "x") }), EmptyCorpusError);
  assert.throws(() => loadCorpus(join(tmp.dir, "gibt-es-nicht")), RagFileNotFoundError);
  const emptyDir = join(tmp.dir, "leer");
  mkdirSync(emptyDir);
  writeFileSync(join(emptyDir, "README.md"), "# Nur die Beschreibung\n");
  assert.throws(() => loadCorpus(emptyDir), EmptyCorpusError);
  assert.throws(() => RagStore.load(join(tmp.dir, "nirgends"), embedder), RagFileNotFoundError);

  const dir = join(tmp.dir, "broken");
  const store = await RagStore.build(documents, embedder);
  store.save(dir);
  const manifestFile = join(dir, "default.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { dimension: number };
  writeFileSync(manifestFile, JSON.stringify({ ...manifest, dimension: 32 }));
  assert.throws(() => RagStore.load(dir, embedder), DimensionMismatchError);
  writeFileSync(manifestFile, "{ kein JSON");
  assert.throws(() => RagStore.load(dir, embedder), IndexStoreError);
  store.save(dir);
  const q8 = await createEmbedder({ model: await tinyBertDir(), dtype: "q8", progress: false });
  try {
    assert.throws(() => RagStore.load(dir, q8), IndexStoreError, "other dtype than the store was built with");
  } finally {
    await q8.dispose();
  }

  assert.throws(() => store.searchVector(new Float32Array(32), 3), DimensionMismatchError);
  await assert.rejects(store.search("   ", 3), RagInputError);
  await assert.rejects(store.search("Frage?", 0), RagInputError);
  assert.throws(() => store.save(dir, "../ausbruch"), RagInputError);
});

test("openRagStore creates (and disposes) its own embedder from embedderOptions", async () => {
  const cacheDir = join(tmp.dir, "own-embedder");
  const own = await openRagStore({
    documents,
    cacheDir,
    embedderOptions: { model: await tinyBertDir(), dtype: "fp32", progress: false },
  });
  assert.equal(own.ownsEmbedder, true);
  assert.equal(own.embedder.fingerprint, embedder.fingerprint);
  const shared = await openRagStore({ documents, cacheDir, embedder });
  assert.equal(shared.ownsEmbedder, false);
  assert.equal(shared.loadedFromCache, true);
  assert.deepEqual(await own.search(QUERIES[0] ?? "", 2), await shared.search(QUERIES[0] ?? "", 2));
  await own.dispose();
  await shared.dispose();
  assert.equal((await embedder.embedOne("noch da")).length, 64, "a passed-in embedder stays usable");
});

test("a broken cached store is rebuilt instead of failing", async () => {
  const cacheDir = join(tmp.dir, "cache-broken");
  const first = await openRagStore({ documents, embedder, cacheDir });
  writeFileSync(join(cacheDir, "default.faiss"), "kaputt");
  const lines: string[] = [];
  const again = await openRagStore({ documents, embedder, cacheDir, onStatus: (l) => lines.push(l) });
  assert.equal(again.loadedFromCache, false);
  assert.equal(again.hash, first.hash);
  assert.match(lines.join("\n"), /nicht nutzbar/);
  assert.equal((await openRagStore({ documents, embedder, cacheDir })).loadedFromCache, true);
});
