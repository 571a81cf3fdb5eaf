// Speed twins: their GGUF headers against the shape table (header only, no gigabytes written), the
// random Q4_K / Q6_K / F16 blocks decoded as llama.cpp decodes them, the streaming writer against the
// in-memory one, and a layer-truncated 1B twin that real node-llama-cpp loads and generates from.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { getLlama, readGgufFileInfo, type Llama } from "node-llama-cpp";
import { encodeGguf, encodeGgufHeader, GgmlType } from "../../scripts/dev/tiny-models/gguf-writer.js";
import { streamTensorOf, writeGgufStream } from "../../scripts/dev/tiny-models/gguf-stream.js";
import { randomTensorChunks, TWIN_WEIGHT_STD } from "../../scripts/dev/tiny-models/ggml-random.js";
import { tinyLlamaGgufParts } from "../../scripts/dev/tiny-models/tiny-llama.js";
import { MODEL_CHOICES } from "../../lib/llm/model-files.js";
import {
  FILE_TYPE,
  TWIN_SHAPES,
  twinShape,
  twinTensors,
  useMoreBits,
  WITHOUT_TWIN,
} from "../../scripts/dev/twins/shapes.js";
import { twinMetadata, twinStreamTensors, writeTwin } from "../../scripts/dev/twins/main.js";
import { halfBitsToFloat } from "../helpers/half-float.js";

/** ggml's dequantize_row_q4_K for one 144-byte block. */
function dequantQ4K(b: Buffer): number[] {
  const d = halfBitsToFloat(b.readUInt16LE(0));
  const dmin = halfBitsToFloat(b.readUInt16LE(2));
  const q = b.subarray(4, 16);
  const scaleMin = (j: number): [number, number] =>
    j < 4
      ? [q[j]! & 63, q[j + 4]! & 63]
      : [(q[j + 4]! & 0xf) | ((q[j - 4]! >> 6) << 4), (q[j + 4]! >> 4) | ((q[j]! >> 6) << 4)];
  const out: number[] = [];
  for (let j = 0, is = 0; j < 256; j += 64, is += 2) {
    const qs = b.subarray(16 + j / 2, 16 + j / 2 + 32);
    const [sc1, m1] = scaleMin(is);
    const [sc2, m2] = scaleMin(is + 1);
    for (let l = 0; l < 32; l++) out.push(d * sc1 * (qs[l]! & 0xf) - dmin * m1);
    for (let l = 0; l < 32; l++) out.push(d * sc2 * (qs[l]! >> 4) - dmin * m2);
  }
  return out;
}

/** ggml's dequantize_row_q6_K for one 210-byte block. */
function dequantQ6K(b: Buffer): number[] {
  const d = halfBitsToFloat(b.readUInt16LE(208));
  const out = new Array<number>(256);
  for (let n = 0; n < 2; n++) {
    const ql = b.subarray(n * 64, n * 64 + 64);
    const qh = b.subarray(128 + n * 32, 128 + n * 32 + 32);
    const sc = (i: number): number => b.readInt8(192 + n * 8 + i);
    for (let l = 0; l < 32; l++) {
      const is = Math.floor(l / 16);
      const q1 = ((ql[l]! & 0xf) | (((qh[l]! >> 0) & 3) << 4)) - 32;
      const q2 = ((ql[l + 32]! & 0xf) | (((qh[l]! >> 2) & 3) << 4)) - 32;
      const q3 = ((ql[l]! >> 4) | (((qh[l]! >> 4) & 3) << 4)) - 32;
      const q4 = ((ql[l + 32]! >> 4) | (((qh[l]! >> 6) & 3) << 4)) - 32;
      out[n * 128 + l] = d * sc(is) * q1;
      out[n * 128 + l + 32] = d * sc(is + 2) * q2;
      out[n * 128 + l + 64] = d * sc(is + 4) * q3;
      out[n * 128 + l + 96] = d * sc(is + 6) * q4;
    }
  }
  return out;
}

function stats(values: number[]): { mean: number; std: number; maxAbs: number; finite: boolean } {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const std = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
  return { mean, std, maxAbs: Math.max(...values.map(Math.abs)), finite: values.every(Number.isFinite) };
}

