// The one config module: which files lib uses, from environment variables users and scripts rely on.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { ConfigError, DEFAULT_LLM_FILE, findProjectRoot, loadConfig } from "../../lib/config.js";

const root = findProjectRoot();

test("defaults: models/ in the project, the Llama 3.1 file, local backend, automatic GPU", () => {
  const config = loadConfig({});
  assert.equal(config.modelsDir, join(root, "models"));
  assert.equal(config.llmModelPath, join(root, "models", DEFAULT_LLM_FILE));
  assert.equal(config.llmModelPathFromEnv, false);
  assert.equal(config.llmBackend, "local");
  assert.equal(config.llmGpu, "auto");
  assert.equal(config.llmGpuLayers, "auto");
  assert.equal(config.llmContextSize, 8192);
  assert.equal(config.travelOffline, false);
  assert.equal(config.modelsOffline, false);
  assert.equal(config.inKlassenraumHub, false);
});

test("a kernel started by the Klassenraum-Hub (KURS_HUB_ID set) knows it runs in the hub", () => {
  assert.equal(loadConfig({ KURS_HUB_ID: "a1b2c3", LLM_BACKEND: "openai" }).inKlassenraumHub, true);
  assert.equal(loadConfig({ KURS_HUB_ID: " " }).inKlassenraumHub, false);
});

test("environment variables override; relative paths count from the project folder", () => {
  const config = loadConfig({
    MODELS_DIR: "elsewhere",
    LLM_MODEL_PATH: "m/x.gguf",
    EMBEDDING_MODEL: "/opt/emb",
    TRAVEL_OFFLINE: "1",
    MODELS_OFFLINE: "true",
    LLM_GPU: "cpu",
    LLM_GPU_LAYERS: "12",
    LLM_THREADS: "3",
    LLM_CONTEXT_SIZE: "4096",
    LLM_BACKEND: "openai",
    LLM_BASE_URL: "http://127.0.0.1:8080/v1",
  });
  assert.equal(config.modelsDir, join(root, "elsewhere"));
  assert.equal(config.llmModelPath, join(root, "m", "x.gguf"));
  assert.equal(config.llmModelPathFromEnv, true);
  assert.equal(config.embeddingModel, "/opt/emb");
  assert.equal(config.travelOffline, true);
  assert.equal(config.modelsOffline, true);
  assert.equal(config.llmGpu, "cpu");
  assert.equal(config.llmGpuLayers, 12);
  assert.equal(config.llmThreads, 3);
  assert.equal(config.llmContextSize, 4096);
  assert.equal(config.llmBackend, "openai");
  assert.equal(config.llmBaseUrl, "http://127.0.0.1:8080/v1");
  assert.equal(loadConfig({ MODELS_DIR: "/abs/models" }).llmModelPath, join("/abs/models", DEFAULT_LLM_FILE));
  assert.equal(loadConfig({ TRAVEL_OFFLINE: "0" }).travelOffline, false);
  assert.equal(loadConfig({ LLM_GPU_LAYERS: "max" }).llmGpuLayers, "max");
});

test("invalid values are a ConfigError naming the variable, in German only", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ LLM_THREADS: "zwei" }, /^LLM_THREADS muss eine positive ganze Zahl sein, nicht "zwei"\.$/],
    [{ LLM_CONTEXT_SIZE: "0" }, /LLM_CONTEXT_SIZE muss/],
    [{ LLM_GPU: "tpu" }, /LLM_GPU muss einer dieser Werte sein: auto, cuda, vulkan, metal, cpu/],
    [{ LLM_BACKEND: "ollama" }, /LLM_BACKEND muss einer dieser Werte sein: local, openai/],
    [{ LLM_GPU_LAYERS: "-1" }, /LLM_GPU_LAYERS muss auto, max oder eine Zahl/],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && message.test(err.message),
      JSON.stringify(env),
    );
  }
});
