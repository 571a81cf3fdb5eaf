// The kit's one way to get node-llama-cpp's Llama (the binding): only the prebuilt binaries (never a
// compile on a participant's laptop), llama.cpp's own log quiet but for errors, and those lines to the
// caller's logger instead of the terminal. lib takes node-llama-cpp's values through esmImport only.
// Not in lib/llm/index.ts: its Llama type would make every notebook cell read node-llama-cpp's
// declarations (notebook-lib.test.ts); scripts import this file by path.
import type { Llama } from "node-llama-cpp";
import esmImport from "../esm.cjs";
import { ignore } from "../util.js";
import type { KitConfig } from "../config.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

/** One binding per `gpu` choice and process: each getLlama tests the binary in a child process (about a second). */
const shared = new Map<string, Promise<Llama>>();
/** The latest caller's logger: the binding is shared, its log lines belong to the model being loaded. */
let logTo: (message: string) => void = () => {};

/**
 * node-llama-cpp's Llama for `gpu` ("auto" picks CUDA / Vulkan / Metal when there, "cpu" forces the CPU;
 * node-llama-cpp may fall back to the CPU for a named backend, compare `llama.gpu`). llama.cpp's error
 * lines go to `logger` (default: dropped). The binding is made once per process and `gpu` and kept (a
 * model's dispose frees the model, not the binding); one that a caller disposed is made anew.
 */
export async function getKitLlama(
  gpu: KitConfig["llmGpu"] = "auto",
  logger: (message: string) => void = () => {},
): Promise<Llama> {
  logTo = logger;
  const cached = shared.get(gpu);
  const known = cached && (await cached.catch(ignore("a binding that failed to load: its caller was told; made anew")));
  if (known && !known.disposed) return known;
  if (shared.get(gpu) !== cached) return getKitLlama(gpu, logger); // another caller made a new one meanwhile
  const made = (async () => {
    const { getLlama, LlamaLogLevel } = await esmImport<NodeLlamaCpp>("node-llama-cpp");
    return getLlama({
      gpu: gpu === "cpu" ? false : gpu,
      build: "never",
      logLevel: LlamaLogLevel.error,
      logger: (_level, message) => logTo(message),
    });
  })();
  shared.set(gpu, made);
  made.catch(() => shared.delete(gpu));
  return made;
}
