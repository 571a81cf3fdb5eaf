// `npm run models:pull`: argument parsing, the MODELS_OFFLINE=1 check, and the embedding-model download
// as a real subprocess against a fake Hugging Face hub on 127.0.0.1 (no internet involved).
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { DEFAULT_LLM_FILE } from "../../lib/config.js";
import { MODEL_CHOICES } from "../../lib/llm/model-files.js";
import { createEmbedder } from "../../lib/rag/index.js";
import { parsePullArgs } from "../../scripts/apps/models/pull.js";
import { UsageError } from "../../scripts/node/parse-args-german.js";
import { runCommand } from "../helpers/run-script.js";
import { startFakeHub, tempDir, tinyBertDir } from "../rag/helpers.js";

const DEFAULT_EMBEDDING_ID = "Xenova/paraphrase-multilingual-MiniLM-L12-v2";
/** A clean model environment: everything in `modelsDir`, default model ids, nothing from the test env. */
const modelEnv = (modelsDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  MODELS_DIR: modelsDir,
  LLM_MODEL_PATH: "",
  EMBEDDING_MODEL: "",
  MODELS_OFFLINE: "",
  HF_ENDPOINT: "http://127.0.0.1:9/",
  ...extra,
});

test("arguments: LLM and embedding model by default; --no-embedding, --embedding-only, --embedding-dtype", () => {
  const all = parsePullArgs([]);
  assert.equal(all.llm?.id, MODEL_CHOICES[0]?.id);
  assert.equal(all.embedding, true);
  assert.equal(all.embeddingDtype, undefined, "default: q8, or fp32 weights already there");
  assert.equal(all.list, false);

  const llmOnly = parsePullArgs(["llama-3.2-3b", "--no-embedding"]);
  assert.equal(llmOnly.llm?.id, "llama-3.2-3b");
  assert.equal(llmOnly.embedding, false);

  const embeddingOnly = parsePullArgs(["--embedding-only", "--embedding-dtype", "fp32"]);
  assert.equal(embeddingOnly.llm, undefined);
  assert.equal(embeddingOnly.embedding, true);
  assert.equal(embeddingOnly.embeddingDtype, "fp32");

  assert.equal(parsePullArgs(["--list"]).list, true);
  for (const bad of [
    ["--no-embedding", "--embedding-only"],
    ["gibt-es-nicht"],
    ["llama-3.2-3b", "llama-3.1-8b"],
    ["--embedding-only", "llama-3.2-3b"],
    ["--embedding-dtype", "fp64"],
    ["--no-embedding", "--embedding-dtype", "fp32"],
    ["--unbekannt"],
  ]) {
    assert.throws(() => parsePullArgs(bad), UsageError, bad.join(" "));
  }
});

