// The kit's one way to get node-llama-cpp's Llama (the binding): only the prebuilt binaries (never a
// compile on a participant's laptop), llama.cpp's own log quiet but for errors, and those lines to the
// loading model's logger instead of the terminal. lib takes node-llama-cpp's values through esmImport only.
// Not in lib/llm/index.ts: its Llama type would make every notebook cell read node-llama-cpp's
// declarations (notebook-lib.test.ts); scripts import this file by path.
import type { Llama } from "node-llama-cpp";
import esmImport from "../esm.cjs";
import { ignore } from "../util.js";
import type { KitConfig } from "../config.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");
type Logger = (message: string) => void;

/** One process-wide binding for a `gpu` choice, the models that hold it and who hears its log lines. */
interface Binding {
  llama: Promise<Llama>;
  /** Models loaded on it and not yet released (holdKitLlama). */
  holders: number;
  /** A load on it failed: node-llama-cpp (3.21) then never finishes the binding's dispose, so it is kept. */
  kept: boolean;
  /** The holders' loggers: llama.cpp's lines belong to its models (none: dropped). They arrive asynchronously,
   * often after the call that caused them has returned, so a holder hears them until it releases. */
  listeners: Set<Logger>;
}

/** One binding per `gpu` choice and process: each getLlama tests the binary in a child process (about a second). */
const shared = new Map<string, Binding>();

/**
 * Whether a binding holds device memory (a CUDA / Vulkan / Metal context, hundreds of MB of VRAM) and so is
 * freed with its last model. A CPU binding holds none and stays for the next load. Replaceable by tests.
 */
export const bindingPolicy = { holdsDeviceMemory: (llama: Llama): boolean => llama.gpu !== false };

function makeBinding(gpu: KitConfig["llmGpu"]): Binding {
  const binding: Binding = {
    llama: Promise.resolve(undefined as never),
    holders: 0,
    kept: false,
    listeners: new Set(),
  };
  binding.llama = (async () => {
    const { getLlama, LlamaLogLevel } = await esmImport<NodeLlamaCpp>("node-llama-cpp");
    return getLlama({
      gpu: gpu === "cpu" ? false : gpu,
      build: "never",
      logLevel: LlamaLogLevel.error,
      logger: (_level, message) => binding.listeners.forEach((listener) => listener(message)),
    });
  })();
  binding.llama.catch(() => shared.get(gpu) === binding && shared.delete(gpu));
  return binding;
}

async function bindingFor(gpu: KitConfig["llmGpu"]): Promise<{ binding: Binding; llama: Llama }> {
  const cached = shared.get(gpu);
  const known = cached && (await cached.llama.catch(ignore("a binding that failed to load: its caller was told")));
  if (cached && known && !known.disposed) return { binding: cached, llama: known };
  if (shared.get(gpu) !== cached) return bindingFor(gpu); // another caller made a new one meanwhile
  const binding = makeBinding(gpu);
  shared.set(gpu, binding);
  return { binding, llama: await binding.llama };
}

/**
 * node-llama-cpp's Llama for `gpu` ("auto" picks CUDA / Vulkan / Metal when there, "cpu" forces the CPU;
 * node-llama-cpp may fall back to the CPU for a named backend, compare `llama.gpu`), for a short use that
 * loads no model (a grammar, a probe); its log lines are dropped. Made once per process and `gpu`; one that
 * a caller disposed is made anew. Models take theirs with holdKitLlama.
 */
export async function getKitLlama(gpu: KitConfig["llmGpu"] = "auto"): Promise<Llama> {
  return (await bindingFor(gpu)).llama;
}

/** A model's share of a binding. */
export interface KitLlamaHold {
  llama: Llama;
  /** A model load on it failed: the binding stays for the process (its dispose would never finish). */
  keep(): void;
  /** The model is disposed: the last holder of a GPU binding disposes it (frees its device context). Once. */
  release(): Promise<void>;
}

/** The binding for `gpu` held for one model; llama.cpp's error lines go to `logger` until release. */
export async function holdKitLlama(gpu: KitConfig["llmGpu"], logger: Logger): Promise<KitLlamaHold> {
  const { binding, llama } = await bindingFor(gpu);
  if (shared.get(gpu) !== binding) return holdKitLlama(gpu, logger); // its last holder released it meanwhile
  binding.holders++;
  binding.listeners.add(logger);
  let released = false;
  return {
    llama,
    keep: () => {
      binding.kept = true;
    },
    release: async () => {
      if (released) return;
      released = true;
      binding.listeners.delete(logger);
      binding.holders--;
      if (binding.holders > 0 || binding.kept || llama.disposed || !bindingPolicy.holdsDeviceMemory(llama)) return;
      if (shared.get(gpu) === binding) shared.delete(gpu);
      await llama.dispose();
    },
  };
}
