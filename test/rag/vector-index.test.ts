// Real FAISS (faiss-node): flat inner product vs L2, HNSW, persistence, bad input.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  DimensionMismatchError,
  IndexStoreError,
  RagFileNotFoundError,
  RagInputError,
  VectorIndex,
} from "../../lib/rag/index.js";
import { tempDir } from "./helpers.js";

/** Deterministic pseudo-random unit vectors. */
function unitVectors(count: number, dim: number, seed: number): Float32Array[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  return Array.from({ length: count }, () => {
    const v = new Float32Array(dim).map(() => next());
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  });
}

test("for unit vectors, inner product (cosine) and L2 give the same ranking: ‖a−b‖² = 2 − 2·a·b", () => {
  const data = unitVectors(200, 32, 7);
  const queries = unitVectors(20, 32, 99);
  const ip = VectorIndex.create(32, { metric: "ip" });
  const l2 = VectorIndex.create(32, { metric: "l2" });
  ip.add(data);
  l2.add(data);
  for (const q of queries) {
    const a = ip.search(q, 10);
    const b = l2.search(q, 10);
    assert.deepEqual(
      a.map((h) => h.id),
      b.map((h) => h.id),
    );
    a.forEach((hit, i) => assert.ok(Math.abs((b[i]?.score ?? 0) - (2 - 2 * hit.score)) < 1e-4));
    assert.ok(
      a.every((h, i) => i === 0 || (a[i - 1]?.score ?? 0) >= h.score),
      "ip: best (largest) first",
    );
  }
});

test("HNSW finds the exact nearest neighbour of stored vectors and reports inner products", () => {
  const data = unitVectors(500, 16, 3);
  const hnsw = VectorIndex.create(16, { kind: "hnsw" });
  hnsw.add(data);
  assert.equal(hnsw.size, 500);
  for (const id of [0, 17, 250, 499]) {
    const [best] = hnsw.search(data[id] ?? [], 3);
    assert.equal(best?.id, id);
    assert.ok(Math.abs((best?.score ?? 0) - 1) < 1e-5);
  }
});

/** Share of the exact top-k ids (flat index) that `index` also returns. */
function recallAtK(flat: VectorIndex, index: VectorIndex, queries: Float32Array[], k: number): number {
  const exact = flat.searchMany(queries, k);
  const approx = index.searchMany(queries, k);
  let hits = 0;
  exact.forEach((hits0, i) => {
    const found = new Set(approx[i]?.map((h) => h.id));
    hits += hits0.filter((h) => found.has(h.id)).length;
  });
  return hits / (queries.length * k);
}

test("HNSW: recall@10 against exact search on random unit vectors, rising with efSearch, kept by save/load", () => {
  const data = unitVectors(3000, 32, 5);
  const queries = unitVectors(100, 32, 6);
  const flat = VectorIndex.create(32);
  flat.add(data);
  const narrow = VectorIndex.create(32, { kind: "hnsw", hnswM: 8, efSearch: 10 });
  narrow.add(data);
  const low = recallAtK(flat, narrow, queries, 10);
  narrow.setEfSearch(200);
  assert.equal(narrow.efSearch, 200);
  const high = recallAtK(flat, narrow, queries, 10);
  // USearch builds with all cores, so the graph (and recall) varies a little between builds. Measured
  // over five builds (M 8): 0.49–0.51 at efSearch 10, 0.994–0.997 at 200; defaults 0.996–1.0.
  assert.ok(low < 0.7, `recall@10 at efSearch 10: ${low}`);
  assert.ok(high >= 0.95, `recall@10 at efSearch 200: ${high}`);

  const hnsw = VectorIndex.create(32, { kind: "hnsw" });
  hnsw.add(data);
  assert.equal(hnsw.efSearch, 64);
  const recall = recallAtK(flat, hnsw, queries, 10);
  assert.ok(recall >= 0.95, `recall@10 with the defaults: ${recall}`);
  const tmp = tempDir();
  try {
    const file = join(tmp.dir, "hnsw.usearch");
    hnsw.save(file);
    const loaded = VectorIndex.load(file, { kind: "hnsw", metric: "ip", dimension: 32 });
    assert.equal(loaded.efSearch, 64);
    assert.equal(recallAtK(flat, loaded, queries, 10), recall);
    assert.equal(VectorIndex.load(file, { kind: "hnsw", metric: "ip", efSearch: 300 }).efSearch, 300);
  } finally {
    tmp.cleanup();
  }
});

