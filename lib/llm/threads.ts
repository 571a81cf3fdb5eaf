// How many CPU threads llama.cpp computes with. Default: the cores llama.cpp counts for math
// (physical performance cores: no hyper-thread siblings, no efficiency cores). More threads than
// cores make every thread wait for the slowest: on the 2-core dev VM node-llama-cpp's own CPU
// default of 4 threads generated 0.55 tokens/s on the 1B twin, 2 threads 14.8.

/** The part of node-llama-cpp's `Llama` this needs (no import: lib's declarations stay free of node-llama-cpp). */
export interface LlamaThreadSettings {
  readonly cpuMathCores: number;
  maxThreads: number;
}

/** Sets `llama`'s thread limit to `configured` (LLM_THREADS) or its math cores and returns it. */
export function applyLlamaThreads(llama: LlamaThreadSettings, configured: number | undefined): number {
  const threads = configured ?? Math.max(1, llama.cpuMathCores);
  llama.maxThreads = threads;
  return threads;
}
