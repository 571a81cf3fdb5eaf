// The kit's one way to get node-llama-cpp's Llama (the binding): only the prebuilt binaries (never a
// compile on a participant's laptop), llama.cpp's own log quiet but for errors, and those lines to the
// caller's logger instead of the terminal. lib takes node-llama-cpp's values through esmImport only.
// Not in lib/llm/index.ts: its Llama type would make every notebook cell read node-llama-cpp's
// declarations (notebook-lib.test.ts); scripts import this file by path.
import type { Llama } from "node-llama-cpp";
import esmImport from "../esm.cjs";
import type { KitConfig } from "../config.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

/**
 * node-llama-cpp's Llama for `gpu` ("auto" picks CUDA / Vulkan / Metal when there, "cpu" forces the CPU;
 * node-llama-cpp may fall back to the CPU for a named backend, compare `llama.gpu`). llama.cpp's error
 * lines go to `logger` (default: dropped).
 */
export async function getKitLlama(
  gpu: KitConfig["llmGpu"] = "auto",
  logger: (message: string) => void = () => {},
): Promise<Llama> {
  const { getLlama, LlamaLogLevel } = await esmImport<NodeLlamaCpp>("node-llama-cpp");
  return getLlama({
    gpu: gpu === "cpu" ? false : gpu,
    build: "never",
    logLevel: LlamaLogLevel.error,
    logger: (_level, message) => logger(message),
  });
}
