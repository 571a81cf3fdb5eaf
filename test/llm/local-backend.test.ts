// Real node-llama-cpp on the generated tiny GGUF (random weights: the text is gibberish, the mechanics are real).
import assert from "node:assert/strict";
import { existsSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { loadConfig, tinyModelPaths } from "../../lib/config.js";
import {
  ContextOverflowError,
  GpuBackendError,
  MODEL_CHOICES,
  LlmInputError,
  LlmOutputError,
  ModelLoadError,
  ModelNotFoundError,
  describeLlm,
  loadLocalLlm,
  tokenCounter,
  type LocalLlm,
} from "../../lib/llm/index.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { buildPlanJsonSchema, TOOL_ID_PATTERN } from "../../lib/plan/plan.js";
import { TRAVEL_TOOLS } from "../agent/fixtures.js";

let llm: LocalLlm;

before(async () => {
  await ensureTinyModels();
  llm = await loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", threads: 1, contextSize: 2048 });
});
after(async () => {
  await llm?.dispose();
});

const system = { role: "system" as const, content: "Du bist ein Reiseplaner. Antworte knapp auf Deutsch." };

test("loads with a CPU report, the Llama 3.1 chat wrapper and a context", () => {
  assert.equal(llm.info.backend, "node-llama-cpp");
  assert.equal(llm.info.gpu, "CPU");
  assert.equal(llm.info.gpuLayersOffloaded, 0);
  assert.ok((llm.info.gpuLayersTotal ?? 0) >= 2);
  assert.equal(llm.info.contextSize, 2048);
  assert.match(llm.info.chatWrapper ?? "", /Llama 3\.1/);
  assert.match(describeLlm(llm.info), /GPU-Schichten: 0 von \d+/);
});

test("the chat template is rendered by node-llama-cpp, not by hand", () => {
  const prompt = llm.renderPrompt([system, { role: "user", content: "Hallo" }]);
  assert.match(prompt, /<\|start_header_id\|>system<\|end_header_id\|>/);
  assert.match(prompt, /Du bist ein Reiseplaner/);
  assert.match(prompt, /<\|start_header_id\|>user<\|end_header_id\|>\s*Hallo<\|eot_id\|>/);
});

test("countPromptTokens counts the templated prompt that a fresh call evaluates", async () => {
  const messages = [system, { role: "user" as const, content: "Wie weit ist es von Köln nach Bonn?" }];
  await llm.resetCache();
  const { meter } = await llm.chat(messages, { maxTokens: 2 });
  // node-llama-cpp's input meter may leave out one token of the prompt (measured: 188 of 189).
  const counted = llm.countPromptTokens(messages);
  assert.ok(
    Math.abs(counted - (meter.promptTokensEvaluated + meter.promptTokensReused)) <= 1,
    `${counted} vs ${JSON.stringify(meter)}`,
  );
  assert.ok(
    llm.countTokens(llm.renderPrompt(messages)) > llm.countPromptTokens(messages),
    "special tokens count as text there",
  );
});

test("chat generates text and meters every call", async () => {
  const chunks: string[] = [];
  const result = await llm.chat([system, { role: "user", content: "Was kann ich in Köln unternehmen?" }], {
    maxTokens: 24,
    seed: 3,
    onTextChunk: (c) => chunks.push(c),
  });
  assert.equal(typeof result.text, "string");
  assert.ok(result.meter.generatedTokens >= 1 && result.meter.generatedTokens <= 25);
  assert.equal(chunks.join("").trim(), result.text.trim());
  assert.ok(result.meter.promptTokensEvaluated > 0);
  assert.equal(llm.lastMeter, result.meter);
});

test("a second turn with the same prefix reuses the KV cache", async () => {
  await llm.resetCache();
  const history = [system, { role: "user" as const, content: "Plane einen Tag in Barcelona mit Strand und Museum." }];
  const first = await llm.chat(history, { maxTokens: 8, seed: 1 });
  assert.equal(first.meter.promptTokensReused, 0);
  const second = await llm.chat(
    [...history, { role: "assistant", content: first.text }, { role: "user", content: "Und am Abend?" }],
    { maxTokens: 8, seed: 1 },
  );
  const total = second.meter.promptTokensEvaluated + second.meter.promptTokensReused;
  assert.ok(second.meter.promptTokensReused / total >= 0.5, `reused ${second.meter.promptTokensReused} of ${total}`);
  assert.ok(second.meter.promptTokensEvaluated < first.meter.promptTokensEvaluated + 20);
});

test("generateJson returns schema-valid values every time", async () => {
  const schemas = [
    {
      type: "object",
      properties: { stadt: { type: "string" }, tage: { type: "integer" } },
      required: ["stadt", "tage"],
    },
    {
      type: "object",
      properties: { ok: { type: "boolean" }, art: { enum: ["wandern", "strand"] } },
      required: ["ok", "art"],
    },
    { type: "array", items: { type: "number" } },
  ];
  for (let i = 0; i < 15; i++) {
    const schema = schemas[i % schemas.length]!;
    const value = await llm.generateJson(schema, [{ role: "user", content: `Gib JSON zurück (${i}).` }], {
      seed: i,
      maxTokens: 200,
    });
    assert.ok(value !== undefined);
    if (i % 3 === 0) {
      const v = value as { stadt: unknown; tage: unknown };
      assert.equal(typeof v.stadt, "string");
      assert.ok(Number.isInteger(v.tage));
    } else if (i % 3 === 1) {
      assert.ok(["wandern", "strand"].includes((value as { art: string }).art));
    } else {
      assert.ok(Array.isArray(value) && value.every((n) => typeof n === "number"));
    }
  }
});

test("plans from the grammar: every tool id matches TOOL_ID_PATTERN, even from a random model (issue 40, item 4)", async () => {
  const schema = buildPlanJsonSchema(TRAVEL_TOOLS, {
    maxSteps: 2,
    maxToolsPerStep: 2,
    maxDescriptionLength: 40,
    maxFinalLength: 40,
  });
  const ids: string[] = [];
  for (let seed = 0; seed < 8; seed++) {
    const plan = await llm.generateJson<{ steps: { tools: { id: string }[] }[] }>(
      schema,
      [{ role: "user", content: "Plan?" }],
      { seed, temperature: 1, maxTokens: 400, jsonAttempts: 1 },
    );
    ids.push(...plan.steps.flatMap((s) => s.tools.map((t) => t.id)));
  }
  assert.ok(ids.length > 0, "the random model wrote some tool calls");
  assert.deepEqual(
    ids.filter((id) => !TOOL_ID_PATTERN.test(id)),
    [],
  );
});

test("anyOf and free-form sub-schemas are supported (the grammar gets oneOf, ajv checks the original)", async () => {
  const schema = {
    type: "object",
    properties: {
      final: { anyOf: [{ type: "string" }, { type: "null" }] },
      extra: {},
    },
    required: ["final", "extra"],
  };
  for (let i = 0; i < 5; i++) {
    const value = await llm.generateJson<{ final: string | null }>(schema, [{ role: "user", content: "Plan?" }], {
      seed: 10 + i,
      maxTokens: 200,
    });
    assert.ok(value.final === null || typeof value.final === "string");
    assert.ok("extra" in value);
  }
});

test("generateJson retries sample anew instead of repeating the greedy output", async () => {
  // The grammar cannot express `pattern`, so the random-weight model never satisfies it: every attempt fails.
  const schema = {
    type: "object",
    properties: { code: { type: "string", pattern: "^QQQ-[0-9]{9}$" } },
    required: ["code"],
  };
  const outputs: string[] = [""];
  await assert.rejects(
    llm.generateJson(schema, [{ role: "user", content: "Code?" }], {
      maxTokens: 40,
      jsonAttempts: 3,
      onTextChunk: (chunk) => (outputs[outputs.length - 1] += chunk),
      onMeter: () => outputs.push(""),
    }),
    LlmOutputError,
  );
  const [first, second, third] = outputs;
  assert.equal(outputs.length, 4, "three attempts were generated");
  // Greedy decoding (the default) would give three identical texts; retries must differ.
  assert.ok(second !== first || third !== first, `all attempts identical: ${first}`);
});

test("the token counter of the in-process backend is its own tokenizer", () => {
  const tokens = tokenCounter(llm);
  const text = 'Grüße aus Köln: {"tage": 3}';
  assert.equal(tokens.exact, true);
  assert.equal(tokens.count(text), llm.countTokens(text));
  assert.equal(tokens.describe(text), `${llm.countTokens(text)} Tokens`);
});

test("a prompt larger than the context is a typed error, not a silent cut", async () => {
  const long = "Barcelona Strand Museum Park ".repeat(800);
  await assert.rejects(llm.chat([{ role: "user", content: long }], { maxTokens: 16 }), (err: unknown) => {
    assert.ok(err instanceof ContextOverflowError);
    assert.equal(err.contextSize, 2048);
    assert.ok(err.promptTokens > 2048 - 16);
    return true;
  });
  // The model still works afterwards.
  const ok = await llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 4 });
  assert.equal(typeof ok.text, "string");
});

