// In-process backend: node-llama-cpp with GPU offload, Llama 3.1 chat wrapper, JSON-schema grammars,
// and one context sequence reused across calls so a shared prompt prefix stays in the KV cache.
import { createHash } from "node:crypto";
import type { ChatHistoryItem, ChatWrapper, Llama, LlamaChat, LlamaContext, LlamaModel, Token } from "node-llama-cpp";
import esmImport from "../esm.cjs";
import { loadConfig } from "../config.js";
import { forParticipants } from "../notebook/notices.js";
import { ContextOverflowError, GpuBackendError, JsonNotSupportedError, ModelClosedError, ModelLoadError } from "./errors.js";
import { jsonSchemaGbnf } from "./gbnf.js";
import { checkSchema, generateValidJson } from "./json-validation.js";
import { checkMessages } from "./messages.js";
import { CallClock, CallQueue } from "./meter.js";
import { resolveModelPath } from "./model-files.js";
import { applyLlamaThreads } from "./threads.js";
import { modelFileIdentity, PromptStateCache, promptStateKey, stablePrefix, type ModelIdentity, type StateSettings } from "./prompt-state.js";
import { llamaCppIdentity, warmStateDir, WarmStates } from "./warm-states.js";
import { createLocalToolCaller } from "./local-tool-calling.js";
import { getKitLlama } from "./llama.js";
import type { LocalToolCaller } from "./native-tools.js";
import type { ChatMessage, ChatResult, GenerationMeter, GenerationOptions, InProcessLlmInfo, JsonSchema, Llm, PromptStateEvent } from "./types.js";
import { errorText } from "../util.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");
type JsonGrammar = Awaited<ReturnType<Llama["createGrammar"]>>;

export interface LocalLlmOptions {
  /** GGUF file; default LLM_MODEL_PATH or models/<default>. */
  modelPath?: string;
  /** "auto" picks CUDA / Vulkan / Metal when available; "cpu" forces the CPU; a named backend that is missing is a GpuBackendError. Default LLM_GPU, else "auto". */
  gpu?: "auto" | "cuda" | "vulkan" | "metal" | "cpu";
  /** Layers to offload: "auto" fits what VRAM allows, "max" all, or a number ≥ 0. Default LLM_GPU_LAYERS, else "auto". */
  gpuLayers?: "auto" | "max" | number;
  /** Context size in tokens, capped at the model's training context (less when memory is short, see `info.notes`). Default LLM_CONTEXT_SIZE, else 8192. */
  contextSize?: number;
  /** CPU threads, ≥ 1; matters a lot on small machines (see README). Default LLM_THREADS, else the CPU's math cores. */
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

const GPU_NAMES: Record<string, string> = { cuda: "CUDA", vulkan: "Vulkan", metal: "Metal", cpu: "CPU" };

function toHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m) =>
    m.role === "assistant" ? { type: "model", response: [m.content] } : { type: m.role, text: m.content },
  );
  history.push({ type: "model", response: [] });
  return history;
}

async function loadModelWithFallback(
  llama: Llama,
  modelPath: string,
  gpuLayers: LocalLlmOptions["gpuLayers"],
  notes: string[],
  onLoadProgress?: (fraction: number) => void,
): Promise<LlamaModel> {
  try {
    return await llama.loadModel({ modelPath, gpuLayers: gpuLayers ?? "auto", onLoadProgress });
  } catch (err) {
    if (gpuLayers !== undefined && gpuLayers !== "auto" && llama.gpu !== false) {
      notes.push(`Zu wenig VRAM für gpuLayers=${gpuLayers} (${errorText(err)}); lade mit "auto" (weniger Schichten auf der GPU).`);
      try {
        return await llama.loadModel({ modelPath, gpuLayers: "auto", onLoadProgress });
      } catch (err2) {
        throw new ModelLoadError(modelPath, errorText(err2));
      }
    }
    throw new ModelLoadError(modelPath, errorText(err));
  }
}

/**
 * The model's chat wrapper without a per-day line: node-llama-cpp's Llama 3.1 and 3.2 (1B/3B) wrappers
 * write "Today Date: <today>" into the first system block, which would make the saved prompt state
 * worthless the next day. The kit sends the date as its own message after the system prompt
 * (todayMessage). The date is switched off through node-llama-cpp's public `customWrapperSettings`, laid
 * over its own choice of wrapper and options (no private field is read); everything else stays as it chose.
 */