test("HNSW scores follow the flat index: inner product for ip, squared L2 for l2", () => {
  const data = unitVectors(400, 16, 13);
  const queries = unitVectors(10, 16, 14);
  for (const metric of ["ip", "l2"] as const) {
    const flat = VectorIndex.create(16, { metric });
    const hnsw = VectorIndex.create(16, { kind: "hnsw", metric, efSearch: 400 });
    flat.add(data);
    hnsw.add(data.slice(0, 150));
    hnsw.add(data.slice(150));
    assert.equal(hnsw.size, 400);
    for (const q of queries) {
      const exact = new Map(flat.search(q, 400).map((h) => [h.id, h.score]));
      const approx = hnsw.search(q, 5);
      assert.equal(approx.length, 5);
      // each hit carries the flat index's score for that vector, best first
      approx.forEach((h) =>
        assert.ok(Math.abs(h.score - (exact.get(h.id) ?? Number.NaN)) < 1e-5, `${metric}: ${h.id} ${h.score}`),
      );
      const scores = approx.map((h) => h.score);
      assert.deepEqual(
        scores,
        [...scores].sort((a, b) => (metric === "ip" ? b - a : a - b)),
      );
    }
  }
});

test("efSearch: bad values, flat indexes and foreign files give typed errors", () => {
  const hnsw = VectorIndex.create(8, { kind: "hnsw" });
  for (const bad of [0, -3, 1.5, Number.NaN, 1e9, "64" as unknown as number]) {
    assert.throws(() => hnsw.setEfSearch(bad), RagInputError, String(bad));
    assert.throws(() => VectorIndex.create(8, { kind: "hnsw", efSearch: bad }), RagInputError, String(bad));
  }
  assert.equal(hnsw.efSearch, 64, "a refused value changes nothing");
  assert.throws(() => VectorIndex.create(8, { efSearch: 32 }), RagInputError);
  assert.throws(() => VectorIndex.create(8).setEfSearch(32), RagInputError);
  assert.throws(() => VectorIndex.create(8).efSearch, RagInputError);
  const tmp = tempDir();
  try {
    const flat = VectorIndex.create(8);
    flat.add(unitVectors(20, 8, 1));
    flat.save(join(tmp.dir, "flat.faiss"));
    hnsw.add(unitVectors(20, 8, 1));
    hnsw.save(join(tmp.dir, "hnsw.usearch"));
    // each kind refuses the other's file (a store from an older kit with FAISS' HNSW is rebuilt)
    assert.throws(() => VectorIndex.load(join(tmp.dir, "flat.faiss"), { kind: "hnsw", metric: "ip" }), IndexStoreError);
    assert.throws(
      () => VectorIndex.load(join(tmp.dir, "hnsw.usearch"), { kind: "flat", metric: "ip" }),
      IndexStoreError,
    );
    assert.throws(
      () => VectorIndex.load(join(tmp.dir, "hnsw.usearch"), { kind: "hnsw", metric: "ip", dimension: 9 }),
      DimensionMismatchError,
    );
    // damaged files: text, a cut-off graph (usearch itself aborts the process on some foreign files)
    writeFileSync(join(tmp.dir, "text.usearch"), "das ist kein Index");
    assert.throws(
      () => VectorIndex.load(join(tmp.dir, "text.usearch"), { kind: "hnsw", metric: "ip" }),
      IndexStoreError,
    );
    const whole = readFileSync(join(tmp.dir, "hnsw.usearch"));
    writeFileSync(join(tmp.dir, "cut.usearch"), whole.subarray(0, whole.length - 100));
    assert.throws(
      () => VectorIndex.load(join(tmp.dir, "cut.usearch"), { kind: "hnsw", metric: "ip" }),
      IndexStoreError,
    );
  } finally {
    tmp.cleanup();
  }
});

