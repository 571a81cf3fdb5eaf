// One generation on the in-process session: checks the prompt fits, brings its saved prefix in, runs
// node-llama-cpp's chat and meters what was evaluated, reused and generated.
import type { Llama } from "node-llama-cpp";
import { toHistory } from "./chat-template.js";
import { ContextOverflowError } from "./errors.js";
import type { LocalSession } from "./local-session.js";
import type { PrefixStates } from "./local-prefix-states.js";
import { LocalCallMeter, localSampling } from "./local-sampling.js";
import { checkMessages } from "./messages.js";
import type { ChatMessage, ChatResult, GenerationOptions } from "./types.js";

/** A compiled grammar that constrains generation (here: to JSON of one schema). */
export type JsonGrammar = Awaited<ReturnType<Llama["createGrammar"]>>;

/** Generates the answer to `messages`; sets `session.lastMeter` and calls `options.onMeter`. Run inside the session's queue. */
export async function generateLocal(
  session: LocalSession,
  prefixes: PrefixStates,
  messages: ChatMessage[],
  options: GenerationOptions,
  grammar?: JsonGrammar,
): Promise<ChatResult> {
  checkMessages(messages);
  const { sequence, context } = session;
  const history = toHistory(messages);
  const prompt = session.promptTokens(history);
  const promptLength = prompt.length;
  const reserve = options.maxTokens ?? 1;
  if (promptLength + reserve > context.contextSize)
    throw new ContextOverflowError(promptLength, reserve, context.contextSize);
  const callMeter = new LocalCallMeter(sequence);
  const inMemory = session.cachedPrefixLength(prompt);
  await prefixes.prepare(messages, prompt);
  // Reused = the prompt's prefix already in the KV cache: from the previous call, or loaded from disk.
  const cachedNow = session.cachedPrefixLength(prompt);
  const reused = prefixes.last?.action === "loaded" ? cachedNow : Math.min(inMemory, cachedNow);
  const response = await session.chat.generateResponse(history, { ...localSampling(options, callMeter), grammar });
  const meter = callMeter.finish(reused);
  session.lastMeter = meter;
  options.onMeter?.(meter);
  return { text: response.response, meter };
}