function dateFreeChatWrapper(nlc: NodeLlamaCpp, model: LlamaModel): ChatWrapper {
  return nlc.resolveChatWrapper(model, { customWrapperSettings: { "llama3.1": { todayDate: null }, "llama3.2-lightweight": { todayDate: null } } });
}

/**
 * The chat template as the kit uses it: the wrapper's name and a hash of what it renders for a fixed
 * probe conversation (a date or any other change in the rendering changes it).
 */
function templateIdentity(chat: LlamaChat): string {
  const probe: ChatHistoryItem[] = [
    { type: "system", text: "S" },
    { type: "user", text: "U" },
    { type: "model", response: ["A"] },
    { type: "user", text: "V" },
    { type: "model", response: [] },
  ];
  const rendered = chat.chatWrapper.generateContextState({ chatHistory: probe }).contextText.toString();
  return `${chat.chatWrapper.wrapperName} ${createHash("sha256").update(rendered).digest("hex").slice(0, 16)}`;
}

/** Loads a GGUF with node-llama-cpp. Throws ModelNotFoundError / ModelLoadError with instructions. */
export async function loadLocalLlm(options: LocalLlmOptions = {}): Promise<LocalLlm> {
  const config = loadConfig();
  const modelPath = resolveModelPath(options.modelPath);
  const gpu = options.gpu ?? config.llmGpu;
  const configuredThreads = options.threads ?? config.llmThreads;
  const notes: string[] = [];
  const nlc = await esmImport<NodeLlamaCpp>("node-llama-cpp");
  const { LlamaChat: LlamaChatClass } = nlc;

  let llama: Llama;
  try {
    llama = await getKitLlama(gpu, (message) => {
      if (notes.length < 20 && message.trim()) notes.push(`llama.cpp: ${message.trim()}`);
    });
  } catch (err) {
    // "auto" and "cpu" always find the bundled CPU binary; a forced GPU backend may not exist here.
    throw new GpuBackendError(gpu, errorText(err));
  }
  const threads = applyLlamaThreads(llama, configuredThreads);
  if (gpu !== "auto" && gpu !== "cpu" && llama.gpu !== gpu) {
    // node-llama-cpp may fall back to the CPU silently (e.g. "metal" on Linux); a forced choice must not.
    await llama.dispose();
    throw new GpuBackendError(gpu, `node-llama-cpp bietet hier nur ${llama.gpu === false ? "die CPU" : llama.gpu} an`);
  }
  let model: LlamaModel | undefined;
  let context: LlamaContext | undefined;
  let vramBefore: number;
  try {
    vramBefore = (await llama.getVramState()).used;
    model = await loadModelWithFallback(llama, modelPath, options.gpuLayers ?? config.llmGpuLayers, notes, options.onLoadProgress);
    const totalLayers = model.fileInsights.totalLayers;
    if (llama.gpu !== false && model.gpuLayers < totalLayers) {
      notes.push(`Nur ${model.gpuLayers} von ${totalLayers} Schichten passen in den VRAM; der Rest rechnet auf der CPU (langsamer).`);
    }
    const wanted = Math.min(options.contextSize ?? config.llmContextSize, model.trainContextSize);
    context = await model.createContext({ contextSize: { min: Math.min(512, wanted), max: wanted }, threads, sequences: 1 });
    if (context.contextSize < wanted) notes.push(`Kontext auf ${context.contextSize} Tokens verkleinert (Speicher).`);
  } catch (err) {
    await context?.dispose();
    await model?.dispose();
    await llama.dispose();
    if (err instanceof ModelLoadError) throw err;
    throw new ModelLoadError(modelPath, errorText(err));
  }
  const sequence = context.getSequence();
  const chat: LlamaChat = new LlamaChatClass({ contextSequence: sequence, chatWrapper: dateFreeChatWrapper(nlc, model) });
  // VRAM this model and its context took (the device may be shared with other processes).
  const vramUsedBytes = Math.max(0, (await llama.getVramState()).used - vramBefore);
  const info: InProcessLlmInfo = {
    backend: "node-llama-cpp",
    gpu: GPU_NAMES[llama.gpu === false ? "cpu" : llama.gpu] ?? String(llama.gpu),
    modelPath,
    modelName: model.fileInfo.metadata.general?.name ?? undefined,
    gpuLayersOffloaded: model.gpuLayers,
    gpuLayersTotal: model.fileInsights.totalLayers,
    vramUsedBytes,
    contextSize: context.contextSize,
    threads,
    chatWrapper: chat.chatWrapper.wrapperName,
    notes,
  };
  const stateDir = options.promptStateDir === undefined ? config.llmStateDir : options.promptStateDir || undefined;
  const states = stateDir ? new PromptStateCache({ dir: stateDir }) : undefined;
  const warmDir = options.warmStateDir === undefined ? warmStateDir(modelPath) : options.warmStateDir;
  const warm = states && warmDir ? new WarmStates(warmDir) : undefined;
  const minPrefixTokens = options.promptStateMinTokens ?? 256;
  // Everything that shapes the saved KV state besides the model file and the tokens. Not the GPU: a
  // state made on one machine loads on another (the KV cache's types and layout are the same).
  const stateSettings: StateSettings = {
    llamaCpp: llamaCppIdentity(llama.llamaCppRelease, await nlc.getModuleVersion()),
    template: templateIdentity(chat),
    contextSize: context.contextSize,
    kvCache: [String(context.kvCacheKeyType), String(context.kvCacheValueType)],
    flashAttention: String(context.flashAttention),
  };
  let modelIdentity: Promise<ModelIdentity> | undefined;
  let lastPromptState: PromptStateEvent | undefined;
  let firstMessageTokens: { text: string; tokens: Token[] } | undefined;
  const queue = new CallQueue();
  const grammars = new Map<string, JsonGrammar>();
  let lastMeter: GenerationMeter | undefined;
  const loadedModel = model;
  const loadedContext = context;
  // After dispose() (a notebook's cleanup cell) every use says so in German instead of DisposedError.
  const closedError = () => forParticipants(new ModelClosedError());
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw closedError();
  };

  const promptTokens = (history: ChatHistoryItem[]): Token[] =>
    chat.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(loadedModel.tokenizer);

  /** Length of the prompt's prefix that is already in the KV cache. */
  const cachedPrefixLength = (prompt: Token[]) => {
    const cached = sequence.contextTokens;
    let n = 0;
    while (n < cached.length && n < prompt.length - 1 && cached[n] === prompt[n]) n++;
    return n;
  };

  /** The persistable prefix of `prompt`: its first system message (see stablePrefix). */
  function persistablePrefix(messages: ChatMessage[], prompt: Token[]): Token[] | undefined {
    const first = messages[0];
    if (first?.role !== "system") return undefined;
    if (firstMessageTokens?.text !== first.content) {
      const alone = chat.chatWrapper.generateContextState({ chatHistory: [{ type: "system", text: first.content }] });
      firstMessageTokens = { text: first.content, tokens: alone.contextText.tokenize(loadedModel.tokenizer) };
    }
    return stablePrefix(prompt, firstMessageTokens.tokens, minPrefixTokens);
  }

  /** Brings the prompt's persistable prefix into the KV cache: from disk, or evaluated and saved. */
  async function preparePrefix(messages: ChatMessage[], prompt: Token[]): Promise<void> {
    lastPromptState = undefined;
    if (!states) return;
    const prefix = persistablePrefix(messages, prompt);
    if (!prefix) return;
    const cachedLength = cachedPrefixLength(prompt);
    if (cachedLength >= prefix.length) return;
    modelIdentity ??= modelFileIdentity(modelPath);
    let model: ModelIdentity;
    try {
      model = await modelIdentity;
    } catch (error) {
      modelIdentity = undefined;
      info.notes.push(`Prompt-Zustand nicht nutzbar: Modelldatei nicht lesbar (${errorText(error)}).`);
      return;
    }
    const identity = { model, settings: stateSettings };
    const key = promptStateKey(identity, prefix);
    const prepared = await warm?.restore(sequence, model, stateSettings, key, prefix);
    if (prepared?.note) info.notes.push(prepared.note);
    if (prepared?.action === "loaded") {
      lastPromptState = prepared;
      return;
    }
    const restored = await states.restore(sequence, key, prefix);
    if (restored?.note) info.notes.push(restored.note);
    const note = [prepared?.note, restored?.note].filter(Boolean).join(" ") || undefined;
    if (restored?.action === "loaded") {
      lastPromptState = note ? { ...restored, note } : restored;
      return;
    }
    // Evaluate just the prefix (the generation reuses it), then save it for the next process.
    const keep = restored || prepared ? 0 : cachedLength;
    if (sequence.nextTokenIndex > keep) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    const evaluateStarted = performance.now();
    await sequence.evaluateWithoutGeneratingNewTokens(prefix.slice(keep));
    const evaluateMs = performance.now() - evaluateStarted;
    const saved = { ...(await states.save(sequence, identity, prefix, modelPath)), evaluateMs };
    if (saved.note) info.notes.push(saved.note);
    lastPromptState = note && saved.action === "saved" ? { ...saved, note } : saved;
  }

  async function generate(messages: ChatMessage[], options: GenerationOptions, grammar?: JsonGrammar) {
    checkMessages(messages);
    const history = toHistory(messages);
    const prompt = promptTokens(history);
    const promptLength = prompt.length;
    const reserve = options.maxTokens ?? 1;
    if (promptLength + reserve > loadedContext.contextSize) throw new ContextOverflowError(promptLength, reserve, loadedContext.contextSize);
    const before = sequence.tokenMeter.getState();
    const clock = new CallClock();
    const inMemory = cachedPrefixLength(prompt);
    await preparePrefix(messages, prompt);
    // Reused = the prompt's prefix already in the KV cache: from the previous call, or loaded from disk.
    const reused = lastPromptState?.action === "loaded" ? cachedPrefixLength(prompt) : Math.min(inMemory, cachedPrefixLength(prompt));
    const response = await chat.generateResponse(history, {
      maxTokens: options.maxTokens,
      temperature: options.temperature,
      topK: options.topK,
      topP: options.topP,
      minP: options.minP,
      seed: options.seed,
      repeatPenalty: options.repeatPenalty !== undefined && options.repeatPenalty !== 1 ? { penalty: options.repeatPenalty } : undefined,
      signal: options.signal,
      grammar,
      onTextChunk: (text) => {
        clock.markFirstToken();
        options.onTextChunk?.(text);
      },
    });
    const after = sequence.tokenMeter.getState();
    const evaluated = after.usedInputTokens - before.usedInputTokens;
    const meter = clock.finish({
      promptTokensEvaluated: evaluated,
      promptTokensReused: reused,
      generatedTokens: after.usedOutputTokens - before.usedOutputTokens,
    });
    lastMeter = meter;
    options.onMeter?.(meter);
    return { text: response.response, meter };
  }

  return {
    info,
    get lastMeter() {
      return lastMeter;
    },
    get lastPromptState() {
      return lastPromptState;
    },
    chat(messages: ChatMessage[], options: GenerationOptions = {}): Promise<ChatResult> {
      return queue.run(() => generate(messages, options));
    },
    generateJson<T>(schema: JsonSchema, messages: ChatMessage[], options: GenerationOptions = {}): Promise<T> {
      return queue.run(async () => {
        const key = JSON.stringify(schema);
        let grammar = grammars.get(key);
        if (!grammar) {
          checkSchema(schema);
          try {
            // As node-llama-cpp's JSON-schema grammar does, plus character-class patterns (gbnf.ts); ajv checks the output.
            grammar = await llama.createGrammar({ grammar: await jsonSchemaGbnf(llama, schema), stopGenerationTriggers: ["\n".repeat(4)], trimWhitespaceSuffix: true });
          } catch (err) {
            throw new JsonNotSupportedError(`JSON-Schema wird von der Grammatik nicht unterstützt: ${errorText(err)}`);
          }
          grammars.set(key, grammar);
        }
        const jsonGrammar = grammar;
        return generateValidJson<T>(schema, { attempts: options.jsonAttempts, seed: options.seed, temperature: options.temperature }, async (sampling) => {
          return (await generate(messages, { ...options, ...sampling }, jsonGrammar)).text;
        });
      });
    },
    renderPrompt(messages: ChatMessage[]): string {
      ensureOpen();
      checkMessages(messages);
      return chat.chatWrapper.generateContextState({ chatHistory: toHistory(messages) }).contextText.toString();
    },
    countTokens(text: string): number {
      ensureOpen();
      return loadedModel.tokenize(text).length;
    },
    countPromptTokens(messages: ChatMessage[]): number {
      ensureOpen();
      checkMessages(messages);
      return promptTokens(toHistory(messages)).length;
    },
    resetCache(): Promise<void> {
      return queue.run(() => sequence.clearHistory());
    },
    createToolCaller(options = {}): Promise<LocalToolCaller> {
      if (closed) return Promise.reject(closedError());
      return createLocalToolCaller(sequence, { ...options, queue });
    },
    async dispose(): Promise<void> {
      if (closed) return;
      closed = true;
      queue.close(closedError);
      chat.dispose({ disposeSequence: true });
      await loadedContext.dispose();
      await loadedModel.dispose();
      await llama.dispose();
    },
  };
}
