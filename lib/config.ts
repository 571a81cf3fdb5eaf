// One place that decides which files and settings lib uses.
// Every value can be overridden by an environment variable; tests and CI point them at the tiny models.
// No import.meta here: notebooks load this file through tslab as CommonJS (see docs/notebook-authoring.md).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { KitError } from "./errors.js";

export const PACKAGE_NAME = "agentic-ai-workshop-kit";

/** Default GGUF for Teil 1–4 (downloaded by `npm run models:pull`). */
export const DEFAULT_LLM_FILE = "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf";
/** Default embedding model for Teil 2 (transformers.js id on the Hugging Face hub). */
export const DEFAULT_EMBEDDING_MODEL = "Xenova/paraphrase-multilingual-MiniLM-L12-v2";

/** What every set-up cell says in practice mode (WORKSHOP_PRACTICE=1, `npm run workshop -- --uebung`). */
export const PRACTICE_NOTICE = "Übungsmodus: winziges Zufallsmodell – die Antworten sind Kauderwelsch";
/** What every set-up cell and slide says in rehearsal mode (WORKSHOP_PROBE=1, `npm run workshop -- --probe`). */
export const PROBE_NOTICE = "Probelauf: vorgespielte Antworten";
/** The short mark on every scripted answer and on a scripted speed line (the set-up cell explains it: PROBE_NOTICE). */
export const SCRIPTED_MARK = "🎭";

/** A setting in .env or the environment that is missing or invalid; the German message names it and what to write. */
export class ConfigError extends KitError {
  override name = "ConfigError";
}

/** Walks up from `start` to the kit's package.json; WORKSHOP_ROOT wins when set. */
export function findProjectRoot(start: string = process.cwd()): string {
  const fromEnv = process.env.WORKSHOP_ROOT;
  if (fromEnv) return resolve(fromEnv);
  let dir = resolve(start);
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === PACKAGE_NAME) return dir;
      } catch {
        // unreadable package.json: keep walking up
      }
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new ConfigError(
        `Projektordner nicht gefunden (gestartet in ${start}). Setze WORKSHOP_ROOT auf den Ordner des Kits.`,
      );
    }
    dir = parent;
  }
}

export interface KitConfig {
  root: string;
  /** Where models live (MODELS_DIR, default `<root>/models`). */
  modelsDir: string;
  /** GGUF file for the in-process LLM (LLM_MODEL_PATH, default `<modelsDir>/<DEFAULT_LLM_FILE>`). Relative paths
   * count from the project folder (not the current directory), so notebooks and scripts agree. */
  llmModelPath: string;
  /** True when LLM_MODEL_PATH was set explicitly. */
  llmModelPathFromEnv: boolean;
  /** transformers.js model id or a local folder (EMBEDDING_MODEL). */
  embeddingModel: string;
  /** Force the travel server's bundled offline data (TRAVEL_OFFLINE=1). */
  travelOffline: boolean;
  /** Never download models; only local files (MODELS_OFFLINE=1). */
  modelsOffline: boolean;
  /** CPU threads for llama.cpp (LLM_THREADS; unset: llama.cpp's count of math cores, lib/llm/threads.ts). */
  llmThreads: number | undefined;
  /** GPU choice (LLM_GPU: auto | cuda | vulkan | metal | cpu). */
  llmGpu: "auto" | "cuda" | "vulkan" | "metal" | "cpu";
  /** Layers to offload (LLM_GPU_LAYERS: auto | max | a number). */
  llmGpuLayers: "auto" | "max" | number;
  /** Context size in tokens (LLM_CONTEXT_SIZE, default 8192). */
  llmContextSize: number;
  /** Which LLM backend (LLM_BACKEND: local | openai). */
  llmBackend: "local" | "openai";
  /** Base URL of an OpenAI-compatible server (LLM_BASE_URL), e.g. http://127.0.0.1:8080/v1. */
  llmBaseUrl: string | undefined;
  /** Model name sent to the OpenAI-compatible server (LLM_MODEL). */
  llmModelName: string | undefined;
  /** API key for the OpenAI-compatible server (LLM_API_KEY). */
  llmApiKey: string | undefined;
  /** Folder for saved prompt KV states (LLM_STATE_DIR, default `<root>/.cache/llm-state`; "off" disables). */
  llmStateDir: string | undefined;
  /** Folder of saved RAG indexes (RAG_CACHE_DIR, default `<root>/.cache/rag`; the Klassenraum-Hub gives each participant their own). */
  ragCacheDir: string;
  /** Practice mode (WORKSHOP_PRACTICE=1): the notebooks run on the generated tiny models and say so. */
  practiceMode: boolean;
  /** Rehearsal mode (WORKSHOP_PROBE=1): set-up cells use a scripted model (lib/rehearsal) and say so. */
  probeMode: boolean;
  /** The kernel runs in the Klassenraum-Hub (KURS_HUB_ID, set by the hub): on the instructor's machine, the
   * participant has only a browser — no `npm run …`, no USB stick, no model of their own to fetch. */
  inKlassenraumHub: boolean;
}

