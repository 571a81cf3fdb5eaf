// Which GGUF files the kit knows, and where lib looks for them.
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../config.js";
import { ModelNotFoundError } from "./errors.js";

export interface ModelChoice {
  id: string;
  /** node-llama-cpp model URI for its downloader. */
  uri: string;
  fileName: string;
  approxSizeGb: number;
  note: string;
}

/** Models `npm run models:pull` can download. The first is the workshop default. */
export const MODEL_CHOICES: readonly ModelChoice[] = [
  {
    id: "llama-3.1-8b",
    uri: "hf:bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M",
    fileName: "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",
    approxSizeGb: 4.9,
    note: "Workshop default. GPU with ≥ 8 GB VRAM (less: part of the layers run on the CPU), or CPU with ≥ 8 GB RAM (slower; `npm run doctor -- --tempo` measures and predicts it for this machine).",
  },
  {
    id: "llama-3.2-3b",
    uri: "hf:bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M",
    fileName: "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
    approxSizeGb: 2.0,
    note: "Smaller choice for CPU-only laptops (~2.5× faster than 8B, weaker plans).",
  },
  {
    id: "qwen2.5-7b",
    uri: "hf:bartowski/Qwen2.5-7B-Instruct-GGUF:Q4_K_M",
    fileName: "Qwen2.5-7B-Instruct-Q4_K_M.gguf",
    approxSizeGb: 4.7,
    note:
      "Tool calling: best ≤ 8B model of these three on the Berkeley Function Calling Leaderboard V3 (overall 53.7 % vs. " +
      "Llama 3.1 8B 50.7 %, prompt mode; gorilla.cs.berkeley.edu/leaderboard). License Apache-2.0 (Qwen/Qwen2.5-7B-Instruct). " +
      "node-llama-cpp picks its QwenChatWrapper (plan and half-agent styles); native tool calling still uses the Llama 3.1 " +
      "format (llm/local-tool-calling.ts). Size and URL as published by bartowski, not downloaded here (unverified).",
  },
];

/**
 * Resolves the GGUF path: explicit option, else LLM_MODEL_PATH, else the default file in MODELS_DIR.
 * Throws ModelNotFoundError (German, says what to do) when the file is missing.
 */
export function resolveModelPath(explicitPath?: string): string {
  const config = loadConfig();
  const path = explicitPath ?? config.llmModelPath;
  if (!existsSync(path) || !statSync(path).isFile()) {
    const choice = MODEL_CHOICES.find((c) => resolve(config.modelsDir, c.fileName) === resolve(path));
    throw new ModelNotFoundError(path, config.modelsDir, choice?.id);
  }
  return path;
}

/** Path a model choice is stored at inside MODELS_DIR. */
export function modelChoicePath(choice: ModelChoice): string {
  return join(loadConfig().modelsDir, choice.fileName);
}
