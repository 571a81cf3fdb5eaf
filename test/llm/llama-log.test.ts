// llama.cpp's error lines go to the loggers of the models that hold the binding (lib/llm/llama.ts), not to
// whoever asked for the binding last (before: gbnfForJsonSchema's no-op logger silenced a loading model's notes).
// A process of its own: after a binding was disposed (llama-binding.test.ts), node-llama-cpp's next binding
// in the process leaves llama.cpp's lines on stderr. Real node-llama-cpp on a cut-off copy of the tiny GGUF.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import { getKitLlama, holdKitLlama } from "../../lib/llm/llama.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";

before(async () => {
  await ensureTinyModels();
});

async function waitFor(condition: () => boolean) {
  for (let i = 0; i < 600 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(condition(), "llama.cpp's error went to the loading model's logger");
}

test("llama.cpp's lines reach a load's logger although another caller took the binding later", async () => {
  const broken = join(mkdtempSync(join(tmpdir(), "kit-llama-")), "kaputt.gguf");
  const whole = readFileSync(tinyModelPaths().gguf);
  writeFileSync(broken, whole.subarray(0, Math.floor(whole.length * 0.9))); // the tensor data is cut off
  const lines: string[] = [];
  const loading = await holdKitLlama("cpu", (line) => lines.push(line));
  const quiet = await holdKitLlama("cpu", () => {}); // e.g. gbnfForJsonSchema's caller, after this load began
  await getKitLlama("cpu");
  await assert.rejects(loading.llama.loadModel({ modelPath: broken }));
  // llama.cpp's lines arrive asynchronously, after the load's rejection.
  await waitFor(() => /not within the file bounds/.test(lines.join("\n")));
  await loading.release();
  await quiet.release();
});
