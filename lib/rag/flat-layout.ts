// A typed-array path into faiss-node for flat indexes. faiss-node's `add` only takes a plain JS array
// and converts it number by number (about 10 s for 100k × 384 floats), but `Index.read` reads a
// serialised index at file-copy speed. A flat index's serialised form is just a small header plus the
// float32 vectors, so vectors are appended by writing that form to a temporary file and reading it.
// (Not via toBuffer/fromBuffer: faiss-node 0.5.1 leaks its IO buffer, a full copy, on every call.)
//
// The layout is checked once per process against what the addon itself writes (byte for byte, for
// both metrics); if a future FAISS writes anything else, callers fall back to the slow array path.
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import faiss from "faiss-node";
import { FaissLayoutError } from "./errors.js";
import { withTempFile } from "./temp-file.js";

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
  if (buf.length < HEADER_BYTES || buf.toString("latin1", 0, 4) !== FOURCC[metric] || buf.readInt32LE(4) !== d)
    return undefined;
  const ntotal = Number(buf.readBigInt64LE(8));
  if (Number(buf.readBigInt64LE(37)) !== ntotal * d || buf.length !== HEADER_BYTES + ntotal * d * 4) return undefined;
  return ntotal;
}

/** The serialised flat index holding `existing`'s vectors (if any) followed by `vectors` (n × d, row-major). */
export function flatIndexBytes(metric: FlatMetric, d: number, vectors: Float32Array, existing?: Buffer): Buffer {
  const before = existing ? storedCount(existing, metric, d) : 0;
  if (before === undefined) throw new FaissLayoutError("der vorhandene Index passt nicht zu Metrik und Dimension");
  const n = vectors.length / d;
  const bytes = Buffer.alloc(HEADER_BYTES + (before + n) * d * 4);
  writeHeader(bytes, metric, d, before + n);
  existing?.copy(bytes, HEADER_BYTES, HEADER_BYTES);
  Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength).copy(bytes, HEADER_BYTES + before * d * 4);
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
 * float32 array it gets (row-major). `fill` may throw (bad input): nothing has changed then.
 */
export function appendFlat(
  index: FaissIndex,
  metric: FlatMetric,
  n: number,
  fill: (rows: Float32Array) => void,
): FaissIndex {
  const d = index.getDimension();
  const rows = new Float32Array(n * d);
  fill(rows);
  const before = index.ntotal();
  return withTempFile("flat-index-", "index.faiss", (file) => {
    const header = Buffer.alloc(HEADER_BYTES);
    if (before > 0) index.write(file);
    const fd = openSync(file, before > 0 ? "r+" : "w");
    try {
      if (before > 0) {
        readSync(fd, header, 0, HEADER_BYTES, 0);
        const expected = Buffer.alloc(HEADER_BYTES);
        writeHeader(expected, metric, d, before);
        if (!header.equals(expected)) throw new FaissLayoutError("unbekannter Dateikopf");
      }
      writeHeader(header, metric, d, before + n);
      writeSync(fd, header, 0, HEADER_BYTES, 0);
      writeSync(
        fd,
        new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength),
        0,
        rows.byteLength,
        HEADER_BYTES + before * d * 4,
      );
    } finally {
      closeSync(fd);
    }
    const next = faiss.Index.read(file);
    if (next.ntotal() !== before + n)
      throw new FaissLayoutError(`${next.ntotal()} statt ${before + n} Vektoren gelesen`);
    return next;
  });
}
