// The HTTP side shared by the OpenAI-compatible chat backend (openai.ts) and its native tool calling
// (openai-tool-calling.ts): the settings resolved once at load time, and one POST with key and timeout.
import { loadConfig } from "../config.js";
import { LlmConnectionError, LlmInputError } from "./errors.js";
import { errorText } from "../util.js";

export interface OpenAiLlmOptions {
  /** e.g. http://127.0.0.1:8080/v1 (default LLM_BASE_URL). */
  baseUrl?: string;
  /** Model name the server expects (default LLM_MODEL; llama-server ignores it). */
  model?: string;
  apiKey?: string;
  /** Timeout per request in ms (default 120 s). */
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

/** POSTs a JSON body to an OpenAI-compatible endpoint; an unreachable server is an LlmConnectionError. */
export async function postJson(url: string, body: unknown, options: { apiKey?: string; timeoutMs: number; signal?: AbortSignal }): Promise<Response> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    return await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    throw new LlmConnectionError(url, cause ?? errorText(err));
  }
}
