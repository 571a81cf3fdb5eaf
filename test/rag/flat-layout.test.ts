// The typed-array add path for flat indexes (lib/rag/flat-layout.ts) must produce exactly what
// faiss-node's own number-by-number `add` produces, and must actually be in use with this addon.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import faiss from "faiss-node";
import { FaissLayoutError } from "../../lib/rag/errors.js";
import { flatIndexBytes, flatLayoutMatches } from "../../lib/rag/flat-layout.js";
import { RagInputError, VectorIndex } from "../../lib/rag/index.js";
import { tempDir } from "./helpers.js";

const D = 16;
function vectors(n: number, seed: number): Float32Array[] {
  let s = seed;
  return Array.from({ length: n }, () =>
    Float32Array.from({ length: D }, () => {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      return s / 2 ** 32 - 0.5;
    }),
  );
}

test("this faiss-node writes flat indexes in the layout the typed path writes (both metrics)", () => {
  assert.equal(flatLayoutMatches("ip"), true);
  assert.equal(flatLayoutMatches("l2"), true);
});

for (const metric of ["ip", "l2"] as const) {
  test(`${metric}: batched typed adds give the same bytes and results as the addon's array add`, () => {
    const all = vectors(300, 7);
    const index = VectorIndex.create(D, { kind: "flat", metric });
    index.add(all.slice(0, 1));
    index.add(all.slice(1, 120));
    index.add([]);
    index.add(all.slice(120).map((v) => Array.from(v)));
    const reference = metric === "ip" ? new faiss.IndexFlatIP(D) : new faiss.IndexFlatL2(D);
    reference.add(all.flatMap((v) => Array.from(v)));
    assert.equal(index.size, 300);
    const tmp = tempDir();
    try {
      index.save(join(tmp.dir, "typed.faiss"));
      assert.ok(readFileSync(join(tmp.dir, "typed.faiss")).equals(reference.toBuffer()), "serialised index identical");
    } finally {
      tmp.cleanup();
    }
    const query = all[42]!;
    const { labels, distances } = reference.search(Array.from(query), 5);
    assert.deepEqual(
      index.search(query, 5).map((h) => [h.id, h.score]),
      labels.map((id, i) => [id, distances[i]]),
    );
    assert.equal(index.search(query, 1)[0]?.id, 42);
  });
}

test("a bad vector in a batch leaves the index unchanged", () => {
  const index = VectorIndex.create(D, { kind: "flat" });
  index.add(vectors(10, 1));
  const batch = vectors(5, 2);
  batch[3]![7] = Number.NaN;
  assert.throws(() => index.add(batch), RagInputError);
  assert.throws(() => index.add([new Float32Array(D + 1)]), /Dimension|dimension/);
  assert.equal(index.size, 10);
  assert.equal(index.search(vectors(10, 1)[4]!, 1)[0]?.id, 4);
});

test("flatIndexBytes refuses a buffer that is not a flat index of this metric and dimension", () => {
  const other = new faiss.IndexFlatL2(D);
  other.add(Array.from(vectors(2, 3)[0]!));
  // A typed German error (RagError), not an English Error: it says what to do.
  assert.throws(
    () => flatIndexBytes("ip", D, new Float32Array(D), other.toBuffer()),
    (e) => e instanceof FaissLayoutError && /unerwartetes Format.*npm ci/su.test(e.message),
  );
  assert.throws(() => flatIndexBytes("l2", D + 1, new Float32Array(D + 1), other.toBuffer()), FaissLayoutError);
});
