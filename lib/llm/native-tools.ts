// Native function calling: the model itself emits tool calls in its chat format (Llama 3.1's
// `<function=name>{…}</function>`, or OpenAI's `tool_calls`), instead of us asking for a JSON plan.
// One round = one generation; the caller runs the calls and sends the results back. Each backend owns
// its tool caller (Llm.createToolCaller: same model, same server, same settings); createToolCaller
// below asks the loaded llm for it.
import { LlmInputError } from "./errors.js";
import type { GenerationMeter, GenerationOptions, JsonSchema, Llm } from "./types.js";

/** A function the model may call (from an MCP tool: name, description, input schema). */
export interface NativeFunction {
  name: string;
  description: string;
  /** The tool's input schema (the authority; calls are validated against it). */
  parameters: JsonSchema;
  /** The same schema in the dialect node-llama-cpp's grammar understands (local backend only). */
  grammarParameters?: JsonSchema;
}

/** One call as the model emitted it (params not yet validated). */
export interface NativeFunctionCall {
  /** Backend id (OpenAI `tool_call_id`), or a generated one. */
  id: string;
  name: string;
  params: unknown;
}

/** A call together with what we answered (result or error object), for the next round's history. */
export interface AnsweredFunctionCall extends NativeFunctionCall {
  result: unknown;
}

/** The conversation of a tool chat: the question, then per round the model's calls and our answers. */
export interface ToolChatHistory {
  system?: string;
  question: string;
  rounds: { text: string; calls: AnsweredFunctionCall[] }[];
}

export interface ToolChatRound {
  /** Text the model wrote in this round (the answer when there are no calls). */
  text: string;
  /** Calls the model made in this round (several = parallel calls). */
  calls: NativeFunctionCall[];
  meter: GenerationMeter;
}

/** A backend that supports native function calling. */
export interface ToolCallingLlm {
  /** Name of the tool-call format, e.g. "Llama 3.1" or "OpenAI tools". */
  readonly toolCallFormat: string;
  /** Generates one round: text and/or calls. */
  respondWithTools(
    history: ToolChatHistory,
    functions: NativeFunction[],
    options?: GenerationOptions,
  ): Promise<ToolChatRound>;
}

/** Native function calling on the in-process model (see local-tool-calling.ts). */
export interface LocalToolCaller extends ToolCallingLlm {
  /** The exact prompt (Llama 3.1 format, functions documented) a round would evaluate. */
  renderPrompt(history: ToolChatHistory, functions: NativeFunction[]): string;
  /** Frees the tool caller's chat session (the model stays loaded). */
  dispose(): void;
}

/** The native tool-calling side of `llm` (same model, same server, same settings). */
export async function createToolCaller(llm: Llm): Promise<ToolCallingLlm> {
  if (llm.createToolCaller) return llm.createToolCaller();
  throw new LlmInputError(
    `Natives Function Calling gibt es für das Backend „${llm.info.backend}“ nicht; nimm runAgent oder einen vorgespielten ScriptedToolCaller.`,
  );
}
