// Real transformers.js + onnxruntime on the generated tiny ONNX model (hidden size 64).
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { modelContentHash } from "../../lib/rag/embedding-model.js";
import { createEmbedder, EmbeddingModelNotFoundError, RagInputError, type Embedder } from "../../lib/rag/index.js";
import { maxAbsDiff, norm, startFakeHub, tempDir, tinyBertDir } from "./helpers.js";

let modelDir: string;
let embedder: Embedder;

before(async () => {
  modelDir = await tinyBertDir();
  embedder = await createEmbedder({ model: modelDir, dtype: "fp32", batchSize: 4, progress: false });
});
after(async () => {
  await embedder?.dispose();
});

test("vectors have the model's dimension and unit length; the same text gives the same vector", async () => {
  const texts = ["Der Nebelfuchs lebt an der Isar.", "Wann beginnt die Schonzeit?", "Der Nebelfuchs lebt an der Isar."];
  const vectors = await embedder.embed(texts);
  assert.equal(embedder.dimension, 64);
  assert.equal(vectors.length, 3);
  for (const v of vectors) {
    assert.equal(v.length, 64);
    assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
  }
  assert.deepEqual(vectors[0], vectors[2]);
  assert.ok(maxAbsDiff(vectors[0] ?? [], vectors[1] ?? []) > 1e-3, "different texts should differ");
  const again = await embedder.embedOne(texts[0] ?? "");
  assert.ok(maxAbsDiff(again, vectors[0] ?? []) < 1e-5);
});

test("batching and length-sorting keep the input order", async () => {
  const texts = Array.from({ length: 11 }, (_, i) => `Satz Nummer ${i} ` + "über Käfer im Wald ".repeat(i % 5));
  const batched = await embedder.embed(texts, { batchSize: 3 });
  for (let i = 0; i < texts.length; i++) {
    const single = await embedder.embedOne(texts[i] ?? "");
    assert.ok(maxAbsDiff(single, batched[i] ?? []) < 1e-4, `text ${i} differs`);
  }
  const progress: number[] = [];
  await embedder.embed(texts, { batchSize: 5, onProgress: (done) => progress.push(done) });
  assert.deepEqual(progress, [5, 10, 11]);
});

test("the kit's generated test model says so (rehearsal outputs then warn); a copy of it elsewhere is a model like any", async () => {
  assert.equal(embedder.testModel, true);
  const copy = tempDir("rag-copy-");
  try {
    cpSync(modelDir, copy.dir, { recursive: true });
    const other = await createEmbedder({ model: copy.dir, dtype: "fp32", progress: false });
    try {
      assert.equal(other.testModel, false);
    } finally {
      await other.dispose();
    }
  } finally {
    copy.cleanup();
  }
});

test("dtype q8 loads onnx/model_quantized.onnx; the fingerprint changes with the dtype", async () => {
  const q8 = await createEmbedder({ model: modelDir, dtype: "q8", progress: false });
  try {
    assert.equal(q8.dtype, "q8");
    assert.equal(q8.dimension, 64);
    assert.notEqual(q8.fingerprint, embedder.fingerprint);
    const [v] = await q8.embed(["Der Nebelfuchs lebt an der Isar."]);
    assert.ok(Math.abs(norm(v ?? []) - 1) < 1e-5);
  } finally {
    await q8.dispose();
  }
});

test("the model content hash reads size, first and last MiB and the tokenizer files, not file times", () => {
  const tmp = tempDir();
  try {
    const dir = join(tmp.dir, "gross");
    mkdirSync(join(dir, "onnx"), { recursive: true });
    const weights = join(dir, "onnx", "model.onnx");
    const mib = 1024 * 1024;
    const bytes = Buffer.alloc(3 * mib, 7);
    const write = (patch: (b: Buffer) => void) => {
      const b = Buffer.from(bytes);
      patch(b);
      writeFileSync(weights, b);
      return modelContentHash(dir, "fp32");
    };
    writeFileSync(join(dir, "tokenizer.json"), '{"model":{"vocab":{"a":0}}}');
    const base = write(() => {});
    utimesSync(weights, new Date(0), new Date(0));
    assert.equal(modelContentHash(dir, "fp32"), base, "file times do not count");
    assert.notEqual(
      write((b) => (b[10] = 1)),
      base,
      "first MiB",
    );
    assert.notEqual(
      write((b) => (b[3 * mib - 10] = 1)),
      base,
      "last MiB",
    );
    assert.notEqual(
      (() => {
        writeFileSync(weights, Buffer.alloc(3 * mib + 1, 7));
        return modelContentHash(dir, "fp32");
      })(),
      base,
      "size",
    );
    write(() => {});
    writeFileSync(join(dir, "tokenizer.json"), '{"model":{"vocab":{"b":0}}}');
    assert.notEqual(modelContentHash(dir, "fp32"), base, "tokenizer.json");
    assert.notEqual(modelContentHash(dir, "q8"), modelContentHash(dir, "fp32"), "another weight file");
  } finally {
    tmp.cleanup();
  }
});

