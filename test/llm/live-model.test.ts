// "Run All" safety on the real tiny GGUF: loading twice in one process leaves one live model.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { tinyModelPaths } from "../../lib/config.js";
import { loadConfiguredLlm, loadLocalLlm } from "../../lib/llm/index.js";
import { liveInstanceCount } from "../../lib/notebook/live-instances.js";

const base = { modelPath: tinyModelPaths().gguf, gpu: "cpu" as const, threads: 1, contextSize: 512 };
const hello = [{ role: "user" as const, content: "Hallo" }];

describe("one live local model per process", () => {
  after(async () => {
    const llm = await loadLocalLlm(base);
    await llm.dispose();
  });

  test("the same settings twice give the same live model", async () => {
    const first = await loadLocalLlm(base);
    const second = await loadConfiguredLlm(base);
    assert.equal(second, first);
    assert.equal(liveInstanceCount(), 1);
    const reply = await second.chat(hello, { maxTokens: 4 });
    assert.equal(typeof reply.text, "string");
  });

  test("other settings unload the old model first; it cannot be used any more", async () => {
    const old = await loadLocalLlm(base);
    const replacement = await loadLocalLlm({ ...base, contextSize: 256 });
    assert.notEqual(replacement, old);
    assert.equal(liveInstanceCount(), 1);
    await assert.rejects(old.chat(hello, { maxTokens: 4 }));
    assert.equal(typeof (await replacement.chat(hello, { maxTokens: 4 })).text, "string");
  });

  test("after dispose the next load is fresh; concurrent loads share one", async () => {
    const llm = await loadLocalLlm(base);
    await llm.dispose();
    await llm.dispose(); // twice is harmless
    assert.equal(liveInstanceCount(), 0);
    const [a, b] = await Promise.all([loadLocalLlm(base), loadLocalLlm(base)]);
    assert.equal(a, b);
    assert.notEqual(a, llm);
    assert.equal(liveInstanceCount(), 1);
  });
});
