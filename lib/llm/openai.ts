// OpenAI-compatible HTTP backend (llama.cpp's llama-server, vLLM, Ollama, …), so a class can share one
// GPU server. Streams the answer (time to first token, onTextChunk) and asks the server for JSON-schema
// constrained output via `response_format`; the result is validated here as well (network input).
// Bounded and under one deadline (openai-http.ts); a stream without its end marker is an error.
import { z } from "zod";
import { tokenCounts, UsageFields } from "./openai-usage.js";
import { createParser } from "eventsource-parser";
import {
  JsonNotSupportedError,
  LlmConnectionError,
  LlmResponseTooLargeError,
  LlmStreamIncompleteError,
} from "./errors.js";
import { gbnfForJsonSchema } from "./gbnf.js";
import { generateValidJson } from "./json-validation.js";
import { checkMessages } from "./messages.js";
import { CallClock, CallQueue } from "./meter.js";
import {
  httpFailure,
  isJsonResponse,
  MAX_EVENT_CHARS,
  openAiSettings,
  postJson,
  readText,
  samplingFields,
  serverError,
  type OpenAiLlmOptions,
} from "./openai-http.js";
import { openAiToolCaller } from "./openai-tool-calling.js";
import type {
  ChatMessage,
  ChatResult,
  GenerationMeter,
  GenerationOptions,
  JsonSchema,
  Llm,
  ServerLlmInfo,
} from "./types.js";

export type { OpenAiLlmOptions } from "./openai-http.js";

/** Shown in the load report: everyone in the class shares this server. */
export const SHARED_SERVER_NOTE =
  "Alle im Kurs teilen sich diesen Server; sind alle Plätze (Slots) belegt, wartet eine Anfrage kurz.";
/** Said once when the server refused a JSON schema and took it as a grammar (llama-server and `$ref` plans). */
export const GRAMMAR_NOTE =
  "Der Server lehnt das JSON-Schema der Pläne ab; sie gehen als Grammatik (GBNF) an ihn – gleich streng.";

const Chunk = z.object({
  choices: z
    .array(
      z
        .object({
          delta: z.object({ content: z.string().nullish() }).partial().nullish(),
          finish_reason: z.string().nullish(),
        })
        .partial(),
    )
    .optional(),
  ...UsageFields,
});
type Chunk = z.infer<typeof Chunk>;

/** One JSON completion: what a server that ignores `stream: true` sends instead. */
const Completion = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullish() }) })).min(1),
  ...UsageFields,
});

/** What the answer is made of, filled while it arrives. */
interface Answer {
  text: string;
  usage: Chunk["usage"];
  timings: Chunk["timings"];
  /** `data: [DONE]` or a finish_reason arrived: the answer is complete. */
  complete: boolean;
}

/**
 * Feeds the body through a linear SSE parser (each byte looked at once; one event at most
 * MAX_EVENT_CHARS) and hands every event's data to `onData`, which returns true at `data: [DONE]`.
 */
async function readEvents(
  url: string,
  body: AsyncIterable<Uint8Array>,
  onData: (data: string) => boolean,
): Promise<void> {
  let done = false;
  let tooLarge = false;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_CHARS,
    onEvent: (event) => void (done ||= onData(event.data)),
    onError: (error) => void (tooLarge ||= error.type === "max-buffer-size-exceeded"),
  });
  const decoder = new TextDecoder();
  for await (const piece of body) {
    parser.feed(decoder.decode(piece, { stream: true }));
    if (tooLarge) throw new LlmResponseTooLargeError(url, "Stream-Ereignis", MAX_EVENT_CHARS);
    if (done) return;
  }
}

/** One streamed event's JSON; "done" at the end marker; an error event (llama-server mid-stream) is thrown typed. */
function parseChunk(url: string, data: string, sentSchema: boolean): Chunk | "done" {
  if (data === "[DONE]") return "done";
  const failed = serverError(data);
  if (failed) throw httpFailure(url, typeof failed.code === "number" ? failed.code : 500, data, sentSchema);
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new LlmConnectionError(url, `ungültige Stream-Daten: ${data.slice(0, 120)}`);
  }
  const chunk = Chunk.safeParse(parsed);
  if (!chunk.success) throw new LlmConnectionError(url, `unerwartete Antwortform: ${data.slice(0, 120)}`);
  return chunk.data;
}

/** A plain JSON completion (the server ignored `stream: true`). */
function parseCompletion(url: string, raw: string): Answer {
  let parsed: z.infer<typeof Completion>;
  try {
    parsed = Completion.parse(JSON.parse(raw));
  } catch {
    throw new LlmConnectionError(url, `unerwartete Antwortform (weder Stream noch Chat-Antwort): ${raw.slice(0, 120)}`);
  }
  return {
    text: parsed.choices[0]!.message.content ?? "",
    usage: parsed.usage,
    timings: parsed.timings,
    complete: true,
  };
}

