// Minimal, dependency-free writer for GGUF v3 files (the llama.cpp model format).
// Layout: header, metadata key/values, tensor infos, padding, then the tensor data section where
// every tensor starts at a multiple of the alignment (32 bytes unless general.alignment says otherwise).
import { rename, rm, writeFile } from "node:fs/promises";
import { KitError } from "../../../lib/errors.js";

const GGUF_MAGIC = 0x46554747; // "GGUF" read as little-endian u32
const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** GGUF metadata value types (gguf_type in ggml). */
export enum GgufValueType {
  UINT8 = 0,
  INT8 = 1,
  UINT16 = 2,
  INT16 = 3,
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
  UINT64 = 10,
  INT64 = 11,
  FLOAT64 = 12,
}

/** The tensor element types this writer supports (ggml_type ids). */
export enum GgmlType {
  F32 = 0,
  F16 = 1,
  Q4_K = 12,
  Q6_K = 14,
}

/** Elements per block and bytes per block of each type (ggml's type traits; K-quants: QK_K = 256). */
export const GGML_BLOCKS: Readonly<Record<GgmlType, { elements: number; bytes: number }>> = {
  [GgmlType.F32]: { elements: 1, bytes: 4 },
  [GgmlType.F16]: { elements: 1, bytes: 2 },
  [GgmlType.Q4_K]: { elements: 256, bytes: 144 },
  [GgmlType.Q6_K]: { elements: 256, bytes: 210 },
};

/** Bytes a tensor of `type` and `dims` takes in the data section (without alignment padding). */
export function ggmlTensorBytes(type: GgmlType, dims: readonly number[]): number {
  const block = GGML_BLOCKS[type];
  const rowElements = dims[0] ?? 1;
  if (rowElements % block.elements !== 0) {
    throw new GgufWriteError(
      `A row of ${rowElements} values is no whole number of ${GgmlType[type]} blocks (${block.elements}).`,
      dims,
    );
  }
  const elements = dims.reduce((a, b) => a * b, 1);
  return (elements / block.elements) * block.bytes;
}

type ScalarType = Exclude<GgufValueType, GgufValueType.ARRAY>;

export type GgufValue =
  | { type: ScalarType; value: number | bigint | boolean | string }
  | { type: GgufValueType.ARRAY; itemType: ScalarType; items: readonly (number | bigint | boolean | string)[] };

/** Shorthands for building typed metadata values. */
export const gguf = {
  u32: (value: number): GgufValue => ({ type: GgufValueType.UINT32, value }),
  i32: (value: number): GgufValue => ({ type: GgufValueType.INT32, value }),
  u64: (value: number | bigint): GgufValue => ({ type: GgufValueType.UINT64, value }),
  f32: (value: number): GgufValue => ({ type: GgufValueType.FLOAT32, value }),
  bool: (value: boolean): GgufValue => ({ type: GgufValueType.BOOL, value }),
  str: (value: string): GgufValue => ({ type: GgufValueType.STRING, value }),
  strings: (items: readonly string[]): GgufValue => ({
    type: GgufValueType.ARRAY,
    itemType: GgufValueType.STRING,
    items,
  }),
  i32s: (items: readonly number[]): GgufValue => ({ type: GgufValueType.ARRAY, itemType: GgufValueType.INT32, items }),
  f32s: (items: readonly number[]): GgufValue => ({
    type: GgufValueType.ARRAY,
    itemType: GgufValueType.FLOAT32,
    items,
  }),
};

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] is the contiguous (innermost) dimension, e.g. [n_embd, n_vocab]. */
  dims: readonly number[];
  type: GgmlType;
  /** Row-major values, dims[0] varying fastest; converted to `type` when written. */
  data: Float32Array;
}

export class GgufWriteError extends KitError {
  constructor(
    message: string,
    readonly input: unknown,
  ) {
    super(message);
    this.name = "GgufWriteError";
  }
}

/** Growable little-endian byte buffer. */
class ByteSink {
  private buf = Buffer.alloc(1 << 16);
  private len = 0;

