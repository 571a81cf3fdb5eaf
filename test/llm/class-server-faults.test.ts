// A slow or misbehaving class server (fault modes of the fake OpenAI-compatible server on 127.0.0.1):
// one deadline for the whole response, bounded body and event size, linear SSE parsing, a cut stream
// as an error, plain JSON instead of a stream recognised. Chat and native tool calling alike.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  ContextOverflowError,
  LlmConnectionError,
  LlmResponseTooLargeError,
  LlmStreamIncompleteError,
  LlmTimeoutError,
} from "../../lib/llm/errors.js";
import { loadConfiguredLlm, type Llm } from "../../lib/llm/index.js";
import { createOpenAiToolCaller } from "../../lib/llm/openai-tool-calling.js";
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply } from "../helpers/fake-openai-server.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const msgs = [{ role: "user" as const, content: "Hallo?" }];
const servers: FakeOpenAiServer[] = [];
after(async () => Promise.all(servers.map((s) => s.close())));

async function serve(...replies: FakeReply[]): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAiServer(replies);
  servers.push(server);
  return server;
}

/** `promise`'s outcome, or a failure when it is still running after `ms` (today's code would hang). */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`lief länger als ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

let gcTimer: NodeJS.Timeout;
before(() => void (gcTimer = setInterval(gc, 100))); // garbage collection runs, as it does in a long CLI run
after(() => clearInterval(gcTimer));

test("a server that drips one token at a time is cut off at the deadline, even with the caller's signal", async () => {
  const server = await serve({ kind: "drip", intervalMs: 100 });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl, timeoutMs: 1500 });
  const cli = new AbortController(); // what the CLI passes: a signal that is never aborted
  const started = performance.now();
  await within(
    6000,
    assert.rejects(llm.chat(msgs, { signal: cli.signal }), (err: unknown) => {
      assert.ok(err instanceof LlmTimeoutError, String(err));
      assert.match(err.message, /nicht innerhalb von 1\.5 s vollständig geantwortet/);
      return true;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  assert.ok(seconds >= 1.4 && seconds < 3, `endete nach ${seconds.toFixed(1)} s`);
});

test("the caller's abort still wins over the deadline", async () => {
  const server = await serve({ kind: "drip", intervalMs: 100 });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl, timeoutMs: 60_000 });
  const stop = new AbortController();
  setTimeout(() => stop.abort(new Error("abgebrochen")), 300);
  await within(3000, assert.rejects(llm.chat(msgs, { signal: stop.signal }), /abgebrochen/));
});

test("an endless single event is refused at the event limit, in linear time", async () => {
  const server = await serve({ kind: "endless_event" });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl, timeoutMs: 60_000 });
  const cpu = process.cpuUsage();
  await within(
    8000,
    assert.rejects(
      llm.chat(msgs),
      (err: unknown) => err instanceof LlmResponseTooLargeError && err.part === "Stream-Ereignis",
    ),
  );
  const used = process.cpuUsage(cpu);
  assert.ok(used.user + used.system < 2_000_000, `CPU ${(used.user + used.system) / 1000} ms`);
});

test("an endless stream of valid events is refused at the body limit with bounded memory", async () => {
  const server = await serve({ kind: "huge_body" });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl, timeoutMs: 60_000 });
  const rss = process.memoryUsage.rss();
  await within(
    15_000,
    assert.rejects(llm.chat(msgs), (err: unknown) => err instanceof LlmResponseTooLargeError && err.part === "Antwort"),
  );
  const grown = (process.memoryUsage.rss() - rss) / 1024 / 1024;
  assert.ok(grown < 250, `RSS +${grown.toFixed(0)} MB`);
});

test("a stream that ends without [DONE] or finish_reason is an error, not a complete answer", async () => {
  const server = await serve({ kind: "cut", text: "Die Antwort ist" });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
  await within(
    3000,
    assert.rejects(llm.chat(msgs), (err: unknown) => {
      assert.ok(err instanceof LlmStreamIncompleteError, String(err));
      assert.equal(err.partialText, "Die Antwort ist");
      assert.match(err.message, /bevor die Antwort vollständig war/);
      return true;
    }),
  );
});

test("a server that ignores stream: true and answers plain JSON is understood", async () => {
  const server = await serve({ kind: "plain_json", text: "Lissabon." });
  const llm: Llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
  const chunks: string[] = [];
  const { text, meter } = await within(3000, llm.chat(msgs, { onTextChunk: (c) => chunks.push(c) }));
  assert.equal(text, "Lissabon.");
  assert.deepEqual(chunks, ["Lissabon."]);
  assert.equal(meter.promptTokensEvaluated, 20);
});

test("native tool calling: the JSON body is under the same deadline and size limit", async () => {
  const dripping = await serve({ kind: "drip", intervalMs: 100 });
  const slow = createOpenAiToolCaller({ baseUrl: dripping.baseUrl, timeoutMs: 1500 });
  const history = { question: "Wie weit?", rounds: [] };
  await within(
    6000,
    assert.rejects(slow.respondWithTools(history, [], { signal: new AbortController().signal }), LlmTimeoutError),
  );
  const huge = await serve({ kind: "huge_body" });
  const big = createOpenAiToolCaller({ baseUrl: huge.baseUrl, timeoutMs: 60_000 });
  await within(
    15_000,
    assert.rejects(
      big.respondWithTools(history, []),
      (err: unknown) => err instanceof LlmResponseTooLargeError && err.part === "Antwort",
    ),
  );
});

// llama-server sends an error after the stream has started as one event `data: {"error": {…}}`, then ends.
test("an error event mid-stream is the server's error, typed (not a cut-off stream)", async () => {
  const server = await serve({
    kind: "error_event",
    text: "Lissa",
    error: { code: 500, message: "context shift is disabled", type: "server_error" },
  });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
  await assert.rejects(within(5000, llm.chat(msgs)), (e) => {
    assert.ok(e instanceof LlmConnectionError, String(e));
    assert.match(e.message, /HTTP 500 context shift is disabled/);
    return true;
  });
  const full = await serve({
    kind: "error_event",
    text: "x",
    error: {
      code: 400,
      message: "request (2100 tokens) exceeds the available context size (2048 tokens)",
      type: "exceed_context_size_error",
      n_prompt_tokens: 2100,
      n_ctx: 2048,
    },
  });
  const llm2 = await loadConfiguredLlm({ backend: "openai", baseUrl: full.baseUrl });
  await assert.rejects(
    within(5000, llm2.chat(msgs)),
    (e) => e instanceof ContextOverflowError && e.promptTokens === 2100 && e.contextSize === 2048,
  );
});

// Seen at 20 agents on a real llama-server: 2–6 of ~170 requests failed with UND_ERR_SOCKET, the server
// closing a connection before answering. Nothing was answered, so the request is sent once more.
test("a connection closed before any answer is retried once; closed twice, it is a typed connection error", async () => {
  const once = await serve({ kind: "hang_up" }, { kind: "text", text: "Hallo zurück" });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: once.baseUrl });
  assert.equal((await within(5000, llm.chat(msgs))).text, "Hallo zurück");
  assert.equal(once.requests.length, 2);
  const always = await serve({ kind: "hang_up" });
  const llm2 = await loadConfiguredLlm({ backend: "openai", baseUrl: always.baseUrl });
  await assert.rejects(within(5000, llm2.chat(msgs)), (e) => {
    assert.ok(e instanceof LlmConnectionError, String(e));
    assert.match(e.message, /UND_ERR_SOCKET|ECONNRESET/);
    return true;
  });
  assert.equal(always.requests.length, 2, "one retry, not more");
});

test("an answer cut off after it started is not sent again (the caller sees the cut)", async () => {
  const server = await serve({ kind: "cut", text: "Lissabon ist" }, { kind: "text", text: "zweite Antwort" });
  const llm = await loadConfiguredLlm({ backend: "openai", baseUrl: server.baseUrl });
  await assert.rejects(within(5000, llm.chat(msgs)), LlmStreamIncompleteError);
  assert.equal(server.requests.length, 1);
});
