// Measures a GGUF's raw speed with node-llama-cpp: prompt tokens/s (one fixed prompt evaluated in
// batches) and generation tokens/s (a fixed count of tokens, end tokens ignored: the low-level
// sequence iterator never stops by itself). Shared by `npm run bench -- tempo` and `doctor --tempo`.
import type { Llama, Token } from "node-llama-cpp";

export interface SpeedOptions {
  promptTokens?: number;
  generatedTokens?: number;
  threads?: number;
  /** Layers on the GPU (node-llama-cpp's gpuLayers); 0 on the CPU. */
  gpuLayers?: number | "max";
}

export interface SpeedResult {
  backend: string;
  promptTokens: number;
  generatedTokens: number;
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
  loadMs: number;
  gpuLayers: number;
  /** CPU threads llama.cpp computed with. */
  threads: number;
}

const PROMPT_TEXT =
  "Plane eine Reise: Wie wird das Wetter morgen in Barcelona, welche Parks liegen in der Nähe des Hotels, " +
  "und welche Sehenswürdigkeiten lohnen sich bei Regen? Antworte mit einem Plan aus Tool-Aufrufen als JSON. ";

/** Measures `modelPath` on `llama` (its backend: CPU or the GPU it found). */
export async function measureSpeed(llama: Llama, modelPath: string, options: SpeedOptions = {}): Promise<SpeedResult> {
  const promptTokens = options.promptTokens ?? 512;
  const generatedTokens = options.generatedTokens ?? 32;
  const loadStarted = performance.now();
  const model = await llama.loadModel({ modelPath, gpuLayers: options.gpuLayers ?? (llama.gpu ? "max" : 0) });
  const loadMs = performance.now() - loadStarted;
  const context = await model.createContext({
    contextSize: promptTokens + generatedTokens + 64,
    threads: options.threads,
  });
  try {
    const sequence = context.getSequence();
    const text = model.tokenize(PROMPT_TEXT);
    const prompt: Token[] = [];
    while (prompt.length < promptTokens) prompt.push(...text);
    prompt.length = promptTokens;
    // Warm-up, as llama-bench does: one short pass first, so paging in the mmapped weights and setting up
    // the compute buffers are not timed.
    const warm = Math.min(64, Math.floor(promptTokens / 2));
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, warm));
    for await (const token of sequence.evaluate(prompt.slice(warm, warm + 1), { temperature: 0 })) {
      void token;
      break;
    }
    await sequence.clearHistory();
    const promptStarted = performance.now();
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1));
    const promptMs = performance.now() - promptStarted;
    let count = 0;
    const genStarted = performance.now();
    for await (const token of sequence.evaluate(prompt.slice(-1), { temperature: 0 })) {
      void token;
      if (++count >= generatedTokens) break;
    }
    const genMs = performance.now() - genStarted;
    return {
      backend: llama.gpu === false ? "cpu" : llama.gpu,
      promptTokens,
      generatedTokens: count,
      promptTokensPerSecond: (promptTokens - 1) / (promptMs / 1000),
      generationTokensPerSecond: count / (genMs / 1000),
      loadMs,
      gpuLayers: model.gpuLayers,
      threads: options.threads ?? llama.maxThreads,
    };
  } finally {
    await context.dispose();
    await model.dispose();
  }
}