test("EMBEDDING_MODEL is honoured when no model is passed", async () => {
  const saved = process.env.EMBEDDING_MODEL;
  process.env.EMBEDDING_MODEL = modelDir;
  try {
    const fromEnv = await createEmbedder({ dtype: "fp32", progress: false });
    assert.equal(fromEnv.model, modelDir);
    assert.equal(fromEnv.fingerprint, embedder.fingerprint);
    await fromEnv.dispose();
  } finally {
    if (saved === undefined) delete process.env.EMBEDDING_MODEL;
    else process.env.EMBEDDING_MODEL = saved;
  }
});

test("offline with a model id that is not in MODELS_DIR: error says where to put the files", async () => {
  const tmp = tempDir();
  try {
    await assert.rejects(
      createEmbedder({ model: "Xenova/paraphrase-multilingual-MiniLM-L12-v2", modelsDir: tmp.dir, offline: true }),
      (error: unknown) => {
        assert.ok(error instanceof EmbeddingModelNotFoundError);
        assert.match(error.message, /MODELS_OFFLINE/);
        assert.ok(error.message.includes(join(tmp.dir, "Xenova/paraphrase-multilingual-MiniLM-L12-v2")));
        assert.match(error.message, /onnx\/model\.onnx/);
        return true;
      },
    );
    await assert.rejects(createEmbedder({ model: "./gibt/es/nicht", offline: true }), EmbeddingModelNotFoundError);
  } finally {
    tmp.cleanup();
  }
});

test("a missing weight file: explicit dtype fails clearly, the default falls back to fp32", async () => {
  const tmp = tempDir();
  try {
    const copy = join(tmp.dir, "nur-fp32");
    cpSync(modelDir, copy, { recursive: true });
    rmSync(join(copy, "onnx", "model_quantized.onnx"));
    await assert.rejects(createEmbedder({ model: copy, dtype: "q8" }), /model_quantized\.onnx/);
    const fallback = await createEmbedder({ model: copy, progress: false });
    assert.equal(fallback.dtype, "fp32");
    await fallback.dispose();
  } finally {
    tmp.cleanup();
  }
});

test("downloads a hub model into MODELS_DIR (fake hub on 127.0.0.1), then finds it offline", async () => {
  const tmp = tempDir();
  const hub = await startFakeHub("kit-test/tiny-bert", modelDir);
  try {
    const downloaded = await createEmbedder({
      model: "kit-test/tiny-bert",
      modelsDir: tmp.dir,
      offline: false,
      remoteHost: hub.url,
      dtype: "fp32",
      progress: false,
    });
    assert.ok(hub.served.includes("onnx/model.onnx"), `served: ${hub.served.join(", ")}`);
    assert.ok(existsSync(join(tmp.dir, "kit-test", "tiny-bert", "onnx", "model.onnx")));
    const [a] = await downloaded.embed(["Ein Test."]);
    await downloaded.dispose();
    const local = await createEmbedder({
      model: "kit-test/tiny-bert",
      modelsDir: tmp.dir,
      offline: true,
      dtype: "fp32",
      progress: false,
    });
    const [b] = await local.embed(["Ein Test."]);
    assert.ok(maxAbsDiff(a ?? [], b ?? []) < 1e-6);
    await local.dispose();
  } finally {
    await hub.close();
    tmp.cleanup();
  }
});

test("bad input gives RagInputError", async () => {
  await assert.rejects(embedder.embed("kein Array" as unknown as string[]), RagInputError);
  await assert.rejects(embedder.embed(["a"], { batchSize: 0 }), RagInputError);
  await assert.rejects(createEmbedder({ model: modelDir, dtype: "fp64" as "fp32" }), RagInputError);
  assert.deepEqual(await embedder.embed([]), []);
});
