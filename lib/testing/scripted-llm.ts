// A scripted stand-in for a model: replays fixed replies behind the Llm interface, for deterministic
// loop tests and notebook demos without a model file. It records every request, and meters prompts
// as a KV cache would (approximate tokens = characters / 4; the prefix shared with the previous
// request counts as reused), so prompt-prefix stability can be shown without a model.
import { JsonNotSupportedError } from "../llm/errors.js";
import type {
  ChatMessage,
  ChatResult,
  GenerationMeter,
  GenerationOptions,
  InProcessLlmInfo,
  JsonSchema,
  Llm,
} from "../llm/types.js";
import { KitError } from "../errors.js";

export interface ScriptedRequest {
  method: "chat" | "generateJson";
  /** Copy of the messages as sent. */
  messages: ChatMessage[];
  schema?: JsonSchema;
  /** 0-based number of this request. */
  index: number;
  /** The sampling settings the caller asked for (a reply function may vary with the seed, as a model would). */
  sampling?: Pick<GenerationOptions, "seed" | "temperature">;
}

const THROW = Symbol("scripted-throw");

export interface ScriptedFailure {
  [THROW]: Error;
}

/** One reply: text, a JSON value (e.g. a plan), a function of the request, or a failure. */
export type ScriptedReply =
  | string
  | Record<string, unknown>
  | ScriptedFailure
  | ((request: ScriptedRequest) => string | Record<string, unknown> | Promise<string | Record<string, unknown>>);

/** A reply that makes the request fail with `error`. */
export function scriptedFailure(error: Error): ScriptedFailure {
  return { [THROW]: error };
}

export class ScriptExhaustedError extends KitError {
  override name = "ScriptExhaustedError";
  constructor(readonly requests: number) {
    super(
      `ScriptedLlm: Das Drehbuch hat keine Antwort für Anfrage ${requests + 1}. Weitere Antworten eintragen oder whenExhausted: "repeat-last" setzen.`,
    );
  }
}

export interface ScriptedLlmOptions {
  /** When false, generateJson throws JsonNotSupportedError like a backend without grammars (default true). */
  jsonSupported?: boolean;
  /** After the last reply: throw ScriptExhaustedError (default) or repeat the last reply. */
  whenExhausted?: "throw" | "repeat-last";
  /** Simulated generation time per request in ms (default 0). */
  latencyMs?: number;
}

function serialize(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `<${m.role}>\n${m.content}\n`).join("");
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

const approxTokens = (chars: number) => Math.ceil(chars / 4);

export class ScriptedLlm implements Llm {
  readonly info: InProcessLlmInfo = { backend: "scripted", gpu: "cpu", notes: ["Skriptierte Antworten, kein Modell."] };
  readonly requests: ScriptedRequest[] = [];
  private _lastMeter: GenerationMeter | undefined;
  private previousPrompt = "";
  private readonly replies: ScriptedReply[];

  constructor(
    replies: readonly ScriptedReply[],
    private readonly options: ScriptedLlmOptions = {},
  ) {
    this.replies = [...replies];
  }

  get lastMeter(): GenerationMeter | undefined {
    return this._lastMeter;
  }

  /** Replies not used yet. */
  get remaining(): number {
    return Math.max(0, this.replies.length - this.requests.length);
  }

  private async next(request: ScriptedRequest, signal?: AbortSignal): Promise<string | Record<string, unknown>> {
    const index = request.index;
    let reply = this.replies[index];
    if (reply === undefined) {
      if (this.options.whenExhausted === "repeat-last" && this.replies.length > 0)
        reply = this.replies[this.replies.length - 1];
      else throw new ScriptExhaustedError(index);
    }
    if (this.options.latencyMs) await new Promise((resolve) => setTimeout(resolve, this.options.latencyMs));
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("abgebrochen");
    if (typeof reply === "function") return reply(request);
    if (typeof reply === "object" && reply !== null && THROW in reply) throw (reply as ScriptedFailure)[THROW];
    return reply as string | Record<string, unknown>;
  }

  private meter(
    messages: readonly ChatMessage[],
    output: string,
    startedAt: number,
    options?: GenerationOptions,
  ): void {
    const prompt = serialize(messages);
    const reused = commonPrefixLength(prompt, this.previousPrompt);
    // What a KV cache holds afterwards: the prompt, the assistant header and the generated reply.
    this.previousPrompt = prompt + serialize([{ role: "assistant", content: output }]);
    const totalMs = performance.now() - startedAt;
    const generatedTokens = approxTokens(output.length);
    this._lastMeter = {
      promptTokensEvaluated: approxTokens(prompt.length) - approxTokens(reused),
      promptTokensReused: approxTokens(reused),
      generatedTokens,
      timeToFirstTokenMs: totalMs,
      totalMs,
      tokensPerSecond: totalMs > 0 ? (generatedTokens * 1000) / totalMs : 0,
      scripted: true,
    };
    options?.onMeter?.(this._lastMeter);
  }

  private record(
    method: ScriptedRequest["method"],
    messages: readonly ChatMessage[],
    options?: GenerationOptions,
    schema?: JsonSchema,
  ): ScriptedRequest {
    const sampling =
      options && (options.seed !== undefined || options.temperature !== undefined)
        ? { seed: options.seed, temperature: options.temperature }
        : undefined;
    const request: ScriptedRequest = {
      method,
      messages: messages.map((m) => ({ ...m })),
      index: this.requests.length,
      ...(schema ? { schema } : {}),
      ...(sampling ? { sampling } : {}),
    };
    this.requests.push(request);
    return request;
  }

  async chat(messages: ChatMessage[], options?: GenerationOptions): Promise<ChatResult> {
    const startedAt = performance.now();
    const request = this.record("chat", messages, options);
    const reply = await this.next(request, options?.signal);
    const text = typeof reply === "string" ? reply : JSON.stringify(reply);
    options?.onTextChunk?.(text);
    this.meter(messages, text, startedAt, options);
    return { text, meter: this._lastMeter as GenerationMeter };
  }

  async generateJson<T = unknown>(
    schema: JsonSchema,
    messages: ChatMessage[],
    options?: GenerationOptions,
  ): Promise<T> {
    if (this.options.jsonSupported === false)
      throw new JsonNotSupportedError(
        "generateJson wird von diesem vorgespielten Backend nicht unterstützt (jsonSupported: false).",
      );
    const startedAt = performance.now();
    const request = this.record("generateJson", messages, options, schema);
    const reply = await this.next(request, options?.signal);
    const value: unknown = typeof reply === "string" ? JSON.parse(reply) : structuredClone(reply);
    this.meter(messages, JSON.stringify(value) ?? "", startedAt, options);
    return value as T;
  }

  async dispose(): Promise<void> {}
}
