// Teil 1 — public names of lib/llm: load a model (local GGUF or OpenAI-compatible server), chat, JSON.
export type {
  ChatMessage,
  ChatResult,
  ChatRole,
  GenerationMeter,
  GenerationOptions,
  InProcessLlmInfo,
  JsonSchema,
  Llm,
  LlmInfo,
  PromptStateEvent,
  ServerLlmInfo,
} from "./types.js";
export { loadLlm, loadLocalLlm, type LoadLlmOptions } from "./load.js";
export type { LocalLlm, LocalLlmOptions } from "./local.js";
export { loadOpenAiLlm, type OpenAiLlmOptions } from "./openai.js";
export { MODEL_CHOICES, modelChoicePath, type ModelChoice } from "./model-files.js";
export { describeLlm } from "./report.js";
export { formatMeter } from "./meter.js";
export { tokenCounter, type TokenCounter } from "./tokens.js";
export {
  ContextOverflowError,
  GpuBackendError,
  JsonNotSupportedError,
  LlmConnectionError,
  LlmError,
  LlmInputError,
  LlmOutputError,
  ModelLoadError,
  ModelNotFoundError,
} from "./errors.js";
export type {
  AnsweredFunctionCall,
  LocalToolCaller,
  NativeFunction,
  NativeFunctionCall,
  ToolCallingLlm,
  ToolChatHistory,
  ToolChatRound,
} from "./native-tools.js";
export { createToolCaller } from "./native-tools.js";
export { createOpenAiToolCaller, NativeToolsUnsupportedError } from "./openai-tool-calling.js";
export { checkArithmetic, describeArithmetic, numbersInText, type ArithmeticVerdict } from "./number-check.js";
