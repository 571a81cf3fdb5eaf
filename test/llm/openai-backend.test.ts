import assert from "node:assert/strict";
import { createServer } from "node:net";
import { test } from "node:test";
import {
  LlmConnectionError,
  LlmInputError,
  LlmOutputError,
  loadConfiguredLlm,
  tokenCounter,
} from "../../lib/llm/index.js";
import { startFakeOpenAiServer } from "../helpers/fake-openai-server.js";

const schema = {
  type: "object",
  properties: { stadt: { type: "string" }, tage: { type: "integer" } },
  required: ["stadt", "tage"],
  additionalProperties: false,
};

test("chat streams text, sends sampling options and reports server metering", async () => {
  const server = await startFakeOpenAiServer([
    { kind: "text", text: "Hallo aus Barcelona! Schön.", promptTokens: 50, cachedTokens: 40 },
  ]);
  try {
    const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl, model: "tiny" });
    const chunks: string[] = [];
    const { text, meter } = await llm.chat(
      [
        { role: "system", content: "Du bist hilfreich." },
        { role: "user", content: "Hallo?" },
      ],
      { maxTokens: 32, temperature: 0.2, topK: 40, topP: 0.9, seed: 7, onTextChunk: (c) => chunks.push(c) },
    );
    assert.equal(text, "Hallo aus Barcelona! Schön.");
    assert.equal(chunks.join(""), text);
    assert.equal(meter.promptTokensReused, 40);
    assert.equal(meter.promptTokensEvaluated, 10);
    assert.equal(meter.generatedTokens, chunks.length);
    const sent = server.requests[0]!;
    assert.equal(sent.model, "tiny");
    assert.equal(sent.max_tokens, 32);
    assert.equal(sent.top_k, 40);
    assert.equal(sent.seed, 7);
    assert.deepEqual(sent.messages, [
      { role: "system", content: "Du bist hilfreich." },
      { role: "user", content: "Hallo?" },
    ]);
    assert.equal(llm.lastMeter, meter);
  } finally {
    await server.close();
  }
});

test("generateJson asks for json_schema output and retries until the value matches the schema", async () => {
  const server = await startFakeOpenAiServer([
    { kind: "text", text: '{"stadt": "Rom"' },
    { kind: "text", text: '{"stadt": "Rom", "tage": "drei"}' },
    { kind: "text", text: '{"stadt": "Rom", "tage": 3}' },
  ]);
  try {
    const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
    const value = await llm.generateJson<{ stadt: string; tage: number }>(
      schema,
      [{ role: "user", content: "Reise?" }],
      { seed: 1 },
    );
    assert.deepEqual(value, { stadt: "Rom", tage: 3 });
    assert.equal(server.requests.length, 3);
    const format = server.requests[0]!.response_format as { type: string; json_schema: { schema: unknown } };
    assert.equal(format.type, "json_schema");
    assert.deepEqual(format.json_schema.schema, schema);
    assert.deepEqual(
      server.requests.map((r) => r.seed),
      [1, 2, 3],
    );
    // The first attempt keeps the caller's (greedy) sampling; retries sample, or they would repeat the output.
    assert.equal(server.requests[0]!.temperature, undefined);
    assert.deepEqual(
      server.requests.slice(1).map((r) => r.temperature),
      [0.7, 0.7],
    );
  } finally {
    await server.close();
  }
});

test("generateJson gives a typed error with the output when every attempt is invalid", async () => {
  const server = await startFakeOpenAiServer([{ kind: "text", text: "kein JSON" }]);
  try {
    const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
    await assert.rejects(
      llm.generateJson(schema, [{ role: "user", content: "x" }], { jsonAttempts: 2 }),
      (err: unknown) => {
        assert.ok(err instanceof LlmOutputError);
        assert.equal(err.attempts, 2);
        assert.equal(err.output, "kein JSON");
        return true;
      },
    );
  } finally {
    await server.close();
  }
});

test("server errors, malformed streams and a wrong URL become LlmConnectionError", async () => {
  const server = await startFakeOpenAiServer([
    { kind: "status", status: 500, body: '{"error":"boom"}' },
    { kind: "garbage" },
  ]);
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
  const msgs = [{ role: "user" as const, content: "x" }];
  try {
    await assert.rejects(
      llm.chat(msgs),
      (err: unknown) => err instanceof LlmConnectionError && err.status === 500 && /boom/.test(err.message),
    );
    await assert.rejects(
      llm.chat(msgs),
      (err: unknown) => err instanceof LlmConnectionError && /Stream|JSON|Antwort/i.test(err.reason),
    );
  } finally {
    await server.close();
  }
  // A port nobody listens on: connection refused, quickly and typed.
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  const nowhere = await loadConfiguredLlm({
    backend: "openai",
    baseUrl: `http://127.0.0.1:${port}/v1`,
    timeoutMs: 5000,
  });
  await assert.rejects(
    nowhere.chat(msgs),
    (err: unknown) => err instanceof LlmConnectionError && /ECONNREFUSED/.test(err.message),
  );
});

test("invalid messages are rejected before any request is sent", async () => {
  const server = await startFakeOpenAiServer([{ kind: "text", text: "x" }]);
  try {
    const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
    await assert.rejects(llm.chat([]), LlmInputError);
    await assert.rejects(llm.chat([{ role: "assistant", content: "hi" }]), LlmInputError);
    await assert.rejects(llm.chat([{ role: "wizard" as never, content: "hi" }]), LlmInputError);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

test("token counts for an HTTP backend are marked as estimates", async () => {
  const server = await startFakeOpenAiServer([]);
  try {
    const tokens = tokenCounter(await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl }));
    assert.equal(tokens.exact, false);
    assert.equal(tokens.count("Wie wird das Wetter?"), 5);
    assert.equal(tokens.describe("Wie wird das Wetter?"), "≈ 5 Tokens (geschätzt)");
    assert.match(tokens.source, /Schätzung/);
    assert.equal(server.requests.length, 0, "counting sends nothing to the server");
  } finally {
    await server.close();
  }
});
