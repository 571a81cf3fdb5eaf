// Random tensor bytes for speed twins: valid ggml blocks filled from a fast PRNG a whole chunk at a
// time (no per-value math), with fixed small scales so every weight is finite and roughly N(0, 0.02).
//   Q4_K (144 bytes / 256 values): f16 d, f16 dmin, 12 bytes of 6-bit scales/mins, 128 bytes of
//     4-bit quants; value = d·sc·q − dmin·m. All 8 sub-blocks get sc = m = 8 and dmin = 7.5·d, so a
//     value is 8·d·(q − 7.5): zero mean, std 8·d·4.61.
//   Q6_K (210 bytes / 256 values): 128 bytes low 4 bits, 64 bytes high 2 bits, 16 int8 scales, f16 d;
//     value = d·scale·(q − 32). Scales 8: std 8·d·18.5.
//   F16: random sign and mantissa, exponent fixed at 2^-7: |value| in [0.0078, 0.0156).
import { float32ToFloat16Bits, GGML_BLOCKS, GgmlType, ggmlTensorBytes } from "./gguf-writer.js";

/** Standard deviation of the random weights. */
export const TWIN_WEIGHT_STD = 0.02;
/** Bytes produced per chunk (a whole number of blocks of every type). */
const CHUNK_BLOCKS = 8192;

const Q4K_SUB_SCALE = 8;
const Q4K_D = TWIN_WEIGHT_STD / (Q4K_SUB_SCALE * Math.sqrt((16 * 16 - 1) / 12));
const Q6K_SCALE = 8;
const Q6K_D = TWIN_WEIGHT_STD / (Q6K_SCALE * Math.sqrt((64 * 64 - 1) / 12));

/** The 16 header bytes every Q4_K block shares: d, dmin, scales (get_scale_min_k4 reads sc = m = 8). */
function q4kHeader(): Buffer {
  const h = Buffer.alloc(16);
  h.writeUInt16LE(float32ToFloat16Bits(Q4K_D), 0);
  h.writeUInt16LE(float32ToFloat16Bits(Q4K_D * 7.5), 2);
  const s = Q4K_SUB_SCALE;
  for (let j = 0; j < 4; j++) {
    h[4 + j] = s; // scales 0-3
    h[8 + j] = s; // mins 0-3
    h[12 + j] = (s & 0xf) | ((s & 0xf) << 4); // scales and mins 4-7 (low 4 bits each)
  }
  return h;
}

/** The 18 trailing bytes of every Q6_K block: 16 int8 scales, then f16 d. */
function q6kTail(): Buffer {
  const t = Buffer.alloc(18, Q6K_SCALE);
  t.writeUInt16LE(float32ToFloat16Bits(Q6K_D), 16);
  return t;
}

const Q4K_HEADER = q4kHeader();
const Q6K_TAIL = q6kTail();

/** xorshift128: four u32 words of state, a whole Uint32Array per call. */
export class FastRandom {
  private x: number;
  private y = 362436069;
  private z = 521288629;
  private w = 88675123;

  constructor(seed: number) {
    this.x = seed >>> 0 || 123456789;
    for (let i = 0; i < 8; i++) this.next();
  }

  private next(): number {
    const t = this.x ^ (this.x << 11);
    this.x = this.y;
    this.y = this.z;
    this.z = this.w;
    this.w = (this.w ^ (this.w >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return this.w;
  }

  fill(words: Uint32Array): void {
    let { x, y, z, w } = this;
    for (let i = 0; i < words.length; i++) {
      const t = x ^ (x << 11);
      x = y;
      y = z;
      z = w;
      w = (w ^ (w >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
      words[i] = w;
    }
    Object.assign(this, { x, y, z, w });
  }
}

/** Random block bytes for `count` blocks of `type` into `out` (a fresh or reused buffer). */
function fillBlocks(type: GgmlType, out: Buffer, rng: FastRandom): void {
  rng.fill(new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2));
  const { bytes } = GGML_BLOCKS[type];
  if (type === GgmlType.Q4_K) {
    for (let at = 0; at < out.length; at += bytes) Q4K_HEADER.copy(out, at);
  } else if (type === GgmlType.Q6_K) {
    for (let at = bytes - Q6K_TAIL.length; at < out.length; at += bytes) Q6K_TAIL.copy(out, at);
  } else if (type === GgmlType.F16) {
    const words = new Uint32Array(out.buffer, out.byteOffset, out.length >>> 2);
    for (let i = 0; i < words.length; i++) words[i] = ((words[i] ?? 0) & 0x83ff83ff) | 0x20002000;
  } else {
    throw new RangeError(`no random blocks for ${GgmlType[type]}`);
  }
}

/**
 * The bytes of a random tensor, chunk by chunk. The chunk buffer is reused: each chunk is valid only
 * until the next is requested (the streaming writer awaits each write before asking for more).
 */
export function* randomTensorChunks(type: GgmlType, dims: readonly number[], seed: number): Generator<Uint8Array> {
  const total = ggmlTensorBytes(type, dims);
  const chunkBytes = CHUNK_BLOCKS * GGML_BLOCKS[type].bytes * (type === GgmlType.Q6_K ? 2 : 1); // Q6_K: 210 is not a multiple of 4
  const rng = new FastRandom(seed);
  const buffer = Buffer.alloc(Math.min(chunkBytes, Math.ceil(total / 4) * 4) + 4);
  for (let done = 0; done < total;) {
    const n = Math.min(chunkBytes, total - done);
    const view = buffer.subarray(0, Math.ceil(n / 4) * 4);
    fillBlocks(type, view, rng);
    yield view.subarray(0, n);
    done += n;
  }
}

/** An F32 tensor's bytes. */
export function f32Bytes(values: ArrayLike<number>): Buffer {
  const out = Buffer.alloc(values.length * 4);
  for (let i = 0; i < values.length; i++) out.writeFloatLE(values[i] ?? 0, i * 4);
  return out;
}