/**
 * A model behind an OpenAI-compatible server (llama-server, vLLM, the class server): streamed chat, JSON
 * output (schema or GBNF grammar) and native tool calling. Checks no connection until the first call.
 */
export async function loadOpenAiLlm(options: OpenAiLlmOptions = {}): Promise<Llm> {
  const settings = openAiSettings(options);
  const { baseUrl, url, model, apiKey, timeoutMs } = settings;
  const queue = new CallQueue();
  let lastMeter: GenerationMeter | undefined;

  /** Constrained output: a JSON schema as `response_format`, or GBNF in llama-server's `grammar` field. */
  type Constraint = { schema: JsonSchema } | { grammar: string };

  async function complete(
    messages: ChatMessage[],
    opts: GenerationOptions,
    constraint?: Constraint,
  ): Promise<ChatResult> {
    checkMessages(messages);
    const body: Record<string, unknown> = {
      model,
      messages,
      stream: true,
      stream_options: { include_usage: true },
      ...samplingFields(opts),
    };
    if (constraint && "schema" in constraint) {
      body.response_format = {
        type: "json_schema",
        json_schema: { name: "antwort", schema: constraint.schema, strict: true },
      };
    } else if (constraint) {
      body.grammar = constraint.grammar;
    }
    const constrained = constraint !== undefined;
    const clock = new CallClock();
    const answer = await postJson(url, body, { apiKey, timeoutMs, signal: opts.signal }, async (res, resBody) => {
      if (!res.ok) throw httpFailure(url, res.status, await readText(resBody).catch(() => ""), constrained);
      if (isJsonResponse(res)) {
        const whole = parseCompletion(url, await readText(resBody));
        clock.markFirstToken();
        if (whole.text) opts.onTextChunk?.(whole.text);
        return whole;
      }
      const streamed: Answer = { text: "", usage: undefined, timings: undefined, complete: false };
      await readEvents(url, resBody, (data) => {
        const chunk = parseChunk(url, data, constrained);
        if (chunk === "done") return (streamed.complete = true);
        const choice = chunk.choices?.[0];
        if (choice?.delta?.content) {
          clock.markFirstToken();
          streamed.text += choice.delta.content;
          opts.onTextChunk?.(choice.delta.content);
        }
        if (choice?.finish_reason) streamed.complete = true;
        streamed.usage = chunk.usage ?? streamed.usage;
        streamed.timings = chunk.timings ?? streamed.timings;
        return false;
      });
      if (!streamed.complete) throw new LlmStreamIncompleteError(url, streamed.text);
      return streamed;
    });
    const { text, usage, timings } = answer;
    const meter = clock.finish(tokenCounts({ usage, timings }));
    lastMeter = meter;
    opts.onMeter?.(meter);
    return { text, meter };
  }

  const info: ServerLlmInfo = {
    backend: "openai-compatible",
    serverUrl: baseUrl,
    modelName: model,
    notes: [SHARED_SERVER_NOTE],
  };
  /** GBNF of the schemas this server refused as `response_format` (JSON of the schema → grammar). */
  const refused = new Map<string, string>();

  /** `response_format` first; a schema the server refuses goes again as GBNF (then straight away). */
  async function completeJson(
    messages: ChatMessage[],
    opts: GenerationOptions,
    schema: JsonSchema,
  ): Promise<ChatResult> {
    const key = JSON.stringify(schema);
    const known = refused.get(key);
    if (known !== undefined) return complete(messages, opts, { grammar: known });
    try {
      return await complete(messages, opts, { schema });
    } catch (error) {
      if (!(error instanceof JsonNotSupportedError)) throw error;
      const grammar = await gbnfForJsonSchema(schema).catch(() => Promise.reject(error));
      const result = await complete(messages, opts, { grammar });
      if (refused.size === 0) info.notes.push(GRAMMAR_NOTE);
      refused.set(key, grammar);
      return result;
    }
  }

  return {
    info,
    get lastMeter() {
      return lastMeter;
    },
    chat: (messages, opts = {}) => queue.run(() => complete(messages, opts)),
    generateJson: <T>(schema: JsonSchema, messages: ChatMessage[], opts: GenerationOptions = {}) =>
      queue.run(() =>
        generateValidJson<T>(
          schema,
          { attempts: opts.jsonAttempts, seed: opts.seed, temperature: opts.temperature },
          async (sampling) => {
            return (await completeJson(messages, { ...opts, ...sampling }, schema)).text;
          },
        ),
      ),
    // The server's `tools` parameter, sent with the settings resolved above (explicit key and timeout included).
    createToolCaller: async () => openAiToolCaller(settings),
    dispose: async () => {},
  };
}