  get length(): number {
    return this.len;
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  u8(v: number): void {
    this.reserve(1);
    this.buf.writeUInt8(v, this.len);
    this.len += 1;
  }
  i8(v: number): void {
    this.reserve(1);
    this.buf.writeInt8(v, this.len);
    this.len += 1;
  }
  u16(v: number): void {
    this.reserve(2);
    this.buf.writeUInt16LE(v, this.len);
    this.len += 2;
  }
  i16(v: number): void {
    this.reserve(2);
    this.buf.writeInt16LE(v, this.len);
    this.len += 2;
  }
  u32(v: number): void {
    this.reserve(4);
    this.buf.writeUInt32LE(v, this.len);
    this.len += 4;
  }
  i32(v: number): void {
    this.reserve(4);
    this.buf.writeInt32LE(v, this.len);
    this.len += 4;
  }
  f32(v: number): void {
    this.reserve(4);
    this.buf.writeFloatLE(v, this.len);
    this.len += 4;
  }
  f64(v: number): void {
    this.reserve(8);
    this.buf.writeDoubleLE(v, this.len);
    this.len += 8;
  }
  u64(v: number | bigint): void {
    this.reserve(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.len);
    this.len += 8;
  }
  i64(v: number | bigint): void {
    this.reserve(8);
    this.buf.writeBigInt64LE(BigInt(v), this.len);
    this.len += 8;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  string(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.bytes(b);
  }

  padTo(alignment: number): void {
    const pad = (alignment - (this.len % alignment)) % alignment;
    this.reserve(pad);
    this.buf.fill(0, this.len, this.len + pad);
    this.len += pad;
  }

  toBuffer(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

function writeScalar(sink: ByteSink, type: ScalarType, value: number | bigint | boolean | string, key: string): void {
  const isFloat = type === GgufValueType.FLOAT32 || type === GgufValueType.FLOAT64;
  const num = (): number => {
    if (typeof value !== "number" || (!isFloat && !Number.isInteger(value))) {
      throw new GgufWriteError(
        `Metadata "${key}": expected ${isFloat ? "a number" : "an integer"} for type ${GgufValueType[type]}, got ${String(value)}.`,
        value,
      );
    }
    return value;
  };
  switch (type) {
    case GgufValueType.UINT8:
      return sink.u8(num());
    case GgufValueType.INT8:
      return sink.i8(num());
    case GgufValueType.UINT16:
      return sink.u16(num());
    case GgufValueType.INT16:
      return sink.i16(num());
    case GgufValueType.UINT32:
      return sink.u32(num());
    case GgufValueType.INT32:
      return sink.i32(num());
    case GgufValueType.FLOAT32:
      return sink.f32(num());
    case GgufValueType.FLOAT64:
      return sink.f64(num());
    case GgufValueType.UINT64:
    case GgufValueType.INT64: {
      if (typeof value !== "number" && typeof value !== "bigint") {
        throw new GgufWriteError(`Metadata "${key}": expected a number or bigint, got ${String(value)}.`, value);
      }
      return type === GgufValueType.UINT64 ? sink.u64(value) : sink.i64(value);
    }
    case GgufValueType.BOOL:
      if (typeof value !== "boolean") throw new GgufWriteError(`Metadata "${key}": expected a boolean.`, value);
      return sink.u8(value ? 1 : 0);
    case GgufValueType.STRING:
      if (typeof value !== "string") throw new GgufWriteError(`Metadata "${key}": expected a string.`, value);
      return sink.string(value);
  }
}

function writeValue(sink: ByteSink, key: string, v: GgufValue): void {
  sink.u32(v.type);
  if (v.type === GgufValueType.ARRAY) {
    sink.u32(v.itemType);
    sink.u64(v.items.length);
    for (const item of v.items) writeScalar(sink, v.itemType, item, key);
  } else {
    writeScalar(sink, v.type, v.value, key);
  }
}

// float32 -> IEEE half bits, round to nearest even (Node 20 has no Float16Array).
const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);
export function float32ToFloat16Bits(value: number): number {
  f32Scratch[0] = value;
  const x = u32Scratch[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0); // Inf / NaN
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow -> Inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow -> signed zero
    mant |= 0x800000; // subnormal half: add implicit bit, shift into place
    const shift = 14 - e;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    return sign | (half + (rest > halfway || (rest === halfway && (half & 1) === 1) ? 1 : 0));
  }
  let half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half += 1; // a carry into the exponent is still correct
  return sign | half;
}

function tensorByteSize(t: GgufTensor): number {
  const elements = t.dims.reduce((a, b) => a * b, 1);
  if (elements !== t.data.length) {
    throw new GgufWriteError(
      `Tensor "${t.name}": dims [${t.dims.join(", ")}] hold ${elements} values but data has ${t.data.length}.`,
      t.name,
    );
  }
  if (t.type !== GgmlType.F32 && t.type !== GgmlType.F16) {
    throw new GgufWriteError(`Tensor "${t.name}": values can only be encoded as F32 or F16 here.`, t.name);
  }
  return ggmlTensorBytes(t.type, t.dims);
}

/** What the header says about one tensor; its bytes follow in the data section. */
export interface GgufTensorInfo {
  name: string;
  dims: readonly number[];
  type: GgmlType;
}

/** The encoded header (up to the data section) and where each tensor's bytes go. */
export interface GgufLayout {
  /** Header, metadata, tensor infos and padding: the file's first bytes. */
  header: Buffer;
  alignment: number;
  /** Offset of each tensor inside the data section (aligned). */
  offsets: number[];
  /** Bytes of each tensor (without padding). */
  sizes: number[];
  /** Length of the data section, padded to the alignment. */
  dataBytes: number;
}

function alignmentOf(entries: [string, GgufValue][]): number {
  const alignEntry = entries.find(([k]) => k === "general.alignment")?.[1];
  const alignment =
    alignEntry && alignEntry.type !== GgufValueType.ARRAY ? Number(alignEntry.value) : GGUF_DEFAULT_ALIGNMENT;
  if (!Number.isInteger(alignment) || alignment <= 0 || alignment % 8 !== 0) {
    throw new GgufWriteError(`general.alignment must be a positive multiple of 8, got ${alignment}.`, alignment);
  }
  return alignment;
}

/** Encodes everything before the tensor data; streaming writers (gguf-stream.ts) write the data after it. */
export function encodeGgufHeader(
  metadata: ReadonlyMap<string, GgufValue> | Record<string, GgufValue>,
  tensors: readonly GgufTensorInfo[],
  sizeOf: (t: GgufTensorInfo, index: number) => number = (t) => ggmlTensorBytes(t.type, t.dims),
): GgufLayout {
  const entries = metadata instanceof Map ? [...metadata.entries()] : Object.entries(metadata);
  const alignment = alignmentOf(entries);
  const names = new Set<string>();
  for (const t of tensors) {
    if (names.has(t.name)) throw new GgufWriteError(`Duplicate tensor name "${t.name}".`, t.name);
    names.add(t.name);
  }

  const sink = new ByteSink();
  sink.u32(GGUF_MAGIC);
  sink.u32(GGUF_VERSION);
  sink.u64(tensors.length);
  sink.u64(entries.length);
  for (const [key, value] of entries) {
    sink.string(key);
    writeValue(sink, key, value);
  }

  let offset = 0;
  const offsets: number[] = [];
  const sizes: number[] = [];
  tensors.forEach((t, i) => {
    const size = sizeOf(t, i);
    sink.string(t.name);
    sink.u32(t.dims.length);
    for (const d of t.dims) sink.u64(d);
    sink.u32(t.type);
    sink.u64(offset);
    offsets.push(offset);
    sizes.push(size);
    offset += size;
    offset += (alignment - (offset % alignment)) % alignment;
  });
  sink.padTo(alignment);
  return { header: Buffer.from(sink.toBuffer()), alignment, offsets, sizes, dataBytes: offset };
}

/** A tensor's values in its file encoding (F32 or F16, little-endian). */
export function encodeTensorData(t: GgufTensor): Buffer {
  tensorByteSize(t); // checks dims against the data
  // Typed arrays are little-endian on every platform node-llama-cpp supports, as GGUF is.
  if (t.type === GgmlType.F32) return Buffer.from(Float32Array.from(t.data).buffer);
  const halves = new Uint16Array(t.data.length);
  for (let j = 0; j < halves.length; j++) halves[j] = float32ToFloat16Bits(t.data[j] ?? 0);
  return Buffer.from(halves.buffer);
}

/** Serializes a complete GGUF v3 file. Same input → byte-identical output. */
export function encodeGguf(
  metadata: ReadonlyMap<string, GgufValue> | Record<string, GgufValue>,
  tensors: readonly GgufTensor[],
): Buffer {
  const layout = encodeGgufHeader(metadata, tensors, (t, i) => tensorByteSize(tensors[i] as GgufTensor));
  const out = Buffer.alloc(layout.header.length + layout.dataBytes);
  layout.header.copy(out, 0);
  tensors.forEach((t, i) => encodeTensorData(t).copy(out, layout.header.length + (layout.offsets[i] ?? 0)));
  return out;
}

/** Writes the file atomically (temp file + rename), so a concurrent reader never sees half a model. */
export async function writeGgufFile(
  path: string,
  metadata: ReadonlyMap<string, GgufValue> | Record<string, GgufValue>,
  tensors: readonly GgufTensor[],
): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(tmp, encodeGguf(metadata, tensors));
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
