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
    note: "Standard im Workshop. Grafikkarte mit ≥ 8 GB Speicher (weniger: ein Teil der Schichten rechnet auf der CPU) oder CPU mit ≥ 8 GB Arbeitsspeicher (langsamer; `npm run doctor -- --tempo` misst es und sagt es für diesen Rechner voraus).",
  },
  {
    id: "llama-3.2-3b",
    uri: "hf:bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M",
    fileName: "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
    approxSizeGb: 2.0,
    note: "Kleinere Wahl für Laptops ohne Grafikkarte (etwa 2,5-mal so schnell wie 8B, schwächere Pläne).",
  },
  {
    id: "qwen2.5-7b",
    uri: "hf:bartowski/Qwen2.5-7B-Instruct-GGUF:Q4_K_M",
    fileName: "Qwen2.5-7B-Instruct-Q4_K_M.gguf",
    approxSizeGb: 4.7,
    note:
      "Werkzeugaufrufe: das beste der drei Modelle (≤ 8B) im Berkeley Function Calling Leaderboard V3 (gesamt 53,7 % gegenüber " +
      "Llama 3.1 8B mit 50,7 %, Prompt-Modus; gorilla.cs.berkeley.edu/leaderboard). Lizenz Apache-2.0 (Qwen/Qwen2.5-7B-Instruct). " +
      "node-llama-cpp wählt seinen QwenChatWrapper (Stile Plan und Halb-Agent); natives Tool-Calling nutzt weiter das Format von " +
      "Llama 3.1 (llm/local-tool-calling.ts). Größe und Adresse wie von bartowski veröffentlicht, hier nicht heruntergeladen (ungeprüft).",
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
