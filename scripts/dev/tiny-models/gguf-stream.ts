// Streaming GGUF writer: the header (gguf-writer.ts's encoder) first, then each tensor's bytes chunk by
// chunk, so a multi-gigabyte model never sits in memory. Written to a temp file and renamed at the end:
// a reader never sees half a model, and an error or abort leaves nothing behind.
import { open, rename, rm } from "node:fs/promises";
import {
  encodeGgufHeader,
  encodeTensorData,
  GgufWriteError,
  type GgufTensor,
  type GgufTensorInfo,
  type GgufValue,
} from "./gguf-writer.js";
import { ignore } from "../../../lib/util.js";

/** A tensor whose bytes come in chunks; together they must be exactly the type's byte size. */
export interface StreamTensor extends GgufTensorInfo {
  chunks(): Iterable<Uint8Array>;
}

export interface StreamWriteOptions {
  /** Called after each chunk with the bytes written so far and the file's total. */
  onProgress?: (written: number, total: number) => void;
  signal?: AbortSignal;
}

/** A tensor with its values in memory, as a stream tensor (one chunk). */
export function streamTensorOf(t: GgufTensor): StreamTensor {
  return { name: t.name, dims: t.dims, type: t.type, chunks: () => [encodeTensorData(t)] };
}

/** Writes the GGUF file to `path`; returns its size in bytes. */
export async function writeGgufStream(
  path: string,
  metadata: ReadonlyMap<string, GgufValue> | Record<string, GgufValue>,
  tensors: readonly StreamTensor[],
  options: StreamWriteOptions = {},
): Promise<number> {
  const layout = encodeGgufHeader(metadata, tensors);
  const total = layout.header.length + layout.dataBytes;
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const file = await open(tmp, "w");
  try {
    let position = 0;
    const write = async (bytes: Uint8Array): Promise<void> => {
      options.signal?.throwIfAborted();
      await file.write(bytes, 0, bytes.length, position);
      position += bytes.length;
      options.onProgress?.(position, total);
    };
    await write(layout.header);
    for (const [i, t] of tensors.entries()) {
      const start = layout.header.length + (layout.offsets[i] ?? 0);
      if (start > position) await write(Buffer.alloc(start - position));
      for (const chunk of t.chunks()) await write(chunk);
      const written = position - start;
      if (written !== layout.sizes[i]) {
        throw new GgufWriteError(
          `Tensor "${t.name}": ${written} bytes written, its type and dims need ${layout.sizes[i]}.`,
          t.name,
        );
      }
    }
    if (total > position) await write(Buffer.alloc(total - position));
    await file.close();
    await rename(tmp, path);
    return total;
  } catch (err) {
    await file.close().catch(ignore("closing after a failed write; the write's error is thrown"));
    await rm(tmp, { force: true });
    throw err;
  }
}
