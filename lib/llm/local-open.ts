// Opens the in-process model: llama.cpp binding for the chosen backend, the GGUF weights (falling back
// to "auto" GPU layers when VRAM is short) and one context. Failures become GpuBackendError / ModelLoadError.
import type { Llama, LlamaContext, LlamaModel } from "node-llama-cpp";
import esmImport from "../esm.cjs";
import type { KitConfig } from "../config.js";
import { errorText } from "../util.js";
import { GpuBackendError, ModelLoadError } from "./errors.js";
import { holdKitLlama, type KitLlamaHold } from "./llama.js";
import { resolveModelPath } from "./model-files.js";
import { applyLlamaThreads } from "./threads.js";
import type { LocalLlmOptions } from "./local.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

/** What `openLocalModel` chooses from (undefined: the config's value). */
export type OpenModelOptions = Pick<
  LocalLlmOptions,
  "modelPath" | "gpu" | "gpuLayers" | "contextSize" | "threads" | "onLoadProgress"
>;

/** A loaded model and its context; the caller owns them (dispose context and model, then release the binding). */
export interface OpenedModel {
  nlc: NodeLlamaCpp;
  llama: Llama;
  /** This model's share of the process-wide binding: release after the model's dispose (frees a GPU binding). */
  releaseLlama: () => Promise<void>;
  model: LlamaModel;
  context: LlamaContext;
  modelPath: string;
  threads: number;
  /** VRAM in use before the model was loaded, to measure what it took. */
  vramBefore: number;
  /** German notes on what was chosen differently than asked (fewer layers, smaller context, llama.cpp messages). */
  notes: string[];
}

async function loadModelWithFallback(
  hold: KitLlamaHold,
  modelPath: string,
  gpuLayers: OpenModelOptions["gpuLayers"],
  notes: string[],
  onLoadProgress?: (fraction: number) => void,
): Promise<LlamaModel> {
  const { llama } = hold;
  try {
    return await llama.loadModel({ modelPath, gpuLayers: gpuLayers ?? "auto", onLoadProgress });
  } catch (err) {
    hold.keep(); // after a failed load node-llama-cpp never finishes the binding's dispose
    if (gpuLayers !== undefined && gpuLayers !== "auto" && llama.gpu !== false) {
      notes.push(
        `Zu wenig VRAM für gpuLayers=${gpuLayers} (${errorText(err)}); lade mit "auto" (weniger Schichten auf der GPU).`,
      );
      try {
        return await llama.loadModel({ modelPath, gpuLayers: "auto", onLoadProgress });
      } catch (err2) {
        throw new ModelLoadError(modelPath, errorText(err2));
      }
    }
    throw new ModelLoadError(modelPath, errorText(err));
  }
}

/** The llama.cpp binding for `gpu`; a forced GPU backend that is not there is a GpuBackendError. */
async function openLlama(gpu: NonNullable<OpenModelOptions["gpu"]>, notes: string[]): Promise<KitLlamaHold> {
  try {
    return await holdKitLlama(gpu, (message) => {
      if (notes.length < 20 && message.trim()) notes.push(`llama.cpp: ${message.trim()}`);
    });
  } catch (err) {
    // "auto" and "cpu" always find the bundled CPU binary; a forced GPU backend may not exist here.
    throw new GpuBackendError(gpu, errorText(err));
  }
}

/** Loads the GGUF and creates its context. Throws ModelNotFoundError / GpuBackendError / ModelLoadError. */
export async function openLocalModel(options: OpenModelOptions, config: KitConfig): Promise<OpenedModel> {
  const modelPath = resolveModelPath(options.modelPath);
  const gpu = options.gpu ?? config.llmGpu;
  const notes: string[] = [];
  const nlc = await esmImport<NodeLlamaCpp>("node-llama-cpp");
  const hold = await openLlama(gpu, notes);
  const { llama } = hold;
  if (gpu !== "auto" && gpu !== "cpu" && llama.gpu !== gpu) {
    // node-llama-cpp may fall back to the CPU silently (e.g. "metal" on Linux); a forced choice must not.
    await hold.release();
    throw new GpuBackendError(gpu, `node-llama-cpp bietet hier nur ${llama.gpu === false ? "die CPU" : llama.gpu} an`);
  }
  let model: LlamaModel | undefined;
  let context: LlamaContext | undefined;
  try {
    const threads = applyLlamaThreads(llama, options.threads ?? config.llmThreads);
    const vramBefore = (await llama.getVramState()).used;
    model = await loadModelWithFallback(
      hold,
      modelPath,
      options.gpuLayers ?? config.llmGpuLayers,
      notes,
      options.onLoadProgress,
    );
    const totalLayers = model.fileInsights.totalLayers;
    if (llama.gpu !== false && model.gpuLayers < totalLayers) {
      notes.push(
        `Nur ${model.gpuLayers} von ${totalLayers} Schichten passen in den VRAM; der Rest rechnet auf der CPU (langsamer).`,
      );
    }
    const wanted = Math.min(options.contextSize ?? config.llmContextSize, model.trainContextSize);
    context = await model.createContext({
      contextSize: { min: Math.min(512, wanted), max: wanted },
      threads,
      sequences: 1,
    });
    if (context.contextSize < wanted) notes.push(`Kontext auf ${context.contextSize} Tokens verkleinert (Speicher).`);
    return { nlc, llama, releaseLlama: hold.release, model, context, modelPath, threads, vramBefore, notes };
  } catch (err) {
    await context?.dispose();
    await model?.dispose();
    await hold.release();
    if (err instanceof ModelLoadError) throw err;
    throw new ModelLoadError(modelPath, errorText(err));
  }
}
