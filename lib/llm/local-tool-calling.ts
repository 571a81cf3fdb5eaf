// Native function calling on the in-process backend: node-llama-cpp's own function calling
// (LlamaChat with `functions`) in the Llama 3.1 tool-call format. node-llama-cpp documents the
// functions in the system prompt, detects `<function=name>` in the output, constrains the params
// with a grammar and stops the round; we run the calls and append them (with results) to the
// model's response, exactly as LlamaChatSession does, one round at a time.
import type {
  ChatHistoryItem,
  ChatModelFunctionCall,
  ChatModelFunctions,
  LlamaChat,
  LlamaContextSequence,
} from "node-llama-cpp";
import esmImport from "../esm.cjs";
import { ContextOverflowError } from "./errors.js";
import { LocalCallMeter, localSampling } from "./local-sampling.js";
import { CallQueue } from "./meter.js";
import type { LocalToolCaller, NativeFunction, ToolChatHistory, ToolChatRound } from "./native-tools.js";
import type { GenerationOptions } from "./types.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

export interface LocalToolCallerOptions {
  /** Serializes with other users of the same sequence (the LocalLlm's queue). */
  queue?: CallQueue;
  /** Date the Llama 3.1 template writes into its system header (default: none, stable prompts). */
  today?: Date;
}

function toFunctions(functions: NativeFunction[]): ChatModelFunctions {
  return Object.fromEntries(
    functions.map((f) => [
      f.name,
      { description: f.description, params: (f.grammarParameters ?? f.parameters) as never },
    ]),
  );
}

/** Our history → node-llama-cpp's: all rounds of one answer live in one model response item. */
export function toLlamaHistory(history: ToolChatHistory, functions: NativeFunction[]): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [];
  if (history.system) items.push({ type: "system", text: history.system });
  items.push({ type: "user", text: history.question });
  const response: (string | ChatModelFunctionCall)[] = [];
  for (const round of history.rounds) {
    if (round.text) response.push(round.text);
    round.calls.forEach((call, index) => {
      response.push({
        type: "functionCall",
        name: call.name,
        description: functions.find((f) => f.name === call.name)?.description,
        params: call.params,
        result: call.result,
        startsNewChunk: index === 0,
      });
    });
  }
  items.push({ type: "model", response });
  return items;
}

/** Wraps a context sequence (e.g. the LocalLlm's) for native function calling. */
export async function createLocalToolCaller(
  sequence: LlamaContextSequence,
  options: LocalToolCallerOptions = {},
): Promise<LocalToolCaller> {
  const { LlamaChat: LlamaChatClass, Llama3_1ChatWrapper } = await esmImport<NodeLlamaCpp>("node-llama-cpp");
  const chatWrapper = new Llama3_1ChatWrapper({ todayDate: options.today ?? null, cuttingKnowledgeDate: null });
  const chat: LlamaChat = new LlamaChatClass({ contextSequence: sequence, chatWrapper, autoDisposeSequence: false });
  const queue = options.queue ?? new CallQueue();
  const model = sequence.model;

  const promptTokens = (items: ChatHistoryItem[], functions: ChatModelFunctions) =>
    chatWrapper
      .generateContextState({ chatHistory: items, availableFunctions: functions, documentFunctionParams: true })
      .contextText.tokenize(model.tokenizer);

  async function round(
    history: ToolChatHistory,
    functions: NativeFunction[],
    opts: GenerationOptions,
  ): Promise<ToolChatRound> {
    const defs = toFunctions(functions);
    const items = toLlamaHistory(history, functions);
    const prompt = promptTokens(items, defs);
    const reserve = opts.maxTokens ?? 1;
    const contextSize = sequence.context.contextSize;
    if (prompt.length + reserve > contextSize) throw new ContextOverflowError(prompt.length, reserve, contextSize);
    const cached = sequence.contextTokens;
    let reused = 0;
    while (reused < cached.length && reused < prompt.length - 1 && cached[reused] === prompt[reused]) reused++;
    const callMeter = new LocalCallMeter(sequence);
    const response = await chat.generateResponse(items, {
      ...localSampling(opts, callMeter),
      functions: defs,
      documentFunctionParams: true,
    });
    const meter = callMeter.finish(reused);
    opts.onMeter?.(meter);
    const offset = history.rounds.reduce((n, r) => n + r.calls.length, 0);
    const calls = (response.functionCalls ?? []).map((call, i) => ({
      id: `call_${offset + i + 1}`,
      name: call.functionName,
      params: call.params as unknown,
    }));
    return { text: response.response, calls, meter };
  }

  return {
    toolCallFormat: chatWrapper.wrapperName,
    respondWithTools: (history, functions, opts = {}) => queue.run(() => round(history, functions, opts)),
    renderPrompt: (history, functions) =>
      chatWrapper
        .generateContextState({
          chatHistory: toLlamaHistory(history, functions),
          availableFunctions: toFunctions(functions),
          documentFunctionParams: true,
        })
        .contextText.toString(),
    dispose: () => chat.dispose({ disposeSequence: false }),
  };
}
