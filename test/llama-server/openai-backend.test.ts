// The kit's OpenAI backend (LLM_BACKEND=openai) against llama.cpp's own llama-server, built from the very
// llama.cpp node-llama-cpp runs (scripts/dev/llama-build.ts), on the tiny test GGUF with its Llama 3.1 chat
// template (--jinja, as the class command line in the instructor guide). Teil 1's chat, streaming, a
// `$ref` plan round with response_format json_schema, native tools, the half-agent, an abort mid-stream and
// the server's own errors. Skipped with the reason in the result line where llama-server cannot be built.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { tinyModelPaths } from "../../lib/config.js";
import { runAgent } from "../../lib/agent/loop.js";
import type { AgentEvent } from "../../lib/agent/trace.js";
import {
  buildHalfAgentJsonSchema,
  buildHalfAgentMessages,
  buildHalfAgentSystemPrompt,
  halfAgentReplyFromJson,
} from "../../lib/half-agent/index.js";
import {
  ContextOverflowError,
  JsonNotSupportedError,
  LlmTimeoutError,
  loadConfiguredLlm,
  type ChatMessage,
  type Llm,
} from "../../lib/llm/index.js";
import { NativeToolsUnsupportedError } from "../../lib/llm/openai-tool-calling.js";
import { httpFailure } from "../../lib/llm/openai-http.js";
import { GRAMMAR_NOTE } from "../../lib/llm/openai.js";
import { createToolCaller } from "../../lib/llm/native-tools.js";
import { runNativeToolChat } from "../../lib/patterns/native-tools.js";
import { createTravelFake, tinyModelWeatherRun } from "../agent/fixtures.js";
import { llamaServerSkip, startLlamaServer, type LlamaServer } from "../helpers/llama-server.js";

const skip = llamaServerSkip();
/** Two slots of 2048 tokens (the tiny model's training context) each. */
const SLOT_CTX = 2048;

