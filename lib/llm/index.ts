// Teil 1 — public names of lib/llm.
export type { ChatMessage, ChatResult, ChatRole, GenerationMeter, GenerationOptions, JsonSchema, Llm, LlmInfo } from "./types.js";
export { loadLlm, loadLocalLlm, type LoadLlmOptions } from "./load.js";
export type { LocalLlm, LocalLlmOptions } from "./local.js";
export { loadOpenAiLlm, type OpenAiLlmOptions } from "./openai.js";
export { MODEL_CHOICES, modelChoicePath, resolveModelPath, type ModelChoice } from "./model-files.js";
export { describeLlm } from "./report.js";
export { formatMeter } from "./meter.js";
export { CHARS_PER_TOKEN_ESTIMATE, tokenCounter, type TokenCounter } from "./tokens.js";
export { schemaProblems } from "./json-validation.js";
export {
  ContextOverflowError,
  LlmConnectionError,
  LlmError,
  LlmInputError,
  GpuBackendError,
  LlmOutputError,
  ModelLoadError,
  ModelNotFoundError,
} from "./errors.js";
