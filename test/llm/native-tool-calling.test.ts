// Native function calling on both backends: OpenAI-compatible `tools` / `tool_calls` against a local
// fake server, and node-llama-cpp's own function calling (Llama 3.1 format) on the tiny GGUF.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { tinyModelPaths } from "../../lib/config.js";
import { createOpenAiToolCaller, NativeToolsUnsupportedError } from "../../lib/llm/openai-tool-calling.js";
import { createToolCaller, type LocalToolCaller } from "../../lib/llm/native-tools.js";
import {
  ContextOverflowError,
  LlmTimeoutError,
  loadLocalLlm,
  loadOpenAiLlm,
  type LocalLlm,
} from "../../lib/llm/index.js";
import { runNativeToolChat, toNativeFunctions } from "../../lib/patterns/native-tools.js";
import { createTravelFake, TODAY, TRAVEL_TOOLS } from "../agent/fixtures.js";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "../helpers/fake-openai-server.js";

const WEATHER = { lat: 41.3874, lon: 2.1686, start_date: TODAY, end_date: TODAY };

describe("OpenAI-compatible tools parameter", () => {
  let fake: FakeOpenAiServer | undefined;
  after(async () => {
    await fake?.close();
  });

  test("sends tools, parses tool_calls, returns results as tool messages; invalid JSON arguments are rejected", async () => {
    fake = await startFakeOpenAiServer([
      {
        kind: "tool_calls",
        calls: [
          { name: "geocode", arguments: '{"destination":"Barcelona"}' },
          { name: "geocode", arguments: "{kaputt" },
        ],
        promptTokens: 300,
      },
      { kind: "tool_calls", calls: [{ name: "get_weather", arguments: JSON.stringify(WEATHER) }], promptTokens: 380 },
      { kind: "text", text: "Heute 18,5 °C in Barcelona.", promptTokens: 420 },
    ]);
    const llm = createOpenAiToolCaller({ baseUrl: fake.baseUrl, model: "test" });
    const tools = createTravelFake();
    const result = await runNativeToolChat({
      llm,
      tools,
      question: "Wetter in Barcelona?",
      system: "Du bist ein Reiseassistent.",
    });
    assert.equal(result.status, "answered");
    assert.equal(result.answer, "Heute 18,5 °C in Barcelona.");
    assert.equal(result.format, "OpenAI tools");
    assert.deepEqual(
      result.calls.map((c) => [c.name, c.valid]),
      [
        ["geocode", true],
        ["geocode", false],
        ["get_weather", true],
      ],
    );
    assert.deepEqual(
      tools.calls.map((c) => c.name),
      ["geocode", "get_weather"],
    );
    assert.equal(result.promptTokensEvaluated, 300 + 380 + 420);
    const [first, , third] = fake.requests as {
      tools: { function: { name: string; parameters: unknown } }[];
      messages: Record<string, unknown>[];
      stream: boolean;
    }[];
    assert.equal(first!.stream, false);
    assert.deepEqual(
      first!.tools.map((t) => t.function.name),
      TRAVEL_TOOLS.map((t) => t.name),
    );
    assert.deepEqual(first!.tools[0]!.function.parameters, TRAVEL_TOOLS[0]!.inputSchema);
    const roles = third!.messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user", "assistant", "tool", "tool", "assistant", "tool"]);
    const toolMessages = third!.messages.filter((m) => m.role === "tool");
    assert.equal(toolMessages[0]!.tool_call_id, "fake_1_0");
    assert.match(String(toolMessages[1]!.content), /Ungültige Argumente/);
  });

  test("a tool call sends the same sampling fields as a chat, repeat_penalty included", async () => {
    const server = await startFakeOpenAiServer([
      { kind: "text", text: "Hallo." },
      { kind: "text", text: "Hallo." },
    ]);
    try {
      const generation = {
        maxTokens: 32,
        temperature: 0.7,
        topK: 40,
        topP: 0.9,
        minP: 0.05,
        repeatPenalty: 1.3,
        seed: 7,
      };
      const llm = await loadOpenAiLlm({ baseUrl: server.baseUrl, model: "test" });
      await llm.chat([{ role: "user", content: "Hallo" }], generation);
      const caller = await createToolCaller(llm);
      await caller.respondWithTools({ question: "Hallo", rounds: [] }, toNativeFunctions(TRAVEL_TOOLS), generation);
      const sampling = ["max_tokens", "temperature", "top_k", "top_p", "min_p", "repeat_penalty", "seed"];
      const [chat, tools] = server.requests.map((body) => Object.fromEntries(sampling.map((key) => [key, body[key]])));
      assert.deepEqual(chat, {
        max_tokens: 32,
        temperature: 0.7,
        top_k: 40,
        top_p: 0.9,
        min_p: 0.05,
        repeat_penalty: 1.3,
        seed: 7,
      });
      assert.deepEqual(tools, chat);
    } finally {
      await server.close();
    }
  });

  // loadOpenAiLlm's explicit options must reach native tool calling, whatever the environment says.
  test("createToolCaller on a loaded server keeps its explicit apiKey, not the environment's", async () => {
    const server = await startFakeOpenAiServer([
      { kind: "tool_calls", calls: [{ name: "geocode", arguments: '{"destination":"Barcelona"}' }] },
      { kind: "text", text: "Barcelona liegt in Spanien." },
    ]);
    const envKey = process.env.LLM_API_KEY;
    process.env.LLM_API_KEY = "env-key";
    try {
      const caller = await createToolCaller(
        await loadOpenAiLlm({ baseUrl: server.baseUrl, apiKey: "explicit-key", model: "test" }),
      );
      const result = await runNativeToolChat({
        llm: caller,
        tools: createTravelFake(),
        question: "Wo liegt Barcelona?",
      });
      assert.equal(result.status, "answered");
      assert.deepEqual(
        server.headers.map((h) => h.authorization),
        ["Bearer explicit-key", "Bearer explicit-key"],
      );
    } finally {
      if (envKey === undefined) delete process.env.LLM_API_KEY;
      else process.env.LLM_API_KEY = envKey;
      await server.close();
    }
  });

  test("createToolCaller on a loaded server keeps its explicit timeoutMs", async () => {
    const server = await startFakeOpenAiServer([{ kind: "silent" }]);
    let guard: NodeJS.Timeout | undefined;
    try {
      const caller = await createToolCaller(await loadOpenAiLlm({ baseUrl: server.baseUrl, timeoutMs: 200 }));
      const round = caller.respondWithTools({ question: "Hallo", rounds: [] }, toNativeFunctions(TRAVEL_TOOLS));
      const ignored = new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error("timeoutMs ignored: no error after 5 s")), 5000);
      });
      await assert.rejects(Promise.race([round, ignored]), LlmTimeoutError);
    } finally {
      clearTimeout(guard);
      await server.close();
    }
  });

  // The refusal as the servers send it: llama-server without --jinja, Ollama, OpenAI (param names the field), 501.
  const refusals: [string, number, string][] = [
    [
      "llama-server without --jinja",
      500,
      '{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}',
    ],
    [
      "Ollama, model without tools",
      400,
      '{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error","param":null,"code":null}}',
    ],
    [
      "OpenAI-style param field",
      400,
      '{"error":{"message":"Unsupported parameter.","type":"invalid_request_error","param":"tools","code":"unsupported_parameter"}}',
    ],
    ["501 Not Implemented", 501, "nope"],
  ];
  for (const [name, status, body] of refusals) {
    test(`a server that refuses tools gives a typed German error: ${name}`, async () => {
      const server = await startFakeOpenAiServer([{ kind: "status", status, body }]);
      try {
        const llm = createOpenAiToolCaller({ baseUrl: server.baseUrl });
        await assert.rejects(runNativeToolChat({ llm, tools: createTravelFake(), question: "Hallo" }), (err: Error) => {
          assert.ok(err instanceof NativeToolsUnsupportedError, String(err));
          assert.match(err.message, /unterstützt keine Werkzeugaufrufe/);
          return true;
        });
      } finally {
        await server.close();
      }
    });
  }

  test("other errors of a tools request are not a refusal, even when they mention tools", async () => {
    const body =
      '{"error":{"code":400,"message":"the request exceeds the available context size (tools: 3)","type":"exceed_context_size_error"}}';
    const server = await startFakeOpenAiServer([{ kind: "status", status: 400, body }]);
    try {
      const llm = createOpenAiToolCaller({ baseUrl: server.baseUrl });
      await assert.rejects(runNativeToolChat({ llm, tools: createTravelFake(), question: "Hallo" }), (err: Error) => {
        assert.ok(err instanceof ContextOverflowError && !(err instanceof NativeToolsUnsupportedError), String(err));
        return true;
      });
    } finally {
      await server.close();
    }
  });
});