test("save and load return identical results (flat and HNSW)", () => {
  const tmp = tempDir();
  try {
    const data = unitVectors(300, 24, 11);
    const queries = unitVectors(5, 24, 12);
    for (const kind of ["flat", "hnsw"] as const) {
      const index = VectorIndex.create(24, { kind });
      index.add(data);
      const file = join(tmp.dir, `${kind}.faiss`);
      index.save(file);
      const loaded = VectorIndex.load(file, { kind, metric: "ip", dimension: 24 });
      assert.equal(loaded.size, 300);
      for (const q of queries) assert.deepEqual(loaded.search(q, 8), index.search(q, 8));
    }
  } finally {
    tmp.cleanup();
  }
});

test("k larger than the index returns what there is; an empty index returns nothing", () => {
  const index = VectorIndex.create(4);
  assert.deepEqual(index.search([1, 0, 0, 0], 5), []);
  index.add([
    [1, 0, 0, 0],
    [0, 1, 0, 0],
  ]);
  assert.deepEqual(
    index.search([1, 0, 0, 0], 5).map((h) => h.id),
    [0, 1],
  );
});

test("wrong dimension, bad values and missing or broken files give typed errors", () => {
  const tmp = tempDir();
  try {
    const index = VectorIndex.create(4);
    assert.throws(() => index.add([[1, 2, 3]]), DimensionMismatchError);
    assert.throws(
      () => index.search([1, 2, 3, 4, 5], 1),
      (e: unknown) => e instanceof DimensionMismatchError && e.expected === 4 && e.actual === 5,
    );
    assert.throws(() => index.add([[1, Number.NaN, 0, 0]]), RagInputError);
    assert.throws(() => index.search([1, 0, 0, 0], 0), RagInputError);
    assert.throws(() => VectorIndex.create(0), RagInputError);
    assert.throws(() => VectorIndex.create(4, { kind: "ivf" as "flat" }), RagInputError);
    assert.throws(
      () => VectorIndex.load(join(tmp.dir, "fehlt.faiss"), { kind: "flat", metric: "ip" }),
      RagFileNotFoundError,
    );
    const broken = join(tmp.dir, "kaputt.faiss");
    writeFileSync(broken, "das ist kein FAISS-Index");
    assert.throws(() => VectorIndex.load(broken, { kind: "flat", metric: "ip" }), IndexStoreError);
    index.add([[1, 0, 0, 0]]);
    const file = join(tmp.dir, "d4.faiss");
    index.save(file);
    assert.throws(() => VectorIndex.load(file, { kind: "flat", metric: "ip", dimension: 8 }), DimensionMismatchError);
  } finally {
    tmp.cleanup();
  }
});

test("without a loadable usearch, HNSW gives HnswUnavailableError and the flat index still works", () => {
  const tmp = tempDir();
  try {
    // a project root without node_modules: usearch cannot be required from there
    const script = [
      `import { VectorIndex } from ${JSON.stringify(new URL("../../lib/rag/index.ts", import.meta.url).href)};`,
      "const flat = VectorIndex.create(2); flat.add([[1, 0]]); console.log('flat', flat.search([1, 0], 1)[0].id);",
      "try { VectorIndex.create(2, { kind: 'hnsw' }); } catch (e) { console.log(e.name); console.log(e.message); }",
    ].join("\n");
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, WORKSHOP_ROOT: tmp.dir },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /^flat 0\nHnswUnavailableError\nDer HNSW-Index ist nicht verfügbar: das Paket usearch lädt nicht/,
    );
    assert.match(r.stdout, /npm run setup/);
  } finally {
    tmp.cleanup();
  }
});