/** Set by the Klassenraum-Hub in its own and every participant's environment (scripts/apps/hub/settings.ts). */
export const KURS_HUB_ID_ENV = "KURS_HUB_ID";

function flag(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

function positiveInt<F extends number | undefined>(name: string, value: string | undefined, fallback: F): number | F {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ConfigError(`${name} muss eine positive ganze Zahl sein, nicht "${value}".`);
  return n;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value.trim() === "") return fallback;
  const v = value.trim().toLowerCase() as T;
  if (!allowed.includes(v))
    throw new ConfigError(`${name} muss einer dieser Werte sein: ${allowed.join(", ")}, nicht "${value}".`);
  return v;
}

function gpuLayers(value: string | undefined): KitConfig["llmGpuLayers"] {
  if (value === undefined || value.trim() === "" || value === "auto") return "auto";
  if (value === "max") return "max";
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new ConfigError(`LLM_GPU_LAYERS muss auto, max oder eine Zahl ≥ 0 sein, nicht "${value}".`);
  return n;
}

/** Reads the configuration from `env` (default: process.env). Throws ConfigError on invalid values. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): KitConfig {
  const root = findProjectRoot();
  const modelsDir = resolve(root, env.MODELS_DIR || "models");
  const llmModelPathFromEnv = Boolean(env.LLM_MODEL_PATH);
  return {
    root,
    modelsDir,
    llmModelPath: env.LLM_MODEL_PATH ? resolve(root, env.LLM_MODEL_PATH) : join(modelsDir, DEFAULT_LLM_FILE),
    llmModelPathFromEnv,
    embeddingModel: env.EMBEDDING_MODEL || DEFAULT_EMBEDDING_MODEL,
    travelOffline: flag(env.TRAVEL_OFFLINE),
    modelsOffline: flag(env.MODELS_OFFLINE),
    llmThreads: positiveInt("LLM_THREADS", env.LLM_THREADS, undefined),
    llmGpu: oneOf("LLM_GPU", env.LLM_GPU, ["auto", "cuda", "vulkan", "metal", "cpu"] as const, "auto"),
    llmGpuLayers: gpuLayers(env.LLM_GPU_LAYERS),
    llmContextSize: positiveInt("LLM_CONTEXT_SIZE", env.LLM_CONTEXT_SIZE, 8192),
    llmBackend: oneOf("LLM_BACKEND", env.LLM_BACKEND, ["local", "openai"] as const, "local"),
    llmBaseUrl: env.LLM_BASE_URL || undefined,
    llmModelName: env.LLM_MODEL || undefined,
    llmApiKey: env.LLM_API_KEY || undefined,
    llmStateDir:
      env.LLM_STATE_DIR?.trim().toLowerCase() === "off"
        ? undefined
        : resolve(root, env.LLM_STATE_DIR || join(".cache", "llm-state")),
    ragCacheDir: resolve(root, env.RAG_CACHE_DIR || join(".cache", "rag")),
    practiceMode: flag(env.WORKSHOP_PRACTICE),
    probeMode: flag(env.WORKSHOP_PROBE),
    inKlassenraumHub: Boolean(env[KURS_HUB_ID_ENV]?.trim()),
  };
}

/** Paths of the generated tiny test models (see scripts/dev/tiny-models/main.ts). */
export function tinyModelPaths(root: string = findProjectRoot()): { gguf: string; embeddingDir: string } {
  const dir = join(root, "models", "tiny");
  return { gguf: join(dir, "tiny-llama.gguf"), embeddingDir: join(dir, "tiny-bert") };
}