describe("the kit against the real llama-server", { skip }, () => {
  let server: LlamaServer;
  let llm: Llm;
  const saved = { ...process.env };
  before(async () => {
    server = await startLlamaServer({ model: tinyModelPaths().gguf, parallel: 2, ctx: 2 * SLOT_CTX, jinja: true });
    Object.assign(process.env, { LLM_BACKEND: "openai", LLM_BASE_URL: server.baseUrl, LLM_MODEL: "tiny-llama" });
    llm = await loadConfiguredLlm(); // as Teil 1's set-up cell does: the backend from the environment
  });
  after(async () => {
    process.env = saved;
    await llm?.dispose();
    await server?.close();
  });

  test("Teil 1: a streamed chat, its meter from the server's usage, a conversation with history", async () => {
    const chunks: string[] = [];
    const frage: ChatMessage[] = [
      { role: "user", content: "Was ist die Hauptstadt von Portugal? Antworte in einem Satz." },
    ];
    const erste = await llm.chat(frage, { maxTokens: 60, seed: 1, onTextChunk: (c) => chunks.push(c) });
    assert.equal(chunks.join(""), erste.text, "the streamed pieces are the answer");
    assert.ok(
      erste.meter.promptTokensEvaluated > 10,
      `prompt tokens from usage/timings: ${JSON.stringify(erste.meter)}`,
    );
    assert.ok(erste.meter.generatedTokens >= 1);
    assert.ok(erste.meter.generatedTokens <= 60);
    const verlauf: ChatMessage[] = [
      ...frage,
      { role: "assistant", content: erste.text },
      { role: "user", content: "Und von Spanien?" },
    ];
    const zweite = await llm.chat(verlauf, { maxTokens: 40, seed: 1 });
    assert.ok(zweite.meter.promptTokensReused > 0, "the server reuses the shared prefix from its KV cache");
    // same seed, temperature 0 → same text (one slot's sampling is deterministic)
    const a = await llm.chat(frage, { maxTokens: 30, temperature: 0 });
    const b = await llm.chat(frage, { maxTokens: 30, temperature: 0 });
    assert.equal(a.text, b.text);
  });

  // Found here: llama.cpp's schema-to-grammar converter takes every key named "$ref" for a JSON reference,
  // also a *property* named "$ref" — exactly the kit's `$ref` plan arguments — and refuses the plan schema.
  // The backend then sends the same schema as GBNF (node-llama-cpp's converter) in the server's `grammar`
  // field: plans stay grammar-constrained, no fallback to text plans.
  test("a `$ref` plan round: the refused plan schema goes as GBNF, the plans stay constrained", async () => {
    const run = await tinyModelWeatherRun();
    const events: AgentEvent[] = [];
    const result = await runAgent({
      ...run,
      llm,
      maxIterations: 2,
      generation: { maxTokens: 200, temperature: 0.8, seed: 3 },
      onEvent: (e) => events.push(e),
    });
    const types = events.map((e) => e.type);
    assert.ok(!types.includes("output_fallback"), JSON.stringify(types));
    assert.ok(types.includes("plan"), `a plan that parsed under the grammar: ${JSON.stringify(types)}`);
    assert.ok(llm.info.notes.includes(GRAMMAR_NOTE), JSON.stringify(llm.info.notes));
    assert.notEqual(result.status, "error", `${result.status}: ${result.error ?? ""}`);
  });

  test("the final round's plan schema (no $ref arguments) is honoured: response_format json_schema", async () => {
    const schema = {
      type: "object",
      properties: {
        steps: { type: "array", maxItems: 0, items: { type: "object" } },
        final: { type: "string", minLength: 1 },
      },
      required: ["steps", "final"],
      additionalProperties: false,
    };
    for (const seed of [1, 2, 3]) {
      const value = await llm.generateJson<{ steps: unknown[]; final: string }>(
        schema,
        [{ role: "user", content: "Wetter in Rom?" }],
        { maxTokens: 120, seed },
      );
      assert.deepEqual(value.steps, []);
      assert.ok(value.final.length >= 1);
    }
  });

  // What the server does with `tools` for this template: the tiny GGUF's Llama-3.1-style template has no
  // tools section, so --jinja renders the chat without them, the server builds no tool-call grammar (even
  // tool_choice "required" is not enforced) and answers plain text: one round, no calls. A template with
  // tools (the real Llama 3.1's) gets the Llama 3.x tool parser instead.
  test("native tools: accepted; with this template the server answers text without tool calls", async () => {
    const caller = await createToolCaller(llm);
    assert.equal(caller.toolCallFormat, "OpenAI tools");
    const result = await runNativeToolChat({
      llm: caller,
      tools: createTravelFake(),
      question: "Wo liegt Barcelona?",
      maxRounds: 2,
      generation: { maxTokens: 80, seed: 1 },
    });
    assert.equal(result.status, "answered");
    assert.deepEqual(result.calls, []);
    assert.ok(result.answer.length > 0);
  });

  test("the half-agent: one JSON reply under the half-agent schema, read back as answer or tool call", async () => {
    // geocode only, with a one-line catalog: the full prompt (≈ 4,000 of the tiny model's byte-level tokens) exceeds a slot
    const tools = (await createTravelFake().listTools()).filter((t) => t.name === "geocode");
    const systemPrompt = buildHalfAgentSystemPrompt(tools, {
      catalog: "- geocode(destination): Koordinaten zu einem Ortsnamen.",
    });
    const messages = buildHalfAgentMessages({ systemPrompt, question: "Wo genau liegt Barcelona?" });
    for (const seed of [1, 2, 3]) {
      const value = await llm.generateJson(buildHalfAgentJsonSchema(tools), messages, { maxTokens: 200, seed });
      const reply = halfAgentReplyFromJson(value, tools);
      assert.notEqual(reply.kind, "invalid", JSON.stringify(reply));
    }
  });

  test("an abort mid-stream rejects at once with the caller's reason, and the slot is free again", async () => {
    const controller = new AbortController();
    const long = {
      type: "object",
      properties: { text: { type: "string", minLength: 1500 } },
      required: ["text"],
      additionalProperties: false,
    };
    const reason = new Error("abgebrochen");
    let chunks = 0;
    const t = performance.now();
    await assert.rejects(
      llm.generateJson(long, [{ role: "user", content: "Schreibe lange." }], {
        maxTokens: 1900,
        signal: controller.signal,
        onTextChunk: () => void (++chunks === 5 && controller.abort(reason)),
      }),
      (e) => e === reason,
    );
    assert.equal(chunks >= 5, true);
    assert.ok(performance.now() - t < 10_000);
    const after = await llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 8 });
    assert.ok(after.meter.generatedTokens >= 1);
    assert.match(server.log(), /cancel/i, "the server saw the client go and cancelled the task");
  });

  test("context full: the server's exceed_context_size_error becomes ContextOverflowError with its numbers", async () => {
    const lang = "Reiseplanung für Barcelona, Lissabon und Rom. ".repeat(250);
    await assert.rejects(llm.chat([{ role: "user", content: lang }], { maxTokens: 10 }), (e) => {
      assert.ok(e instanceof ContextOverflowError, String(e));
      assert.equal(e.contextSize, SLOT_CTX);
      assert.ok(e.promptTokens > SLOT_CTX);
      assert.match(e.message, /zu lang für den Klassen-Server/);
      return true;
    });
  });

  test("a `$ref` property the server's converter refuses: answered through the `grammar` field", async () => {
    const refArgument = {
      type: "object",
      properties: { $ref: { type: "string", minLength: 1, maxLength: 12 } },
      required: ["$ref"],
      additionalProperties: false,
    };
    for (const seed of [1, 2]) {
      const value = await llm.generateJson<{ $ref: string }>(refArgument, [{ role: "user", content: "x" }], {
        maxTokens: 40,
        seed,
      });
      assert.deepEqual(Object.keys(value), ["$ref"]);
      assert.ok(value.$ref.length >= 1 && value.$ref.length <= 12);
    }
  });

  test("a grammar the server cannot parse either: JsonNotSupportedError (the plan call falls back to chat)", async () => {
    const body = { model: "x", messages: [{ role: "user", content: "x" }], max_tokens: 5, grammar: "root ::= (" };
    const res = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const error = httpFailure(`${server.baseUrl}/chat/completions`, res.status, await res.text(), true);
    assert.ok(error instanceof JsonNotSupportedError, `HTTP ${res.status}: ${String(error)}`);
  });

  test("all slots busy: the request waits in the server's queue; past the time limit it is LlmTimeoutError", async () => {
    // two other participants hold both slots: long streamed answers that ignore the end-of-turn token
    let finished = 0;
    const hold = async (started: () => void) => {
      const res = await fetch(`${server.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          messages: [{ role: "user", content: "x" }],
          max_tokens: 1900,
          ignore_eos: true,
          stream: true,
        }),
      });
      let first = true;
      for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
        void piece;
        if (first) started();
        first = false;
      }
      finished++;
    };
    let blockers: Promise<void>[] = [];
    await new Promise<void>((resolve) => {
      let n = 0;
      const started = () => void (++n === 2 && resolve());
      blockers = [hold(started), hold(started)];
    });
    const busy = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl, timeoutMs: 300 });
    await assert.rejects(busy.chat([{ role: "user", content: "Hallo" }], { maxTokens: 5 }), (e) => {
      assert.ok(e instanceof LlmTimeoutError, String(e));
      assert.match(e.message, /alle Plätze belegt/);
      return true;
    });
    assert.equal(finished, 0, "both slots were still busy when the time limit struck");
    const patient = await llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 5 }); // waits its turn
    await new Promise((r) => setTimeout(r, 50)); // the freed slot's last event may still be in flight
    assert.ok(finished >= 1, "answered only after a slot became free");
    assert.ok(patient.meter.generatedTokens >= 1);
    await Promise.all(blockers);
  });
});

// --jinja is the default in this release; --no-jinja is what an older or differently started server does
describe("llama-server with --no-jinja", { skip }, () => {
  test("refuses `tools`: NativeToolsUnsupportedError that says to start it with --jinja", async () => {
    const server = await startLlamaServer({ model: tinyModelPaths().gguf, ctx: SLOT_CTX, extra: ["--no-jinja"] });
    try {
      const caller = await createToolCaller(await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl }));
      const tools = await createTravelFake().listTools();
      const fn = { name: tools[0]!.name, description: tools[0]!.description ?? "", parameters: tools[0]!.inputSchema };
      await assert.rejects(caller.respondWithTools({ question: "Wo liegt Rom?", rounds: [] }, [fn]), (e) => {
        assert.ok(e instanceof NativeToolsUnsupportedError, String(e));
        assert.match(e.message, /--jinja/);
        return true;
      });
    } finally {
      await server.close();
    }
  });
});
