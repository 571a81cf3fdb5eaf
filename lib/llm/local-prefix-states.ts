// Prompt-state caching for the in-process backend: a long first system message is evaluated once, its
// KV state saved, and loaded from a prepared (warm) or saved state by the next process instead.
import type { Token } from "node-llama-cpp";
import esmImport from "../esm.cjs";
import type { KitConfig } from "../config.js";
import { errorText } from "../util.js";
import { templateIdentity } from "./chat-template.js";
import type { LocalLlmOptions } from "./local.js";
import type { LocalSession } from "./local-session.js";
import {
  modelFileIdentity,
  PromptStateCache,
  promptStateKey,
  stablePrefix,
  type ModelIdentity,
  type StateSettings,
} from "./prompt-state.js";
import type { ChatMessage, PromptStateEvent } from "./types.js";
import { llamaCppIdentity, warmStateDir, WarmStates } from "./warm-states.js";

/** Which prompt-state folders and threshold to use (undefined: the config's or the documented default). */
export type PrefixStateOptions = Pick<LocalLlmOptions, "promptStateDir" | "promptStateMinTokens" | "warmStateDir">;

/** Brings a prompt's persistable prefix into the session's KV cache and remembers what it did. */
export class PrefixStates {
  /** What the last call did with the saved prompt state (undefined: no persisted prefix involved). */
  last: PromptStateEvent | undefined;
  private modelIdentity: Promise<ModelIdentity> | undefined;
  private firstMessageTokens: { text: string; tokens: Token[] } | undefined;

  private constructor(
    private readonly session: LocalSession,
    private readonly settings: StateSettings,
    private readonly states: PromptStateCache | undefined,
    private readonly warm: WarmStates | undefined,
    private readonly minPrefixTokens: number,
  ) {}

  /** The prompt-state folders for `session`; with promptStateDir false nothing is read or saved. */
  static async create(session: LocalSession, options: PrefixStateOptions, config: KitConfig): Promise<PrefixStates> {
    const { llama, context, chat } = session;
    const stateDir = options.promptStateDir === undefined ? config.llmStateDir : options.promptStateDir || undefined;
    const states = stateDir ? new PromptStateCache({ dir: stateDir }) : undefined;
    const warmDir = options.warmStateDir === undefined ? warmStateDir(session.modelPath) : options.warmStateDir;
    const warm = states && warmDir ? new WarmStates(warmDir) : undefined;
    const nlc = await esmImport<typeof import("node-llama-cpp")>("node-llama-cpp");
    // Everything that shapes the saved KV state besides the model file and the tokens. Not the GPU: a
    // state made on one machine loads on another (the KV cache's types and layout are the same).
    const settings: StateSettings = {
      llamaCpp: llamaCppIdentity(llama.llamaCppRelease, await nlc.getModuleVersion()),
      template: templateIdentity(chat),
      contextSize: context.contextSize,
      kvCache: [String(context.kvCacheKeyType), String(context.kvCacheValueType)],
      flashAttention: String(context.flashAttention),
    };
    return new PrefixStates(session, settings, states, warm, options.promptStateMinTokens ?? 256);
  }

  /** Brings the prompt's persistable prefix into the KV cache: from disk, or evaluated and saved. */
  async prepare(messages: ChatMessage[], prompt: Token[]): Promise<void> {
    this.last = undefined;
    if (!this.states) return;
    const prefix = this.persistablePrefix(messages, prompt);
    if (!prefix) return;
    const { sequence, info } = this.session;
    const cachedLength = this.session.cachedPrefixLength(prompt);
    if (cachedLength >= prefix.length) return;
    const model = await this.readModelIdentity();
    if (!model) return;
    const identity = { model, settings: this.settings };
    const key = promptStateKey(identity, prefix);
    const prepared = await this.warm?.restore(sequence, model, this.settings, key, prefix);
    if (prepared?.note) info.notes.push(prepared.note);
    if (prepared?.action === "loaded") {
      this.last = prepared;
      return;
    }
    const restored = await this.states.restore(sequence, key, prefix);
    if (restored?.note) info.notes.push(restored.note);
    const note = [prepared?.note, restored?.note].filter(Boolean).join(" ") || undefined;
    if (restored?.action === "loaded") {
      this.last = note ? { ...restored, note } : restored;
      return;
    }
    // Evaluate just the prefix (the generation reuses it), then save it for the next process.
    const keep = restored || prepared ? 0 : cachedLength;
    if (sequence.nextTokenIndex > keep)
      await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
    const evaluateStarted = performance.now();
    await sequence.evaluateWithoutGeneratingNewTokens(prefix.slice(keep));
    const evaluateMs = performance.now() - evaluateStarted;
    const saved = { ...(await this.states.save(sequence, identity, prefix, this.session.modelPath)), evaluateMs };
    if (saved.note) info.notes.push(saved.note);
    this.last = note && saved.action === "saved" ? { ...saved, note } : saved;
  }

  /** The model file's identity (hashed once); undefined with a note when the file cannot be read. */
  private async readModelIdentity(): Promise<ModelIdentity | undefined> {
    this.modelIdentity ??= modelFileIdentity(this.session.modelPath);
    try {
      return await this.modelIdentity;
    } catch (error) {
      this.modelIdentity = undefined;
      this.session.info.notes.push(`Prompt-Zustand nicht nutzbar: Modelldatei nicht lesbar (${errorText(error)}).`);
      return undefined;
    }
  }

  /** The persistable prefix of `prompt`: its first system message (see stablePrefix). */
  private persistablePrefix(messages: ChatMessage[], prompt: Token[]): Token[] | undefined {
    const first = messages[0];
    if (first?.role !== "system") return undefined;
    if (this.firstMessageTokens?.text !== first.content) {
      const alone = this.session.chat.chatWrapper.generateContextState({
        chatHistory: [{ type: "system", text: first.content }],
      });
      this.firstMessageTokens = {
        text: first.content,
        tokens: alone.contextText.tokenize(this.session.model.tokenizer),
      };
    }
    return stablePrefix(prompt, this.firstMessageTokens.tokens, this.minPrefixTokens);
  }
}