test("bad messages and bad schemas are typed input errors", async () => {
  await assert.rejects(llm.chat([]), LlmInputError);
  await assert.rejects(llm.chat([{ role: "user", content: 42 as never }]), LlmInputError);
  await assert.rejects(
    llm.generateJson({ type: "object", properties: { a: { type: "nonsense" } } }, [{ role: "user", content: "x" }]),
    LlmInputError,
  );
});

test("a missing model file names the path and how to get the model", async () => {
  // A file of its own: models:pull cannot fetch it, so the advice is to fix the path.
  const missing = join(tmpdir(), "gibt-es-nicht.gguf");
  await assert.rejects(loadLocalLlm({ modelPath: missing }), (err: unknown) => {
    assert.ok(err instanceof ModelNotFoundError);
    assert.match(err.message, /gibt-es-nicht\.gguf/);
    assert.match(err.message, /Stimmt der Pfad in LLM_MODEL_PATH/);
    assert.doesNotMatch(err.message, /models:pull -- /);
    return true;
  });
  // A known workshop model in MODELS_DIR: the advice names the exact models:pull command.
  const known = join(loadConfig().modelsDir, MODEL_CHOICES[1]!.fileName);
  if (!existsSync(known)) {
    await assert.rejects(loadLocalLlm({ modelPath: known }), (err: unknown) => {
      assert.ok(err instanceof ModelNotFoundError);
      assert.match(err.message, new RegExp(`npm run models:pull -- ${MODEL_CHOICES[1]!.id}`));
      assert.match(err.message, /Offline: die GGUF-Datei/);
      return true;
    });
  }
});

