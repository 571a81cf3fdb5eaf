// The HTTP side shared by the OpenAI-compatible chat backend (openai.ts) and its native tool calling
// (openai-tool-calling.ts): the settings resolved once at load time, and one POST with key, one deadline
// for the whole response and a bounded body; the sampling fields both send.
import { z } from "zod";
import { loadConfig } from "../config.js";
import {
  ContextOverflowError,
  JsonNotSupportedError,
  LlmConnectionError,
  LlmError,
  LlmInputError,
  LlmResponseTooLargeError,
  LlmTimeoutError,
} from "./errors.js";
import type { GenerationOptions } from "./types.js";
import { errorText } from "../util.js";

export interface OpenAiLlmOptions {
  /** e.g. http://127.0.0.1:8080/v1 (default LLM_BASE_URL). */
  baseUrl?: string;
  /** Model name the server expects (default LLM_MODEL; llama-server ignores it). */
  model?: string;
  /** Sent as `Authorization: Bearer …` (default LLM_API_KEY; none for a local server). */
  apiKey?: string;
  /** Time limit per request in ms, for the whole answer including a streamed body (default 120 s). */
  timeoutMs?: number;
}

/** Settings with every default filled in: what both the chat backend and its tool caller send with. */
export interface OpenAiSettings {
  baseUrl: string;
  /** The chat completions endpoint. */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** The server settings from `options`, else from the environment (LLM_BASE_URL, LLM_MODEL_NAME, LLM_API_KEY). */
export function openAiSettings(options: OpenAiLlmOptions): OpenAiSettings {
  const config = loadConfig();
  const baseUrl = (options.baseUrl ?? config.llmBaseUrl)?.replace(/\/+$/, "");
  if (!baseUrl) throw new LlmInputError("LLM_BASE_URL fehlt (z. B. http://127.0.0.1:8080/v1).");
  return {
    baseUrl,
    url: `${baseUrl}/chat/completions`,
    model: options.model ?? config.llmModelName ?? "default",
    apiKey: options.apiKey ?? config.llmApiKey,
    timeoutMs: options.timeoutMs ?? 120_000,
  };
}

/**
 * The sampling fields of a chat completions request, the same for chat and tool calls. top_k, min_p and
 * repeat_penalty are extensions llama-server and vLLM accept; other servers ignore them.
 */
export function samplingFields(opts: GenerationOptions): Record<string, number | undefined> {
  return {
    max_tokens: opts.maxTokens,
    temperature: opts.temperature,
    top_p: opts.topP,
    top_k: opts.topK,
    min_p: opts.minP,
    repeat_penalty: opts.repeatPenalty,
    seed: opts.seed,
  };
}

/** Largest accepted response body in bytes (a streamed answer with all its events, or one JSON completion). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Largest single streamed event in characters. */
export const MAX_EVENT_CHARS = 1024 * 1024;

export interface PostOptions {
  apiKey?: string;
  /** One deadline for the whole response: connecting, headers and every byte of the body. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Reads the response inside the deadline; `body` is the response body, bounded to MAX_RESPONSE_BYTES. */
export type ResponseReader<T> = (res: Response, body: AsyncIterable<Uint8Array>) => Promise<T>;

/**
 * POSTs a JSON body to an OpenAI-compatible endpoint and lets `read` consume the answer, all under one
 * deadline. Our own timer (cleared at the end), not AbortSignal.timeout inside AbortSignal.any: the
 * latter may be garbage-collected while a body is still streaming, and the deadline with it.
 * A connection closed before any answer is retried once (CLOSED_BEFORE_ANSWER).
 * Errors: LlmTimeoutError, LlmResponseTooLargeError, LlmConnectionError (unreachable, connection lost),
 * the caller's abort reason, or whatever LlmError `read` throws.
 */
export async function postJson<T>(
  url: string,
  body: unknown,
  options: PostOptions,
  read: ResponseReader<T>,
): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new LlmTimeoutError(url, options.timeoutMs)), options.timeoutMs);
  const onAbort = () => deadline.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const send = () =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: deadline.signal,
    });
  try {
    const res = await send()
      .catch((err: unknown) => {
        if (deadline.signal.aborted || !CLOSED_BEFORE_ANSWER.has(causeCode(err) ?? "")) throw err;
        return send();
      })
      .catch((err: unknown) => {
        throw failure(url, err, deadline.signal, (cause) => new LlmConnectionError(url, cause));
      });
    return await read(res, boundedBody(url, res)).catch((err: unknown) => {
      throw failure(url, err, deadline.signal, (cause) => new LlmConnectionError(url, `Stream abgebrochen: ${cause}`));
    });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    deadline.abort(); // releases a body that `read` left unread (e.g. after data: [DONE])
  }
}

