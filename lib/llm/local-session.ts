// One loaded in-process model and everything that lives as long as it: context sequence, chat, call
// queue, the last call's meter and whether it was disposed.
import type {
  ChatHistoryItem,
  Llama,
  LlamaChat,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
  Token,
} from "node-llama-cpp";
import { forParticipants } from "../notebook/notices.js";
import { dateFreeChatWrapper } from "./chat-template.js";
import { ModelClosedError } from "./errors.js";
import type { OpenedModel } from "./local-open.js";
import { CallQueue } from "./meter.js";
import type { GenerationMeter, InProcessLlmInfo } from "./types.js";

const GPU_NAMES: Record<string, string> = { cuda: "CUDA", vulkan: "Vulkan", metal: "Metal", cpu: "CPU" };

/** The model, its one context sequence and chat, and the state of the calls made on them. */
export class LocalSession {
  /** Calls run one at a time: they share the sequence (and its KV cache). */
  readonly queue = new CallQueue();
  /** Meter of the last finished generation. */
  lastMeter: GenerationMeter | undefined;
  private closed = false;

  private constructor(
    readonly llama: Llama,
    readonly model: LlamaModel,
    readonly context: LlamaContext,
    readonly sequence: LlamaContextSequence,
    readonly chat: LlamaChat,
    readonly modelPath: string,
    readonly info: InProcessLlmInfo,
    private readonly releaseLlama: () => Promise<void>,
  ) {}

  /** Takes over an opened model: creates the chat on its context's sequence and describes the result. */
  static async start(opened: OpenedModel): Promise<LocalSession> {
    const { nlc, llama, model, context } = opened;
    const sequence = context.getSequence();
    const chat = new nlc.LlamaChat({ contextSequence: sequence, chatWrapper: dateFreeChatWrapper(nlc, model) });
    // VRAM this model and its context took (the device may be shared with other processes).
    const vramUsedBytes = Math.max(0, (await llama.getVramState()).used - opened.vramBefore);
    const info: InProcessLlmInfo = {
      backend: "node-llama-cpp",
      gpu: GPU_NAMES[llama.gpu === false ? "cpu" : llama.gpu] ?? String(llama.gpu),
      modelPath: opened.modelPath,
      modelName: model.fileInfo.metadata.general?.name ?? undefined,
      gpuLayersOffloaded: model.gpuLayers,
      gpuLayersTotal: model.fileInsights.totalLayers,
      vramUsedBytes,
      contextSize: context.contextSize,
      threads: opened.threads,
      chatWrapper: chat.chatWrapper.wrapperName,
      notes: opened.notes,
    };
    return new LocalSession(llama, model, context, sequence, chat, opened.modelPath, info, opened.releaseLlama);
  }

  /** The tokens the chat template makes of `history`. */
  promptTokens(history: ChatHistoryItem[]): Token[] {
    return this.chat.chatWrapper
      .generateContextState({ chatHistory: history })
      .contextText.tokenize(this.model.tokenizer);
  }

  /** Length of the prompt's prefix that is already in the KV cache. */
  cachedPrefixLength(prompt: Token[]): number {
    const cached = this.sequence.contextTokens;
    let n = 0;
    while (n < cached.length && n < prompt.length - 1 && cached[n] === prompt[n]) n++;
    return n;
  }

  /** After dispose() (a notebook's cleanup cell) every use says so in German instead of DisposedError. */
  closedError(): Error {
    return forParticipants(new ModelClosedError());
  }

  /** Whether dispose() has run. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Throws the German ModelClosedError after dispose(). */
  ensureOpen(): void {
    if (this.closed) throw this.closedError();
  }

  /** Rejects queued calls with ModelClosedError and frees chat, context, model and its share of the binding (once). */
  async dispose(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.queue.close(() => this.closedError());
    this.chat.dispose({ disposeSequence: true });
    await this.context.dispose();
    await this.model.dispose();
    await this.releaseLlama();
  }
}
