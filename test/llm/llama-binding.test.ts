// The process-wide llama.cpp binding: models share it, the last one frees a GPU binding (its device context).
// Where llama.cpp's lines go: llama-log.test.ts (a process of its own: see there). Real node-llama-cpp on the tiny GGUF (CPU here); a GPU
// binding is simulated by bindingPolicy (fault-injection seam).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, before, test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import { ModelLoadError } from "../../lib/llm/errors.js";
import { openLocalLlm } from "../../lib/llm/local.js";
import { bindingPolicy, getKitLlama, holdKitLlama } from "../../lib/llm/llama.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";

const realPolicy = bindingPolicy.holdsDeviceMemory;
const asGpu = () => (bindingPolicy.holdsDeviceMemory = () => true);

before(async () => {
  await ensureTinyModels();
});
afterEach(() => {
  bindingPolicy.holdsDeviceMemory = realPolicy;
});

const open = () => openLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", threads: 1, contextSize: 512 });

test("two models share one binding; disposing both frees a GPU binding, the next load makes a new one", async () => {
  asGpu();
  const first = await open();
  const second = await open();
  const llama = await getKitLlama("cpu");
  await first.dispose();
  assert.equal(llama.disposed, false, "the second model still uses the binding");
  await second.dispose();
  assert.equal(llama.disposed, true, "the last model's dispose frees the GPU binding");
  const third = await open();
  const next = await getKitLlama("cpu");
  assert.notEqual(next, llama);
  assert.equal(next.disposed, false);
  await third.dispose();
});

test("a CPU binding stays for the next load after its last model is disposed", async () => {
  const model = await open();
  const llama = await getKitLlama("cpu");
  await model.dispose();
  assert.equal(llama.disposed, false);
  assert.equal(await getKitLlama("cpu"), llama);
});

test("a release counts once", async () => {
  asGpu();
  const a = await holdKitLlama("cpu", () => {});
  const b = await holdKitLlama("cpu", () => {});
  await a.release();
  await a.release();
  assert.equal(b.llama.disposed, false);
  await b.release();
  assert.equal(b.llama.disposed, true);
});

test("after a failed load the binding is kept: node-llama-cpp would never finish its dispose", async () => {
  asGpu();
  const broken = join(mkdtempSync(join(tmpdir(), "kit-llama-")), "kaputt.gguf");
  const whole = readFileSync(tinyModelPaths().gguf);
  writeFileSync(broken, whole.subarray(0, Math.floor(whole.length * 0.9))); // the tensor data is cut off
  await assert.rejects(openLocalLlm({ modelPath: broken, gpu: "cpu", threads: 1, contextSize: 512 }), ModelLoadError);
  const model = await open();
  const llama = await getKitLlama("cpu");
  await model.dispose(); // before: waited forever for the binding's dispose
  assert.equal(llama.disposed, false);
});
