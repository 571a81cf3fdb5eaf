// Where FAISS keeps HNSW's efSearch in a serialised IndexHNSWFlat, so vector-index.ts can read and
// set it (faiss-node has no setter). Checked against FAISS 1.7.3's write_index; any other layout is
// reported as undefined and the index keeps FAISS' own value.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/**
 * Byte offset of `efSearch` in a serialised IndexHNSWFlat (FAISS write_index: fourcc "IHNf", index
 * header, the HNSW graph's five arrays, then entry_point, max_level, efConstruction, efSearch as int32),
 * or undefined if the data does not have that layout. `read(position, length)` returns the bytes there
 * (fewer at the end); `total` is the data's length.
 */
export function efSearchOffset(read: (position: number, length: number) => Buffer, total: number): number | undefined {
  if (total < 37 || read(0, 4).toString("latin1") !== "IHNf") return undefined;
  // Header: d (int32), ntotal (int64), two dummies (int64), is_trained (uint8), metric_type (int32).
  let p = 4 + 4 + 8 + 8 + 8 + 1;
  const metric = read(p, 4).readInt32LE(0);
  p += 4;
  if (metric > 1) p += 4; // metric_arg (float)
  // assign_probas (double), cum_nneighbor_per_level (int32), levels (int32), offsets (uint64), neighbors (int32)
  for (const elementSize of [8, 4, 4, 8, 4]) {
    if (p + 8 > total) return undefined;
    const count = read(p, 8).readBigUInt64LE(0);
    p += 8;
    if (count > BigInt(total)) return undefined;
    p += Number(count) * elementSize;
  }
  p += 4 + 4 + 4; // entry_point, max_level, efConstruction
  return p + 4 <= total ? p : undefined;
}

export function bufferReader(buf: Buffer): (position: number, length: number) => Buffer {
  return (position, length) => buf.subarray(position, position + length);
}

/** efSearch stored in an index file (undefined if it is no HNSW file in the known layout); reads only a few bytes. */
export function efSearchInFile(file: string): number | undefined {
  const fd = openSync(file, "r");
  try {
    const read = (position: number, length: number) => {
      const buf = Buffer.alloc(length);
      return buf.subarray(0, readSync(fd, buf, 0, length, position));
    };
    const at = efSearchOffset(read, fstatSync(fd).size);
    return at === undefined ? undefined : read(at, 4).readInt32LE(0);
  } finally {
    closeSync(fd);
  }
}
