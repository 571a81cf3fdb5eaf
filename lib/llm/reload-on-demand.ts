// "Run All" runs a notebook's clean-up cell, too; a participant who then fixes a task and runs its cell
// again must not find the model gone. After dispose() the model is loaded again by the next call that
// needs it (one German line says so); what needs no generation (token counts) says it is unloaded.
// A model replaced by a load with other settings is retired instead: it stays closed (ModelClosedError),
// so two variables never take turns unloading each other.
import type { LocalLlm } from "./local.js";

export interface ReloadingLlm {
  llm: LocalLlm;
  /** Disposes for good: later calls fail with the model's closed error instead of loading it again. */
  retire(): Promise<void>;
}

/** `first`, but after dispose() the next chat/JSON/tool call loads the model again with `reload`. */
export function reloadOnDemand(
  first: LocalLlm,
  reload: () => Promise<LocalLlm>,
  onDispose: (llm: LocalLlm) => void,
): ReloadingLlm {
  let current = first;
  let disposed = false;
  let retired = false;
  let reloading: Promise<LocalLlm> | undefined;
  const live = (): Promise<LocalLlm> => {
    if (!disposed || retired) return Promise.resolve(current);
    reloading ??= (async () => {
      console.log("Das Modell war entladen (Aufräumen-Zelle) – es wird neu geladen.");
      try {
        current = await reload();
        disposed = false;
        return current;
      } finally {
        reloading = undefined;
      }
    })();
    return reloading;
  };
  const llm: LocalLlm = {
    get info() {
      return current.info;
    },
    get lastMeter() {
      return current.lastMeter;
    },
    get lastPromptState() {
      return current.lastPromptState;
    },
    chat: async (messages, options) => (await live()).chat(messages, options),
    generateJson: async (schema, messages, options) => (await live()).generateJson(schema, messages, options),
    resetCache: async () => (await live()).resetCache(),
    createToolCaller: async (options) => (await live()).createToolCaller(options),
    renderPrompt: (messages) => current.renderPrompt(messages),
    countTokens: (text) => current.countTokens(text),
    countPromptTokens: (messages) => current.countPromptTokens(messages),
    async dispose() {
      if (disposed) return;
      disposed = true;
      onDispose(llm);
      await current.dispose();
    },
  };
  return {
    llm,
    retire: async () => {
      retired = true;
      await llm.dispose();
    },
  };
}