test("a GPU backend that this machine lacks is a typed error with what to set instead", async (t) => {
  const { getLlamaGpuTypes } = await import("node-llama-cpp");
  const usable = await getLlamaGpuTypes("supported");
  // On Linux without a GPU: "cuda" has no usable binary (node-llama-cpp throws), "metal" falls back silently.
  const missing = (["metal", "cuda", "vulkan"] as const).filter((g) => !usable.includes(g));
  if (missing.length === 0) return t.skip("every GPU backend is usable on this machine");
  for (const gpu of missing) {
    await assert.rejects(loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu, threads: 1 }), (err: unknown) => {
      assert.ok(err instanceof GpuBackendError, String(err));
      assert.equal(err.gpu, gpu);
      assert.match(err.message, /LLM_GPU=cpu/);
      return true;
    });
  }
});

test("a corrupt model file is a ModelLoadError", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kit-corrupt-"));
  const path = join(dir, "kaputt.gguf");
  writeFileSync(path, Buffer.concat([Buffer.from("GGUF"), Buffer.alloc(200, 7)]));
  await assert.rejects(loadLocalLlm({ modelPath: path, gpu: "cpu", threads: 1 }), ModelLoadError);
});

test("formats in schemas are validated (a date must be a date)", async () => {
  const { schemaProblems } = await import("../../lib/llm/json-validation.js");
  const schema = { type: "object", properties: { datum: { type: "string", format: "date" } }, required: ["datum"] };
  assert.deepEqual(schemaProblems(schema, { datum: "2026-05-01" }), []);
  assert.equal(schemaProblems(schema, { datum: "morgen" }).length, 1);
});
