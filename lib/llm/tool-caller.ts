// Native function calling for whichever backend is loaded: the in-process model's own function
// calling, or the OpenAI-compatible server's `tools` parameter.
import { loadConfig } from "../config.js";
import { LlmInputError } from "./errors.js";
import type { LocalLlm } from "./local.js";
import { createOpenAiToolCaller } from "./openai-tool-calling.js";
import type { ToolCallingLlm } from "./tool-calling.js";
import type { Llm } from "./types.js";

function isLocal(llm: Llm): llm is LocalLlm {
  return llm.info.backend === "node-llama-cpp" && typeof (llm as Partial<LocalLlm>).createToolCaller === "function";
}

/** The native tool-calling side of `llm` (same model, same server). */
export async function createToolCaller(llm: Llm): Promise<ToolCallingLlm> {
  if (isLocal(llm)) return llm.createToolCaller();
  if (llm.info.backend === "openai-compatible") {
    return createOpenAiToolCaller({ baseUrl: llm.info.gpu, model: llm.info.modelName, apiKey: loadConfig().llmApiKey });
  }
  throw new LlmInputError(`Natives Function Calling gibt es für das Backend „${llm.info.backend}“ nicht; nimm runAgent oder einen vorgespielten ScriptedToolCaller.`);
}
