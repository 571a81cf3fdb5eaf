// OpenAI-compatible HTTP backend (llama.cpp's llama-server, vLLM, Ollama, …), so a class can share one
// GPU server. Streams the answer (time to first token, onTextChunk) and asks the server for JSON-schema
// constrained output via `response_format`; the result is validated here as well (network input).
import { z } from "zod";
import { tokenCounts, UsageFields } from "./openai-usage.js";
import { LlmConnectionError } from "./errors.js";
import { generateValidJson } from "./json-validation.js";
import { checkMessages } from "./messages.js";
import { CallClock, CallQueue } from "./meter.js";
import { openAiSettings, postJson, type OpenAiLlmOptions } from "./openai-http.js";
import { openAiToolCaller } from "./openai-tool-calling.js";
import type { ChatMessage, ChatResult, GenerationMeter, GenerationOptions, JsonSchema, Llm, ServerLlmInfo } from "./types.js";
import { errorText } from "../util.js";

export type { OpenAiLlmOptions } from "./openai-http.js";

/** Shown in the load report: everyone in the class shares this server. */
export const SHARED_SERVER_NOTE = "Alle im Kurs teilen sich diesen Server; sind alle Plätze (Slots) belegt, wartet eine Anfrage kurz.";

const Chunk = z.object({
  choices: z.array(z.object({ delta: z.object({ content: z.string().nullish() }).partial().nullish() }).partial()).optional(),
  ...UsageFields,
});
type Chunk = z.infer<typeof Chunk>;

function sseEvents(buffer: string): { events: string[]; rest: string } {
  const parts = buffer.split(/\r?\n\r?\n/);
  const rest = parts.pop() ?? "";
  const events = parts
    .map((p) => p.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n"))
    .filter((d) => d.length > 0);
  return { events, rest };
}

export async function loadOpenAiLlm(options: OpenAiLlmOptions = {}): Promise<Llm> {
  const settings = openAiSettings(options);
  const { baseUrl, url, model, apiKey, timeoutMs } = settings;
  const queue = new CallQueue();
  let lastMeter: GenerationMeter | undefined;

  async function complete(messages: ChatMessage[], opts: GenerationOptions, schema?: JsonSchema): Promise<ChatResult> {
    checkMessages(messages);
    const body: Record<string, unknown> = {
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: opts.maxTokens,
      temperature: opts.temperature,
      top_p: opts.topP,
      top_k: opts.topK, // llama-server and vLLM accept these extensions; others ignore them
      min_p: opts.minP,
      repeat_penalty: opts.repeatPenalty,
      seed: opts.seed,
    };
    if (schema) body.response_format = { type: "json_schema", json_schema: { name: "antwort", schema, strict: true } };
    const clock = new CallClock();
    const res = await postJson(url, body, { apiKey, timeoutMs, signal: opts.signal });
    if (!res.ok || !res.body) {
      const detail = (await res.text().catch(() => "")).slice(0, 300);
      throw new LlmConnectionError(url, `HTTP ${res.status} ${detail}`.trim(), res.status);
    }
    let text = "";
    let usage: Chunk["usage"];
    let timings: Chunk["timings"];
    let buffer = "";
    const decoder = new TextDecoder();
    try {
      for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
        const { events, rest } = sseEvents(buffer + decoder.decode(piece, { stream: true }));
        buffer = rest;
        for (const data of events) {
          if (data === "[DONE]") continue;
          let parsed: unknown;
          try {
            parsed = JSON.parse(data);
          } catch {
            throw new LlmConnectionError(url, `ungültige Stream-Daten: ${data.slice(0, 120)}`);
          }
          const chunk = Chunk.safeParse(parsed);
          if (!chunk.success) throw new LlmConnectionError(url, `unerwartete Antwortform: ${data.slice(0, 120)}`);
          const delta = chunk.data.choices?.[0]?.delta?.content;
          if (delta) {
            clock.markFirstToken();
            text += delta;
            opts.onTextChunk?.(delta);
          }
          usage = chunk.data.usage ?? usage;
          timings = chunk.data.timings ?? timings;
        }
      }
    } catch (err) {
      if (err instanceof LlmConnectionError) throw err;
      throw new LlmConnectionError(url, `Stream abgebrochen: ${errorText(err)}`);
    }
    const meter = clock.finish(tokenCounts({ usage, timings }));
    lastMeter = meter;
    opts.onMeter?.(meter);
    return { text, meter };
  }

  const info: ServerLlmInfo = { backend: "openai-compatible", serverUrl: baseUrl, modelName: model, notes: [SHARED_SERVER_NOTE] };
  return {
    info,
    get lastMeter() {
      return lastMeter;
    },
    chat: (messages, opts = {}) => queue.run(() => complete(messages, opts)),
    generateJson: <T>(schema: JsonSchema, messages: ChatMessage[], opts: GenerationOptions = {}) =>
      queue.run(() =>
        generateValidJson<T>(schema, { attempts: opts.jsonAttempts, seed: opts.seed, temperature: opts.temperature }, async (sampling) => {
          return (await complete(messages, { ...opts, ...sampling }, schema)).text;
        }),
      ),
    // The server's `tools` parameter, sent with the settings resolved above (explicit key and timeout included).
    createToolCaller: async () => openAiToolCaller(settings),
    dispose: async () => {},
  };
}