/** The bytes of the first chunk of a random tensor with `rows` rows of 256 values. */
function firstChunk(type: GgmlType, rows: number): Buffer {
  const chunk = randomTensorChunks(type, [256, rows], 42).next().value as Uint8Array;
  return Buffer.from(chunk);
}

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "twins-test-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("twin shapes", () => {
  it("has a twin for every models:pull menu model, except those listed with a reason", () => {
    for (const choice of MODEL_CHOICES)
      assert.ok(twinShape(choice.id) ?? WITHOUT_TWIN[choice.id], `no twin shape for ${choice.id}`);
    for (const id of ["llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b"]) assert.ok(twinShape(id), id);
    for (const id of Object.keys(WITHOUT_TWIN)) assert.equal(twinShape(id), undefined, id);
  });

  it("gives Q6_K to attn_v and ffn_down on llama.cpp's use_more_bits layers", () => {
    const picked = Array.from({ length: 16 }, (_, i) => i).filter((i) => useMoreBits(i, 16));
    assert.deepEqual(picked, [0, 1, 4, 7, 10, 13, 14, 15]);
  });

  for (const shape of TWIN_SHAPES) {
    it(`${shape.id}: the GGUF header says the table's numbers`, async () => {
      const tensors = twinTensors(shape, "q4_k_m");
      const layout = encodeGgufHeader(twinMetadata(shape, "q4_k_m"), tensors);
      const path = join(dir, `${shape.id}-header.gguf`);
      await writeFile(path, layout.header); // header only: the reader never touches tensor data
      const info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false });
      const at = (key: string): unknown =>
        key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], info.metadata);
      assert.equal(at("general.architecture"), "llama");
      assert.equal(at("general.file_type"), FILE_TYPE.q4_k_m);
      assert.equal(at("llama.block_count"), shape.layers);
      assert.equal(at("llama.embedding_length"), shape.hidden);
      assert.equal(at("llama.feed_forward_length"), shape.feedForward);
      assert.equal(at("llama.attention.head_count"), shape.heads);
      assert.equal(at("llama.attention.head_count_kv"), shape.kvHeads);
      assert.equal(at("llama.rope.dimension_count"), shape.headDim);
      assert.equal(at("llama.rope.freq_base"), shape.ropeBase);
      assert.equal(at("llama.context_length"), shape.context);
      assert.equal(at("llama.vocab_size"), 128256);
      assert.equal((at("tokenizer.ggml.tokens") as unknown[]).length, 128256);
      assert.equal((at("tokenizer.ggml.merges") as unknown[]).length, 280147);
      assert.equal(at("tokenizer.ggml.model"), "gpt2");
      assert.equal(at("tokenizer.ggml.pre"), "llama-bpe");
      assert.equal(at("tokenizer.ggml.eos_token_id"), 128009);
      const byName = new Map((info.fullTensorInfo ?? []).map((t) => [t.name, t]));
      assert.equal(byName.size, tensors.length);
      assert.equal(byName.has("output.weight"), !shape.tiedOutput);
      assert.deepEqual(byName.get("blk.0.attn_k.weight")?.dimensions.map(Number), [
        shape.hidden,
        shape.kvHeads * shape.headDim,
      ]);
      assert.deepEqual(byName.get("blk.0.ffn_down.weight")?.dimensions.map(Number), [shape.feedForward, shape.hidden]);
      assert.equal(byName.get("blk.0.ffn_down.weight")?.ggmlType, GgmlType.Q6_K);
      assert.equal(byName.get(`blk.${Math.floor(shape.layers / 8)}.ffn_down.weight`)?.ggmlType, GgmlType.Q4_K);
      assert.equal(byName.get(shape.tiedOutput ? "token_embd.weight" : "output.weight")?.ggmlType, GgmlType.Q6_K);
      assert.equal(byName.get("rope_freqs.weight")?.dimensions.map(Number)[0], shape.headDim / 2);
      // Published Q4_K_M files: 1B 807,689,600 bytes (ENVIRONMENT.md), 3B ≈ 2.02 GB, 8B ≈ 4.92 GB.
      const published = { "llama-3.2-1b": 807_689_600, "llama-3.2-3b": 2.02e9, "llama-3.1-8b": 4.92e9 }[shape.id] ?? 0;
      const size = layout.header.length + layout.dataBytes;
      assert.ok(
        Math.abs(size / published - 1) < (shape.id === "llama-3.2-1b" ? 1e-5 : 0.01),
        `${size} bytes vs published ${published}`,
      );
    });
  }
});

describe("an F16 twin", () => {
  it("says file_type 1 (mostly F16) and stores every matrix as F16", async () => {
    const shape = twinShape("llama-3.2-1b")!;
    const path = join(dir, "f16-header.gguf");
    await writeFile(path, encodeGgufHeader(twinMetadata(shape, "f16", 1), twinTensors(shape, "f16", 1)).header);
    const info = await readGgufFileInfo(path, { readTensorInfo: true, logWarnings: false });
    assert.equal((info.metadata.general as { file_type?: number }).file_type, FILE_TYPE.f16);
    const types = new Set((info.fullTensorInfo ?? []).filter((t) => t.dimensions.length === 2).map((t) => t.ggmlType));
    assert.deepEqual([...types], [GgmlType.F16]);
  });
});

