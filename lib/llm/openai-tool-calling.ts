// Native function calling over an OpenAI-compatible server: the `tools` parameter in, `tool_calls`
// out, results back as `role: "tool"` messages. llama-server (with --jinja), vLLM and Ollama support
// it; a server that does not gets a clear error instead of silently ignoring the tools.
import { z } from "zod";
import { LlmConnectionError, LlmError } from "./errors.js";
import { CallClock, CallQueue } from "./meter.js";
import type { NativeFunction, ToolCallingLlm, ToolChatHistory, ToolChatRound } from "./native-tools.js";
import type { GenerationOptions } from "./types.js";
import {
  httpFailure,
  openAiSettings,
  postJson,
  readText,
  samplingFields,
  serverError,
  type OpenAiLlmOptions,
  type OpenAiSettings,
  type ServerError,
} from "./openai-http.js";
import { tokenCounts, UsageFields } from "./openai-usage.js";

/** The server rejected the `tools` parameter (or answers without understanding it). */
export class NativeToolsUnsupportedError extends LlmError {
  override name = "NativeToolsUnsupportedError";
  constructor(
    readonly url: string,
    readonly detail: string,
  ) {
    super(
      `Der Server ${url} unterstützt keine Werkzeugaufrufe (tools): ${detail}\n` +
        `  → llama-server mit --jinja starten, oder den Agenten mit $ref-Plan (runAgent) verwenden.`,
    );
  }
}

const Completion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({ id: z.string().optional(), function: z.object({ name: z.string(), arguments: z.string() }) }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
  ...UsageFields,
});

/**
 * The refusals of llama-server without --jinja (HTTP 500, type "server_error") and of Ollama for a model
 * without tool support (HTTP 400, type "api_error"): these servers send no field that names `tools`, so
 * their message is the only signal. Compared as whole phrases on the parsed `message` field, only after
 * the typed checks in toolsRefused found nothing.
 */
const TOOLS_REFUSAL_MESSAGES = ["tools param requires --jinja flag", "does not support tools"];

/**
 * Did the server refuse the `tools` parameter itself? By status and typed fields: 501 Not Implemented,
 * or `param` naming "tools"/"tool_choice" (OpenAI's and vLLM's way to name the rejected parameter);
 * then the documented fallback above. Any other error (context too long, server down …) is not a refusal.
 */
function toolsRefused(status: number, error: ServerError | undefined): boolean {
  if (status === 501) return true;
  if (!error) return false;
  if (error.param === "tools" || error.param === "tool_choice") return true;
  return TOOLS_REFUSAL_MESSAGES.some((phrase) => error.message.includes(phrase));
}

/** OpenAI messages for a tool chat: system, user, then per round assistant(tool_calls) + tool results. */
export function toOpenAiMessages(history: ToolChatHistory): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  if (history.system) messages.push({ role: "system", content: history.system });
  messages.push({ role: "user", content: history.question });
  for (const round of history.rounds) {
    messages.push({
      role: "assistant",
      content: round.text || null,
      tool_calls: round.calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.params) },
      })),
    });
    for (const call of round.calls)
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(call.result) });
  }
  return messages;
}

/** Parses a call's `arguments` string; unparsable JSON stays a string (validation then rejects it). */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A tool caller for a server given by `options`, else by the environment (LLM_BASE_URL, …). */
export function createOpenAiToolCaller(options: OpenAiLlmOptions = {}): ToolCallingLlm {
  return openAiToolCaller(openAiSettings(options));
}

/** A tool caller with settings already resolved (the loaded OpenAI backend's own). */
export function openAiToolCaller(settings: OpenAiSettings): ToolCallingLlm {
  const { url, model, apiKey, timeoutMs } = settings;
  const queue = new CallQueue();

  async function round(
    history: ToolChatHistory,
    functions: NativeFunction[],
    opts: GenerationOptions,
  ): Promise<ToolChatRound> {
    const body = {
      model,
      messages: toOpenAiMessages(history),
      tools: functions.map((f) => ({
        type: "function",
        function: { name: f.name, description: f.description, parameters: f.parameters },
      })),
      stream: false,
      ...samplingFields(opts),
    };
    const clock = new CallClock();
    // One deadline and a bounded body for the whole JSON answer, as for a streamed chat (openai-http.ts).
    const raw = await postJson(url, body, { apiKey, timeoutMs, signal: opts.signal }, async (res, resBody) => {
      const text = res.ok ? await readText(resBody) : await readText(resBody).catch(() => "");
      if (res.ok) return text;
      const error = serverError(text);
      if (toolsRefused(res.status, error))
        throw new NativeToolsUnsupportedError(url, (error?.message || text).slice(0, 200));
      throw httpFailure(url, res.status, text);
    });
    let parsed: z.infer<typeof Completion>;
    try {
      parsed = Completion.parse(JSON.parse(raw));
    } catch {
      throw new LlmConnectionError(url, `unerwartete Antwortform: ${raw.slice(0, 120)}`);
    }
    clock.markFirstToken();
    const message = parsed.choices[0]!.message;
    const offset = history.rounds.reduce((n, r) => n + r.calls.length, 0);
    const calls = (message.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${offset + i + 1}`,
      name: c.function.name,
      params: parseArguments(c.function.arguments),
    }));
    const meter = clock.finish(tokenCounts(parsed));
    opts.onMeter?.(meter);
    if (message.content) opts.onTextChunk?.(message.content);
    return { text: message.content ?? "", calls, meter };
  }

  return {
    toolCallFormat: "OpenAI tools",
    respondWithTools: (history, functions, opts = {}) => queue.run(() => round(history, functions, opts)),
  };
}
