// In-process backend: node-llama-cpp with GPU offload, Llama 3.1 chat wrapper, JSON-schema grammars,
// and one context sequence reused across calls so a shared prompt prefix stays in the KV cache.
// The parts: local-open.ts loads, local-session.ts owns what was loaded, local-prefix-states.ts caches
// prompt states, local-generate.ts generates, local-json-grammars.ts compiles JSON grammars.
import { loadConfig } from "../config.js";
import { toHistory } from "./chat-template.js";
import { generateValidJson } from "./json-validation.js";
import { createLocalToolCaller } from "./local-tool-calling.js";
import { generateLocal } from "./local-generate.js";
import { JsonGrammars } from "./local-json-grammars.js";
import { openLocalModel } from "./local-open.js";
import { PrefixStates } from "./local-prefix-states.js";
import { LocalSession } from "./local-session.js";
import { checkMessages } from "./messages.js";
import type { LocalToolCaller } from "./native-tools.js";
import type {
  ChatMessage,
  ChatResult,
  GenerationOptions,
  InProcessLlmInfo,
  JsonSchema,
  Llm,
  PromptStateEvent,
} from "./types.js";

export interface LocalLlmOptions {
  /** GGUF file; default LLM_MODEL_PATH or models/<default>. */
  modelPath?: string;
  /** "auto" picks CUDA / Vulkan / Metal when available; "cpu" forces the CPU; a named backend that is missing is a GpuBackendError. Default LLM_GPU, else "auto". */
  gpu?: "auto" | "cuda" | "vulkan" | "metal" | "cpu";
  /** Layers to offload: "auto" fits what VRAM allows, "max" all, or a number ≥ 0. Default LLM_GPU_LAYERS, else "auto". */
  gpuLayers?: "auto" | "max" | number;
  /** Context size in tokens, capped at the model's training context (less when memory is short, see `info.notes`). Default LLM_CONTEXT_SIZE, else 8192. */
  contextSize?: number;
  /** CPU threads, ≥ 1; matters a lot on small machines (see docs/models.md). Default LLM_THREADS, else the CPU's math cores. */
  threads?: number;
  /** Attempts for generateJson before giving up with LlmOutputError, ≥ 1. Default 3. */
  jsonAttempts?: number;
  /**
   * Folder for saved prompt KV states (default LLM_STATE_DIR or `.cache/llm-state`); false disables.
   * A first system message of at least `promptStateMinTokens` tokens (default 256) is evaluated once,
   * saved there, and loaded from disk by the next process instead of being evaluated again.
   */
  promptStateDir?: string | false;
  /** Shortest first system message, in tokens, whose KV state is saved to `promptStateDir`. Default 256. */
  promptStateMinTokens?: number;
  /**
   * Prepared states (`npm run models:warm`), read-only and looked at before `promptStateDir`: default
   * `prompt-states/` beside the model file; false: not used. Nothing is read when promptStateDir is false.
   */
  warmStateDir?: string | false;
  /** Called while the weights load, with the fraction done (0…1). */
  onLoadProgress?: (fraction: number) => void;
}

/** The in-process LLM, with extras the notebooks use to teach. */
export interface LocalLlm extends Llm {
  readonly info: InProcessLlmInfo;
  /** The exact prompt text (with special tokens) the chat template produces — for teaching only. */
  renderPrompt(messages: ChatMessage[]): string;
  /** Number of tokens `text` has for this model (plain text; special tokens are not parsed). */
  countTokens(text: string): number;
  /** Number of prompt tokens `messages` become with the chat template (what a call evaluates at most). */
  countPromptTokens(messages: ChatMessage[]): number;
  /** Forget the KV cache (the next call evaluates the prompt again, or loads its saved prefix). */
  resetCache(): Promise<void>;
  /** What the last call did with the saved prompt state (undefined: no persisted prefix involved). */
  readonly lastPromptState: PromptStateEvent | undefined;
  /** Native function calling (Llama 3.1 format) on the same context sequence and call queue. */
  createToolCaller(options?: { today?: Date }): Promise<LocalToolCaller>;
}

/** Opens a GGUF with node-llama-cpp: a fresh model each call (`loadLocalLlm` keeps one live per process). Throws ModelNotFoundError / ModelLoadError with instructions. */
export async function openLocalLlm(options: LocalLlmOptions = {}): Promise<LocalLlm> {
  const config = loadConfig();
  const session = await LocalSession.start(await openLocalModel(options, config));
  const prefixes = await PrefixStates.create(session, options, config);
  const grammars = new JsonGrammars(session.llama);
  const { queue } = session;

  return {
    info: session.info,
    get lastMeter() {
      return session.lastMeter;
    },
    get lastPromptState() {
      return prefixes.last;
    },
    chat(messages: ChatMessage[], options: GenerationOptions = {}): Promise<ChatResult> {
      return queue.run(() => generateLocal(session, prefixes, messages, options));
    },
    generateJson<T>(schema: JsonSchema, messages: ChatMessage[], options: GenerationOptions = {}): Promise<T> {
      return queue.run(async () => {
        const grammar = await grammars.forSchema(schema);
        return generateValidJson<T>(
          schema,
          { attempts: options.jsonAttempts, seed: options.seed, temperature: options.temperature },
          async (sampling) => {
            return (await generateLocal(session, prefixes, messages, { ...options, ...sampling }, grammar)).text;
          },
        );
      });
    },
    renderPrompt(messages: ChatMessage[]): string {
      session.ensureOpen();
      checkMessages(messages);
      return session.chat.chatWrapper.generateContextState({ chatHistory: toHistory(messages) }).contextText.toString();
    },
    countTokens(text: string): number {
      session.ensureOpen();
      return session.model.tokenize(text).length;
    },
    countPromptTokens(messages: ChatMessage[]): number {
      session.ensureOpen();
      checkMessages(messages);
      return session.promptTokens(toHistory(messages)).length;
    },
    resetCache(): Promise<void> {
      return queue.run(() => session.sequence.clearHistory());
    },
    createToolCaller(options = {}): Promise<LocalToolCaller> {
      if (session.isClosed) return Promise.reject(session.closedError());
      return createLocalToolCaller(session.sequence, { ...options, queue });
    },
    dispose(): Promise<void> {
      return session.dispose();
    },
  };
}