/**
 * The server closed the connection before any answer (seen at 20 agents on llama-server: 2–6 of ~170
 * requests; most likely an idle keep-alive connection closed just as a request went out on it). Nothing
 * was answered, so postJson sends it once more.
 */
const CLOSED_BEFORE_ANSWER = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);
const causeCode = (err: unknown): string | undefined => (err as { cause?: { code?: string } }).cause?.code;

/** The error to report: the deadline's or the caller's abort first, then typed errors as they are. */
function failure(
  url: string,
  err: unknown,
  signal: AbortSignal,
  connection: (cause: string) => LlmConnectionError,
): unknown {
  if (signal.aborted) return signal.reason;
  if (err instanceof LlmError) return err;
  return connection(causeCode(err) ?? errorText(err));
}

/** The response body in chunks; LlmResponseTooLargeError once it exceeds MAX_RESPONSE_BYTES. */
async function* boundedBody(url: string, res: Response): AsyncIterable<Uint8Array> {
  if (!res.body) return;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (bytes > MAX_RESPONSE_BYTES) throw new LlmResponseTooLargeError(url, "Antwort", MAX_RESPONSE_BYTES);
    yield chunk;
  }
}

/** The whole (bounded) body as text. */
export async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of body) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** Does the server answer one JSON document (rather than an event stream)? */
export function isJsonResponse(res: Response): boolean {
  return /\bjson\b/i.test(res.headers.get("content-type") ?? "");
}

/** An error body: `{error: {message, type, code, param}}` (OpenAI, llama-server, Ollama), `{object: "error", …}` (vLLM) or `{error: "text"}`. */
const ErrorFields = z.object({
  message: z.string().catch(""),
  type: z.string().nullish().catch(undefined),
  code: z.union([z.string(), z.number()]).nullish().catch(undefined),
  param: z.string().nullish().catch(undefined),
  /** llama-server's exceed_context_size_error: the prompt's tokens and one slot's context. */
  n_prompt_tokens: z.number().int().nullish().catch(undefined),
  n_ctx: z.number().int().nullish().catch(undefined),
});
const ErrorBody = z.union([
  z.object({ error: ErrorFields }).transform((b) => b.error),
  z.object({ object: z.literal("error") }).and(ErrorFields),
  z.object({ error: z.string() }).transform((b) => ErrorFields.parse({ message: b.error })),
]);
/** The fields of a server's error body the kit reads (a plain interface: no zod in lib's declarations). */
export interface ServerError {
  message: string;
  type?: string | null;
  code?: string | number | null;
  param?: string | null;
  n_prompt_tokens?: number | null;
  n_ctx?: number | null;
}

/** The parsed error body, or undefined when it is none of the known shapes. */
export function serverError(raw: string): ServerError | undefined {
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The prompt does not fit into one slot's context: llama-server's type (with the token counts),
 * OpenAI's code, vLLM's message.
 */
function contextExceeded(error: ServerError): boolean {
  return (
    error.type === "exceed_context_size_error" ||
    error.code === "context_length_exceeded" ||
    /maximum context length/i.test(error.message)
  );
}

/**
 * A server failing on the JSON schema it was sent. llama-server (this release) answers a schema it cannot
 * turn into a grammar with HTTP 400 "Unable to generate parser for this template …" (--jinja) or HTTP 500
 * "[json.exception.type_error.302] …" (--no-jinja) — e.g. for any property named "$ref", which its
 * converter takes for a JSON reference: exactly the kit's `$ref` plan arguments.
 */
const SCHEMA_REFUSAL = /json[_ ]?schema|grammar|generate parser|json\.exception/i;

/**
 * The kit's typed error for a non-OK answer: a prompt too long for the server's slot → ContextOverflowError;
 * a schema the server cannot constrain to (only when one was sent) → JsonNotSupportedError, so the plan
 * call can fall back to plain chat; anything else → LlmConnectionError with the status and the server's words.
 */
export function httpFailure(url: string, status: number, raw: string, sentSchema = false): LlmError {
  const error = serverError(raw);
  if (error && contextExceeded(error)) {
    return new ContextOverflowError(error.n_prompt_tokens ?? Number.NaN, 0, error.n_ctx ?? Number.NaN, "server");
  }
  if (error && sentSchema && (status === 400 || status === 500) && SCHEMA_REFUSAL.test(error.message)) {
    return new JsonNotSupportedError(`Der LLM-Server lehnt das JSON-Schema ab: ${error.message.slice(0, 200)}`);
  }
  const detail = error?.message || raw;
  return new LlmConnectionError(url, `HTTP ${status} ${detail.slice(0, 300)}`.trim(), status);
}
