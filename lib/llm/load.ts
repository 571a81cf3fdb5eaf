// `loadLlm()` — the one entry point notebooks and scripts use. Picks the backend from options or
// LLM_BACKEND: "local" (node-llama-cpp, default) or "openai" (an OpenAI-compatible server).
import { loadConfig } from "../config.js";
import { loadLocalLlm, type LocalLlmOptions } from "./local.js";
import { loadOpenAiLlm, type OpenAiLlmOptions } from "./openai.js";
import type { Llm } from "./types.js";

export type LoadLlmOptions =
  | ({ backend?: "local" } & LocalLlmOptions)
  | ({ backend: "openai" } & OpenAiLlmOptions);

export async function loadLlm(options: LoadLlmOptions = {}): Promise<Llm> {
  const backend = options.backend ?? loadConfig().llmBackend;
  if (backend === "openai") return loadOpenAiLlm(options as OpenAiLlmOptions);
  return loadLocalLlm(options as LocalLlmOptions);
}
