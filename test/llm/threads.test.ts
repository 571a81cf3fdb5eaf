// llama.cpp's thread count: LLM_THREADS when set, else the math cores llama.cpp counts (never more
// threads than cores: on 2 cores node-llama-cpp's own default of 4 made generation ~27× slower).
import assert from "node:assert/strict";
import { test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import { applyLlamaThreads, loadLocalLlm } from "../../lib/llm/index.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";

test("unset: the math cores (a laptop with 8 performance cores and 16 hardware threads gets 8)", () => {
  const llama = { cpuMathCores: 8, maxThreads: 16 };
  assert.equal(applyLlamaThreads(llama, undefined), 8);
  assert.equal(llama.maxThreads, 8);
});

test("LLM_THREADS wins; a machine that reports no math cores still gets one thread", () => {
  const llama = { cpuMathCores: 8, maxThreads: 16 };
  assert.equal(applyLlamaThreads(llama, 3), 3);
  assert.equal(llama.maxThreads, 3);
  assert.equal(applyLlamaThreads({ cpuMathCores: 0, maxThreads: 4 }, undefined), 1);
});

test("a real model loaded without LLM_THREADS computes with llama.cpp's math cores, not node-llama-cpp's minimum of 4", async (t) => {
  await ensureTinyModels();
  const saved = process.env.LLM_THREADS;
  delete process.env.LLM_THREADS;
  t.after(() => {
    if (saved === undefined) delete process.env.LLM_THREADS;
    else process.env.LLM_THREADS = saved;
  });
  const { getLlama } = await import("node-llama-cpp");
  const probe = await getLlama({ gpu: false, build: "never" });
  const cores = probe.cpuMathCores;
  await probe.dispose();
  const llm = await loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", contextSize: 512 });
  try {
    assert.equal(llm.info.threads, Math.max(1, cores));
  } finally {
    await llm.dispose();
  }
});