describe("node-llama-cpp function calling on the tiny GGUF", () => {
  let llm: LocalLlm;
  let caller: LocalToolCaller;
  before(async () => {
    llm = await loadLocalLlm({ modelPath: tinyModelPaths().gguf, gpu: "cpu", threads: 1, contextSize: 16384 });
    caller = await llm.createToolCaller();
  });
  after(async () => {
    caller?.dispose();
    await llm?.dispose();
  });

  test("createToolCaller picks the backend's native format; plain chat still works on the shared sequence", async () => {
    const picked = await createToolCaller(llm);
    assert.equal(picked.toolCallFormat, "Llama 3.1");
    const fake = await startFakeOpenAiServer([{ kind: "text", text: "x" }]);
    try {
      const remote = await createToolCaller(await loadOpenAiLlm({ baseUrl: fake.baseUrl }));
      assert.equal(remote.toolCallFormat, "OpenAI tools");
    } finally {
      await fake.close();
    }
    await runNativeToolChat({
      llm: picked,
      tools: createTravelFake(),
      question: "Hallo?",
      generation: { maxTokens: 16, seed: 1 },
    });
    const reply = await llm.chat([{ role: "user", content: "Hallo" }], { maxTokens: 16, seed: 1 });
    assert.ok(reply.text.length > 0);
  });

  test("the Llama 3.1 prompt documents the functions and renders earlier calls with results", () => {
    const functions = toNativeFunctions(TRAVEL_TOOLS);
    const prompt = caller.renderPrompt(
      {
        question: "Wetter?",
        rounds: [
          { text: "", calls: [{ id: "c1", name: "geocode", params: { destination: "Rom" }, result: { lat: 41.9 } }] },
        ],
      },
      functions,
    );
    assert.equal(caller.toolCallFormat, "Llama 3.1");
    for (const f of functions) assert.ok(prompt.includes(f.name), `${f.name} documented`);
    assert.match(prompt, /<function=geocode>\{"destination":\s*"Rom"\}/);
    assert.match(prompt, /ipython[\s\S]*41\.9/);
  });

  // The tiny model's sentences never repeat a token, so a penalty ≥ 1 finds nothing to act on; a factor
  // below 1 rewards repeats instead, which makes the sampler's use of the option visible at temperature 0.
  test("the tool-calling path honours repeatPenalty exactly like plain chat", async () => {
    const question = "Wie ist heute das Wetter in Barcelona?";
    const functions = toNativeFunctions(TRAVEL_TOOLS);
    const answer = async (repeatPenalty?: number) => {
      const generation = { maxTokens: 8, temperature: 0, seed: 1, repeatPenalty };
      const viaTools = await caller.respondWithTools({ question, rounds: [] }, functions, generation);
      const viaChat = await llm.chat([{ role: "user", content: question }], generation);
      return { tools: viaTools.text, chat: viaChat.text };
    };
    const plain = await answer();
    assert.match(plain.tools, /^(Das|Hier) \S+ \S+\.$/, "without a penalty: one short sentence");
    const rewarded = await answer(0.01);
    assert.equal(rewarded.chat, "Das".repeat(8), "plain chat passes the penalty on");
    assert.equal(rewarded.tools, rewarded.chat, "the tool-calling path passes it on too");
    assert.equal((await answer(1)).tools, plain.tools, "1 = off");
  });

  test("terminates within maxRounds; every call the model makes is validated before any tool runs", async () => {
    const tools = createTravelFake();
    for (const seed of [1, 2, 3]) {
      const result = await runNativeToolChat({
        llm: caller,
        tools,
        question: "Wie ist heute das Wetter in Barcelona?",
        maxCalls: 2,
        generation: { maxTokens: 64, temperature: 0.8, seed },
      });
      assert.ok(["answered", "max_rounds"].includes(result.status));
      assert.ok(result.rounds >= 1 && result.rounds <= 4);
      assert.ok(result.answer.length > 0);
      assert.equal(result.meters.length, result.rounds);
      // the first run evaluates the whole prompt; later runs find the same prefix in the KV cache
      if (seed === 1) assert.ok(result.promptTokensEvaluated > 500, `${result.promptTokensEvaluated}`);
      else assert.ok(result.meters[0]!.promptTokensReused > 500, `${result.meters[0]!.promptTokensReused}`);
      assert.ok(result.calls.filter((c) => c.executed).every((c) => c.valid));
    }
    assert.ok(tools.calls.length <= 6);
  });
});