test("MODELS_OFFLINE=1: fails at once, saying in German and English which files go where", async () => {
  const tmp = tempDir();
  try {
    const t = performance.now();
    const result = await runCommand("models:pull", [], modelEnv(tmp.dir, { MODELS_OFFLINE: "1" }));
    assert.equal(result.code, 1, result.stderr);
    assert.ok(performance.now() - t < 60_000);
    assert.match(result.stderr, /MODELS_OFFLINE=1 ist gesetzt: models:pull lädt nichts herunter/);
    assert.match(result.stderr, /MODELS_OFFLINE=1 forbids downloads/);
    assert.ok(result.stderr.includes(join(tmp.dir, DEFAULT_LLM_FILE)), result.stderr);
    const embeddingDir = join(tmp.dir, DEFAULT_EMBEDDING_ID);
    assert.ok(result.stderr.includes(join(embeddingDir, "onnx", "model_quantized.onnx")), result.stderr);
    assert.ok(result.stderr.includes(join(embeddingDir, "tokenizer.json")), result.stderr);

    const llmOnly = await runCommand("models:pull", ["--no-embedding"], modelEnv(tmp.dir, { MODELS_OFFLINE: "1" }));
    assert.equal(llmOnly.code, 1);
    assert.ok(llmOnly.stderr.includes(DEFAULT_LLM_FILE));
    assert.doesNotMatch(llmOnly.stderr, /Embedding/);

    // Everything in place (copied from a USB stick): nothing to do, exit 0.
    writeFileSync(join(tmp.dir, DEFAULT_LLM_FILE), "GGUF-Platzhalter");
    mkdirSync(join(tmp.dir, "Xenova"), { recursive: true });
    cpSync(await tinyBertDir(), embeddingDir, { recursive: true });
    const present = await runCommand("models:pull", [], modelEnv(tmp.dir, { MODELS_OFFLINE: "1" }));
    assert.equal(present.code, 0, present.stderr);
    assert.match(present.stdout, /Schon vorhanden \/ already there: .*Meta-Llama/);
    assert.match(
      present.stdout,
      /Schon vorhanden \/ already there: .*paraphrase-multilingual-MiniLM-L12-v2 \(.*dtype q8\)/,
    );
    // --embedding-dtype fp16 needs a file the copy does not have.
    const fp16 = await runCommand(
      "models:pull",
      ["--embedding-only", "--embedding-dtype", "fp16"],
      modelEnv(tmp.dir, { MODELS_OFFLINE: "1" }),
    );
    assert.equal(fp16.code, 1);
    assert.ok(fp16.stderr.includes(join(embeddingDir, "onnx", "model_fp16.onnx")), fp16.stderr);
    // Only fp32 weights copied: the embedder uses them, so nothing is missing (no q8 download).
    rmSync(join(embeddingDir, "onnx", "model_quantized.onnx"));
    const fp32Only = await runCommand("models:pull", ["--embedding-only"], modelEnv(tmp.dir, { MODELS_OFFLINE: "1" }));
    assert.equal(fp32Only.code, 0, fp32Only.stderr);
    assert.match(fp32Only.stdout, /dtype fp32/);
    // A local folder (EMBEDDING_MODEL=path) with files missing: copy advice, not "unset MODELS_OFFLINE".
    rmSync(join(embeddingDir, "tokenizer.json"));
    const local = await runCommand(
      "models:pull",
      ["--embedding-only"],
      modelEnv(tmp.dir, { MODELS_OFFLINE: "1", EMBEDDING_MODEL: embeddingDir }),
    );
    assert.equal(local.code, 1);
    assert.match(local.stderr, /zeigt auf den lokalen Ordner/);
    assert.doesNotMatch(local.stderr, /MODELS_OFFLINE=1 ist gesetzt/);
  } finally {
    tmp.cleanup();
  }
});

test("--embedding-only downloads the embedding model into MODELS_DIR/<id>/ with progress; the embedder then loads it offline", async () => {
  const tmp = tempDir();
  const hub = await startFakeHub("kit-test/tiny-bert", await tinyBertDir());
  try {
    const env = modelEnv(tmp.dir, { EMBEDDING_MODEL: "kit-test/tiny-bert", HF_ENDPOINT: hub.url });
    const first = await runCommand("models:pull", ["--embedding-only"], env);
    assert.equal(first.code, 0, first.stderr);
    const dir = join(tmp.dir, "kit-test", "tiny-bert");
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model_quantized.onnx"])
      assert.ok(existsSync(join(dir, f)), f);
    assert.ok(hub.served.includes("onnx/model_quantized.onnx"), `served: ${hub.served.join(", ")}`);
    assert.ok(!hub.served.includes("onnx/model.onnx"), "only the requested dtype");
    assert.match(first.stderr, /Lade kit-test\/tiny-bert\/onnx\/model_quantized\.onnx: 100 %/);
    assert.doesNotMatch(first.stdout + first.stderr, /Meta-Llama|GGUF/, "no LLM with --embedding-only");

    const served = hub.served.length;
    const second = await runCommand("models:pull", ["--embedding-only"], env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /Schon vorhanden/);
    assert.equal(hub.served.length, served, "nothing downloaded twice");

    const embedder = await createEmbedder({
      model: "kit-test/tiny-bert",
      modelsDir: tmp.dir,
      offline: true,
      progress: false,
    });
    try {
      assert.equal(embedder.modelDir, dir);
      assert.equal(embedder.dtype, "q8");
    } finally {
      await embedder.dispose();
    }
  } finally {
    await hub.close();
    tmp.cleanup();
  }
});
