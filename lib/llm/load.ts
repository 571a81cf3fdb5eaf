// `loadConfiguredLlm()` — the configured model: what the notebooks' `loadLlm()` (lib/rehearsal/load.ts)
// loads outside rehearsal mode, and what scripts that need a real model call. Picks the backend from options or
// LLM_BACKEND: "local" (node-llama-cpp, default) or "openai" (an OpenAI-compatible server).
// The local model is kept once per process (see live-instances.ts): loading again with the same
// settings returns the live model ("Run All" in a notebook), other settings unload the old one first.
import { loadConfig } from "../config.js";
import { announcePracticeMode, forParticipants } from "../notebook/notices.js";
import { progressLine } from "../notebook/progress.js";
import { liveInstance, releaseLiveInstance } from "../notebook/live-instances.js";
import { ModelNotFoundError } from "./errors.js";
import { openLocalLlm, type LocalLlm, type LocalLlmOptions } from "./local.js";
import { resolveModelPath } from "./model-files.js";
import { loadOpenAiLlm, type OpenAiLlmOptions } from "./openai.js";
import type { Llm } from "./types.js";
import { reloadOnDemand } from "./reload-on-demand.js";

export type LoadLlmOptions = ({ backend?: "local" } & LocalLlmOptions) | ({ backend: "openai" } & OpenAiLlmOptions);

const SLOT = "llm";

/** Added below a missing-model message in notebooks: the ways on that need no download. */
const NO_MODEL_HINT =
  "  → Vom USB-Stick: die GGUF-Datei in den Ordner models/ kopieren.\n" +
  "  → Ohne eigenes Modell: den Klassen-Server nutzen (LLM_BACKEND=openai und LLM_BASE_URL setzen, dann neu starten).\n" +
  "  → Nur zum Durchklicken: npm run workshop -- --uebung (winziges Zufallsmodell).";

/** The settings that make two local models the same (after defaults from the config). */
function localKey(options: LocalLlmOptions): string {
  const config = loadConfig();
  return JSON.stringify({
    modelPath: resolveModelPath(options.modelPath),
    gpu: options.gpu ?? config.llmGpu,
    gpuLayers: options.gpuLayers ?? config.llmGpuLayers,
    contextSize: options.contextSize ?? config.llmContextSize,
    threads: options.threads ?? config.llmThreads,
    jsonAttempts: options.jsonAttempts ?? null,
  });
}

async function openTracked(options: LocalLlmOptions): Promise<LocalLlm> {
  const progress = progressLine("Modell laden");
  const llm = await openLocalLlm({
    ...options,
    onLoadProgress: (fraction) => {
      progress?.update(fraction);
      options.onLoadProgress?.(fraction);
    },
  });
  progress?.done();
  // A reload after the clean-up cell is silent about the mode: the set-up cell has said it already.
  const tracked = reloadOnDemand(
    llm,
    () => loadLiveLocalLlm(options),
    (released) => releaseLiveInstance(SLOT, released),
  );
  retirements.set(tracked.llm, tracked.retire);
  return tracked.llm;
}

/** How to dispose a live model for good when a load with other settings replaces it. */
const retirements = new WeakMap<LocalLlm, () => Promise<void>>();

/**
 * Loads the in-process model (node-llama-cpp), at most one per process: the same settings give the live
 * model back, other settings unload it first. Inside a notebook a load shows a progress line, and a
 * failure prints one German paragraph.
 */
export async function loadLocalLlm(options: LocalLlmOptions = {}): Promise<LocalLlm> {
  announcePracticeMode();
  return loadLiveLocalLlm(options);
}

/** loadLocalLlm without the practice-mode line: what a reload on demand calls. */
async function loadLiveLocalLlm(options: LocalLlmOptions): Promise<LocalLlm> {
  try {
    return await liveInstance(SLOT, localKey(options), {
      create: () => openTracked(options),
      dispose: (llm) => (retirements.get(llm) ?? (() => llm.dispose()))(),
      onEvent: (event) =>
        console.log(
          event === "reused"
            ? "Modell ist schon geladen – es wird wiederverwendet."
            : "Vorheriges Modell entladen (andere Einstellungen).",
        ),
    });
  } catch (error) {
    throw forParticipants(error, error instanceof ModelNotFoundError ? NO_MODEL_HINT : undefined);
  }
}

/**
 * The model LLM_BACKEND names (or `options.backend`): the local node-llama-cpp model (kept live per
 * process) or the class server. A missing model file becomes a German message with the ways on.
 */
export async function loadConfiguredLlm(options: LoadLlmOptions = {}): Promise<Llm> {
  const backend = options.backend ?? loadConfig().llmBackend;
  if (backend === "openai") {
    try {
      return await loadOpenAiLlm(options as OpenAiLlmOptions);
    } catch (error) {
      throw forParticipants(error);
    }
  }
  return loadLocalLlm(options as LocalLlmOptions);
}