describe("random blocks", () => {
  it("Q4_K blocks decode (ggml's algorithm) to finite, zero-mean weights of std 0.02", () => {
    const bytes = firstChunk(GgmlType.Q4_K, 64);
    const values = Array.from({ length: 64 }, (_, i) => dequantQ4K(bytes.subarray(i * 144, (i + 1) * 144))).flat();
    const s = stats(values);
    assert.ok(s.finite);
    assert.ok(Math.abs(s.mean) < 0.002, `mean ${s.mean}`);
    assert.ok(Math.abs(s.std / TWIN_WEIGHT_STD - 1) < 0.1, `std ${s.std}`);
    assert.ok(s.maxAbs < 0.04, `max ${s.maxAbs}`);
  });

  it("Q6_K blocks decode to finite, zero-mean weights of std 0.02", () => {
    const bytes = firstChunk(GgmlType.Q6_K, 64);
    const values = Array.from({ length: 64 }, (_, i) => dequantQ6K(bytes.subarray(i * 210, (i + 1) * 210))).flat();
    const s = stats(values);
    assert.ok(s.finite);
    assert.ok(Math.abs(s.mean) < 0.002, `mean ${s.mean}`);
    assert.ok(Math.abs(s.std / TWIN_WEIGHT_STD - 1) < 0.1, `std ${s.std}`);
    assert.ok(s.maxAbs < 0.04, `max ${s.maxAbs}`);
  });

  it("F16 values are finite and small", () => {
    const bytes = firstChunk(GgmlType.F16, 16);
    const values = Array.from({ length: bytes.length / 2 }, (_, i) => halfBitsToFloat(bytes.readUInt16LE(i * 2)));
    const s = stats(values);
    assert.ok(s.finite && s.maxAbs < 0.016 && Math.abs(s.mean) < 0.002, JSON.stringify(s));
  });
});

describe("streaming GGUF writer", () => {
  it("writes the tiny model byte for byte like the in-memory writer", async () => {
    const { metadata, tensors } = tinyLlamaGgufParts();
    const path = join(dir, "tiny-streamed.gguf");
    const size = await writeGgufStream(path, metadata, tensors.map(streamTensorOf));
    const expected = encodeGguf(metadata, tensors);
    assert.equal(size, expected.length);
    assert.ok((await readFile(path)).equals(expected));
  });

  it("leaves no file behind when aborted mid-way", async () => {
    const shape = twinShape("llama-3.2-1b")!;
    const controller = new AbortController();
    const path = join(dir, "aborted.gguf");
    const writing = writeGgufStream(path, twinMetadata(shape, "q4_k_m", 1), twinStreamTensors(shape, "q4_k_m", 1), {
      signal: controller.signal,
      onProgress: (written) => written > 20e6 && controller.abort(),
    });
    await assert.rejects(writing, { name: "AbortError" });
    assert.equal(existsSync(path), false);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith("aborted")),
      [],
    );
  });
});

describe("a layer-truncated 1B twin in node-llama-cpp", { timeout: 240_000 }, () => {
  let llama: Llama;
  before(async () => {
    llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never, logger: () => {} });
  });
  after(async () => {
    await llama?.dispose();
  });

  it("loads (2 of 16 layers, full vocabulary) and generates 32 tokens with finite probabilities", async () => {
    const path = join(dir, "twin-1b-2l.gguf");
    await writeTwin("llama-3.2-1b", path, { layers: 2 });
    const model = await llama.loadModel({ modelPath: path });
    const context = await model.createContext({ contextSize: 256, threads: 1 });
    try {
      const sequence = context.getSequence();
      const prompt = model.tokenize("Grüße aus München: Wie wird das Wetter morgen in Köln?");
      const tokens: number[] = [];
      for await (const out of sequence.evaluateWithMetadata(prompt, { confidence: true }, { temperature: 0 })) {
        assert.ok(
          Number.isFinite(out.confidence) && out.confidence > 0 && out.confidence <= 1,
          `confidence ${out.confidence}`,
        );
        assert.ok(out.token >= 0 && out.token < 128256);
        tokens.push(out.token);
        if (tokens.length === 32) break;
      }
      assert.equal(tokens.length, 32);
    } finally {
      await context.dispose();
      await model.dispose();
    }
  });
});
