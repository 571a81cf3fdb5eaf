// Teil 1 — language models: load a local GGUF (node-llama-cpp) or an OpenAI-compatible server behind the
// `Llm` interface; chat, JSON output, native tool calling (each backend's own), typed German errors.
export type {
  ChatMessage,
  ChatResult,
  GenerationMeter,
  GenerationOptions,
  InProcessLlmInfo,
  JsonSchema,
  Llm,
  LlmInfo,
  ServerLlmInfo,
} from "./types.js";
export { loadConfiguredLlm, loadLocalLlm, type LoadLlmOptions } from "./load.js";
export type { LocalLlm } from "./local.js";
export { loadOpenAiLlm, type OpenAiLlmOptions } from "./openai.js";
export { MODEL_CHOICES, modelChoicePath, resolveModelPath, type ModelChoice } from "./model-files.js";
export { describeLlm } from "./report.js";
export { formatMeter } from "./meter.js";
export { tokenCounter } from "./tokens.js";
export { todayMessage } from "./messages.js";
export { applyLlamaThreads, type LlamaThreadSettings } from "./threads.js";
export {
  ContextOverflowError,
  GpuBackendError,
  JsonNotSupportedError,
  LlmConnectionError,
  LlmError,
  LlmInputError,
  LlmOutputError,
  LlmResponseTooLargeError,
  LlmStreamIncompleteError,
  LlmTimeoutError,
  ModelClosedError,
  ModelLoadError,
  ModelNotFoundError,
} from "./errors.js";
export { createToolCaller, type NativeFunction, type ToolCallingLlm } from "./native-tools.js";
export { NativeToolsUnsupportedError } from "./openai-tool-calling.js";
export { checkArithmetic, describeArithmetic } from "./number-check.js";
// Types of the public signatures (options, results, event parts), for lib/index.ts and the API reference.
export type { ChatRole, PromptStateEvent } from "./types.js";
export type { LocalLlmOptions } from "./local.js";
export type { TokenCounter } from "./tokens.js";
export type { ArithmeticVerdict } from "./number-check.js";
export type {
  AnsweredFunctionCall,
  LocalToolCaller,
  NativeFunctionCall,
  ToolChatHistory,
  ToolChatRound,
} from "./native-tools.js";
