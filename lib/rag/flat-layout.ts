// A typed-array path into faiss-node for flat indexes. faiss-node's `add` only takes a plain JS array
// and converts it number by number (about 10 s for 100k × 384 floats), but `Index.fromBuffer` reads a
// serialised index at memcpy speed. A flat index's serialised form is just a small header plus the
// float32 vectors, so vectors are appended by writing that form directly.
//
// The layout is checked once per process against what the addon itself writes (byte for byte, for
// both metrics); if a future FAISS writes anything else, callers fall back to the slow array path.
import faiss from "faiss-node";

type FaissIndex = InstanceType<typeof faiss.Index>;
export type FlatMetric = "ip" | "l2";

/** fourcc, d (int32), ntotal (int64), two dummies (int64), is_trained (uint8), metric (int32), float count (int64). */
const HEADER_BYTES = 4 + 4 + 8 + 8 + 8 + 1 + 4 + 8;
const FOURCC: Record<FlatMetric, string> = { ip: "IxFI", l2: "IxF2" };
const METRIC_TYPE: Record<FlatMetric, number> = { ip: 0, l2: 1 };

function writeHeader(buf: Buffer, metric: FlatMetric, d: number, ntotal: number): void {
  buf.write(FOURCC[metric], 0, "latin1");
  buf.writeInt32LE(d, 4);
  buf.writeBigInt64LE(BigInt(ntotal), 8);
  buf.writeBigInt64LE(1n << 20n, 16);
  buf.writeBigInt64LE(1n << 20n, 24);
  buf.writeUInt8(1, 32);
  buf.writeInt32LE(METRIC_TYPE[metric], 33);
  buf.writeBigInt64LE(BigInt(ntotal * d), 37);
}

/** Number of vectors in a serialised flat index, or undefined when `buf` is not one with this metric and d. */
function storedCount(buf: Buffer, metric: FlatMetric, d: number): number | undefined {
  if (buf.length < HEADER_BYTES || buf.toString("latin1", 0, 4) !== FOURCC[metric] || buf.readInt32LE(4) !== d) return undefined;
  const ntotal = Number(buf.readBigInt64LE(8));
  if (Number(buf.readBigInt64LE(37)) !== ntotal * d || buf.length !== HEADER_BYTES + ntotal * d * 4) return undefined;
  return ntotal;
}

/**
 * A serialised flat index with `existing`'s vectors (if any) and room for `n` more, plus a float32
 * view of that room to fill (row-major). The buffer starts 3 bytes into its memory so the 45-byte
 * header leaves the vectors 4-byte aligned: they are written in place, without another copy.
 */
export function flatIndexBuffer(metric: FlatMetric, d: number, n: number, existing?: Buffer): { bytes: Buffer; rows: Float32Array } {
  const before = existing ? storedCount(existing, metric, d) : 0;
  if (before === undefined) throw new Error("unexpected FAISS flat index layout");
  const length = HEADER_BYTES + (before + n) * d * 4;
  const memory = new ArrayBuffer(length + 3);
  const bytes = Buffer.from(memory, 3, length);
  writeHeader(bytes, metric, d, before + n);
  if (existing) existing.copy(bytes, HEADER_BYTES, HEADER_BYTES);
  return { bytes, rows: new Float32Array(memory, 3 + HEADER_BYTES + before * d * 4, n * d) };
}

/** The serialised flat index holding `existing`'s vectors (if any) followed by `vectors` (n × d, row-major). */
export function flatIndexBytes(metric: FlatMetric, d: number, vectors: Float32Array, existing?: Buffer): Buffer {
  const { bytes, rows } = flatIndexBuffer(metric, d, vectors.length / d, existing);
  rows.set(vectors);
  return bytes;
}

const verified = new Map<FlatMetric, boolean>();

/** True when this addon writes flat indexes exactly as flatIndexBytes does (checked once per metric). */
export function flatLayoutMatches(metric: FlatMetric): boolean {
  let ok = verified.get(metric);
  if (ok === undefined) {
    try {
      const sample = [0.5, -1, 2, 3.25, 0, -0.125];
      const index = metric === "ip" ? new faiss.IndexFlatIP(3) : new faiss.IndexFlatL2(3);
      index.add(sample);
      ok = index.toBuffer().equals(flatIndexBytes(metric, 3, Float32Array.from(sample)));
    } catch {
      ok = false;
    }
    verified.set(metric, ok);
  }
  return ok;
}

/**
 * A new flat index with `index`'s vectors (empty: none) plus `n` more that `fill` writes into the
 * float32 view it gets (row-major), read by the addon via fromBuffer.
 */
export function appendFlat(index: FaissIndex, metric: FlatMetric, n: number, fill: (rows: Float32Array) => void): FaissIndex {
  const d = index.getDimension();
  const { bytes, rows } = flatIndexBuffer(metric, d, n, index.ntotal() > 0 ? index.toBuffer() : undefined);
  fill(rows);
  const next = faiss.Index.fromBuffer(bytes);
  const expected = index.ntotal() + n;
  if (next.ntotal() !== expected) throw new Error(`FAISS read ${next.ntotal()} vectors instead of ${expected}`);
  return next;
}
