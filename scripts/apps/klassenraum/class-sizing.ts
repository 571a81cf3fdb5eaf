// How much memory the room needs, from measured figures (issue 46), and the class server's settings that fit:
// - the class server (llama-server): the model file (mapped), llama.cpp's CPU repack of the weights (the AMX /
//   repacked copy: +3.3 GB for the 8B twin's 4.9 GB file, i.e. ~0.67 × the file), the KV cache for all slots
//   (2 × layers × KV heads × head size × tokens × bytes per element) and ~0.35 GB of compute buffers.
//   Measured with the 8B twin, `-c 32768 --parallel 4`: 12.4 GB as started before, 9.1 GB with --no-repack,
//   7.1 GB with --no-repack and a q8_0 KV cache (2026-11-28, 2-core dev VM); the formula gives 12.9 / 9.6 / 7.6.
// - per participant, the maximum of a realistic day (JupyterHub's rule: plan for the maximum per user, not the
//   median): Teil N and Aufgabe N open — the Aufgabe's kernel after its cells (387 MB) and the Teil's (≤ 290 MB),
//   each 25 MB less with the kernels' --max-semi-space-size=1 —, their Jupyter server with a browser on it
//   (142 MB) and the travel and math MCP servers of Teil 3 (≤ 105 MB each).
// - the hub (JupyterHub + proxy, 152 MB measured), the kit's own Node processes (hub, board, klassenraum) and
//   1 GB for the operating system.
export const GB = 1e9;
/** The class server's slots and context per slot (`npm run klassenraum` --parallel / --kontext). */
export const DEFAULT_CLASS_PARALLEL = 4;
export const DEFAULT_CLASS_CONTEXT = 8192;
const MB = 1024 * 1024;

export interface ModelShape {
  layers: number;
  kvHeads: number;
  headSize: number;
}

/** Llama 3.1 8B (the default class model) when the file is not there to read. */
export const LLAMA_8B_SHAPE: ModelShape = { layers: 32, kvHeads: 8, headSize: 128 };

/** Bytes per KV-cache element: f16, or q8_0 (blocks of 32 values in 34 bytes). */
export const KV_BYTES = { f16: 2, q8_0: 34 / 32 } as const;
export type KvType = keyof typeof KV_BYTES;

/** llama.cpp's repacked copy of the weights, as a share of the file (8B twin: 3.3 GB for 4.9 GB). */
export const REPACK_SHARE = 0.67;
const COMPUTE_BUFFERS = 0.35 * GB;

export const PARTICIPANT_DAY_MAX_BYTES = (142 + (387 - 25) + (290 - 25) + 2 * 105) * MB;
export const HUB_BYTES = 200 * MB;
export const KIT_PROCESSES_BYTES = 300 * MB;
export const SYSTEM_RESERVE_BYTES = 1 * GB;

export interface ClassServerPlan {
  repack: boolean;
  kv: KvType;
  /** llama-server flags for these settings (beside -m, -c, --parallel). */
  flags: string[];
  bytes: number;
}

export function kvCacheBytes(shape: ModelShape, tokens: number, kv: KvType): number {
  return 2 * shape.layers * shape.kvHeads * shape.headSize * tokens * KV_BYTES[kv];
}

export function classServerBytes(
  modelBytes: number,
  shape: ModelShape,
  tokens: number,
  repack: boolean,
  kv: KvType,
): number {
  return modelBytes * (repack ? 1 + REPACK_SHARE : 1) + kvCacheBytes(shape, tokens, kv) + COMPUTE_BUFFERS;
}

export function classServerFlags(repack: boolean, kv: KvType): string[] {
  return [...(kv === "q8_0" ? ["-fa", "on", "-ctk", "q8_0", "-ctv", "q8_0"] : []), ...(repack ? [] : ["--no-repack"])];
}

/** Everything but the class server, for `participants` people. */
export function roomBytes(participants: number): number {
  return SYSTEM_RESERVE_BYTES + HUB_BYTES + KIT_PROCESSES_BYTES + participants * PARTICIPANT_DAY_MAX_BYTES;
}

/**
 * The class server's settings for a machine of `totalBytes` that also serves `participants` people: always a
 * q8_0 KV cache (half the f16 cache; quality loss negligible for chat); the repacked weights (faster prompt
 * reading on CPUs with AMX/AVX-512) only when they fit, else --no-repack.
 */
export function planClassServer(
  modelBytes: number,
  shape: ModelShape,
  tokens: number,
  totalBytes: number,
  participants: number,
): ClassServerPlan {
  // llama.cpp quantizes the KV cache in blocks of 32: a model whose head size is no multiple of 32 keeps f16.
  const kv = shape.headSize % 32 === 0 ? "q8_0" : "f16";
  const withRepack = classServerBytes(modelBytes, shape, tokens, true, kv);
  const repack = withRepack + roomBytes(participants) <= totalBytes;
  const bytes = repack ? withRepack : classServerBytes(modelBytes, shape, tokens, false, kv);
  return { repack, kv, flags: classServerFlags(repack, kv), bytes };
}

/** How many participants fit in `totalBytes` next to a class server of `serverBytes` (0 when it runs elsewhere). */
export function participantsThatFit(totalBytes: number, serverBytes: number): number {
  return Math.max(0, Math.floor((totalBytes - serverBytes - roomBytes(0)) / PARTICIPANT_DAY_MAX_BYTES));
}

/** The class server's model shape from the GGUF file (the 8B default when it cannot be read). */
export async function modelShape(path: string): Promise<ModelShape> {
  try {
    const { readGgufFileInfo } = await import("node-llama-cpp");
    const info = await readGgufFileInfo(path, { readTensorInfo: false });
    const a = info.architectureMetadata as {
      block_count?: number;
      embedding_length?: number;
      attention?: { head_count?: number; head_count_kv?: number; key_length?: number };
    };
    const heads = a.attention?.head_count ?? 0;
    const headSize = a.attention?.key_length ?? (heads ? (a.embedding_length ?? 0) / heads : 0);
    if (a.block_count && headSize)
      return { layers: a.block_count, kvHeads: a.attention?.head_count_kv ?? heads, headSize };
  } catch {
    // unreadable: plan for the default model
  }
  return LLAMA_8B_SHAPE;
}
