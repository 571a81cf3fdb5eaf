// The small LLM interface every backend implements (in-process node-llama-cpp, OpenAI-compatible HTTP,
// and scripted planners in tests). Agent code depends only on this file.
import type { ToolCallingLlm } from "./native-tools.js";
import type { JsonSchema } from "../schema/json-schema.js";
export type { JsonSchema };

export type ChatRole = "system" | "user" | "assistant";

/** One message of a chat: who says it and what. */
export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** Sampling options, mapped to what node-llama-cpp / the HTTP server actually support. */
export interface GenerationOptions {
  /** generateJson only: how many times to retry when the output fails the schema (default 3). */
  jsonAttempts?: number;
  /** Most tokens to generate, ≥ 1. Default: the backend's (node-llama-cpp: until the end token or the context is full). */
  maxTokens?: number;
  /** Sampling temperature, ≥ 0; 0 = greedy (always the likeliest token). Default: the backend's (node-llama-cpp: 0). */
  temperature?: number;
  /** Sample only among the K likeliest tokens, ≥ 1. Default: the backend's. */
  topK?: number;
  /** Sample only among the likeliest tokens whose probabilities add up to P, 0–1. Default: the backend's. */
  topP?: number;
  /** Drop tokens less likely than minP × the likeliest one, 0–1. Default: the backend's. */
  minP?: number;
  /** Penalty for repeating recent tokens, ≥ 1 (1 = off). Default: off. */
  repeatPenalty?: number;
  /** Random seed for sampling (same seed, same prompt, temperature > 0: same text). Default: the backend's. */
  seed?: number;
  /** Abort a running generation. */
  signal?: AbortSignal;
  /** Receives the metering of this call (also available as `llm.lastMeter`). */
  onMeter?: (meter: GenerationMeter) => void;
  /** Streams text pieces as they are generated. */
  onTextChunk?: (text: string) => void;
}

/** What one call cost. Token counts are exact for the local backend, server-reported for HTTP. */
export interface GenerationMeter {
  /** Prompt tokens that had to be evaluated for this call. */
  promptTokensEvaluated: number;
  /** Prompt tokens reused from the KV cache (shared prefix with an earlier call). */
  promptTokensReused: number;
  generatedTokens: number;
  /** Milliseconds from the call until the first generated token. */
  timeToFirstTokenMs: number;
  totalMs: number;
  tokensPerSecond: number;
  /**
   * Set by scripted stand-ins (tests, rehearsal mode): the token counts are estimates (characters / 4)
   * and the times are those of a script, not of a model — `formatMeter` then shows no speed.
   */
  scripted?: boolean;
}

/** A chat reply: its text and what the call cost. */
export interface ChatResult {
  text: string;
  meter: GenerationMeter;
}

/** What every backend reports about itself. */
interface LlmInfoCommon {
  modelName?: string;
  /** Context size in tokens, where the backend knows it. */
  contextSize?: number;
  /** Human-readable lines explaining the choices made while loading (e.g. fewer layers for lack of VRAM). */
  notes: string[];
}

/** A model in this process: node-llama-cpp, or the scripted stand-in of the tests. */
export interface InProcessLlmInfo extends LlmInfoCommon {
  backend: "node-llama-cpp" | "scripted";
  /** Where it computes: "CUDA" | "Vulkan" | "Metal" | "CPU" (scripted: "cpu"). */
  gpu: string;
  modelPath?: string;
  gpuLayersOffloaded?: number;
  /** Layers node-llama-cpp can offload: the transformer blocks plus the output layer. */
  gpuLayersTotal?: number;
  /** VRAM taken by this model and its context (device use after loading minus before). */
  vramUsedBytes?: number;
  threads?: number;
  /** Chat template in use (node-llama-cpp wrapper name, e.g. "Llama 3.1"). */
  chatWrapper?: string;
}

/** A model behind an OpenAI-compatible HTTP server (the class server). */
export interface ServerLlmInfo extends LlmInfoCommon {
  backend: "openai-compatible";
  /** The server's base URL, e.g. http://127.0.0.1:8080/v1. */
  serverUrl: string;
}

export type LlmInfo = InProcessLlmInfo | ServerLlmInfo;

/** A loaded language model, whatever the backend: chat, JSON output, optionally native tool calling. */
export interface Llm {
  /** Backend, model and how it was loaded. */
  readonly info: LlmInfo;
  /** The metering of the last finished call; undefined before the first. */
  readonly lastMeter: GenerationMeter | undefined;
  /** Sends the messages and returns the reply; `options.signal` aborts it. */
  chat(messages: ChatMessage[], options?: GenerationOptions): Promise<ChatResult>;
  /** Generates JSON constrained by `schema` (grammar where the backend has one) and returns the parsed, validated value. */
  generateJson<T = unknown>(schema: JsonSchema, messages: ChatMessage[], options?: GenerationOptions): Promise<T>;
  /** Native function calling with this backend's model and settings; absent where the backend has none. */
  createToolCaller?(): Promise<ToolCallingLlm>;
  /** Frees the model (memory, VRAM, connections); the object is unusable afterwards. */
  dispose(): Promise<void>;
}

/** What happened to the prompt prefix of one call (prompt-state.ts persists it). */
export interface PromptStateEvent {
  /** loaded: restored from disk; saved: evaluated and written; rejected: a file was there but unusable. */
  action: "loaded" | "saved" | "rejected";
  /** Tokens in the persisted prefix. */
  tokens: number;
  /** Time to load (incl. checksum) or to save (excl. evaluation), in ms. */
  ms: number;
  /** Size of the state file in bytes. */
  bytes: number;
  file: string;
  /** Set when the prefix was evaluated in this call: time for that evaluation, in ms. */
  evaluateMs?: number;
  /** German explanation when a file was ignored or could not be written. */
  note?: string;
}
