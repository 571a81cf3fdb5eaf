// Typed errors of lib/llm. Each message says what to do; German first (participants), then English.

export class LlmError extends Error {
  override name = "LlmError";
}

/** The GGUF file is not where it should be. */
export class ModelNotFoundError extends LlmError {
  override name = "ModelNotFoundError";
  /** `pullId`: the models:pull id that downloads exactly this file, when there is one. */
  constructor(readonly modelPath: string, readonly modelsDir: string, readonly pullId?: string) {
    super(
      pullId
        ? `Modelldatei nicht gefunden: ${modelPath}\n` +
            `  → Mit Internet: npm run models:pull -- ${pullId}  (lädt die Datei nach ${modelsDir})\n` +
            `  → Offline: die GGUF-Datei nach ${modelPath} kopieren oder LLM_MODEL_PATH=/pfad/zur/datei.gguf setzen.\n` +
            `Model file not found: ${modelPath}. Run \`npm run models:pull -- ${pullId}\` (needs internet), or copy the ` +
            `GGUF file there, or set LLM_MODEL_PATH to its path.`
        : `Modelldatei nicht gefunden: ${modelPath}\n` +
            `  → Stimmt der Pfad in LLM_MODEL_PATH bzw. modelPath? Die Datei muss dort liegen.\n` +
            `  → Oder LLM_MODEL_PATH entfernen: dann gilt das Standardmodell aus ${modelsDir} (npm run models:pull lädt es).\n` +
            `Model file not found: ${modelPath}. Check LLM_MODEL_PATH / modelPath, or unset it to use the default model ` +
            `in ${modelsDir} (\`npm run models:pull\` downloads it).`,
    );
  }
}

/** The file exists but node-llama-cpp cannot load it (corrupt, not a GGUF, unsupported architecture, no memory). */
export class ModelLoadError extends LlmError {
  override name = "ModelLoadError";
  constructor(readonly modelPath: string, readonly reason: string) {
    super(
      `Das Modell konnte nicht geladen werden: ${modelPath}\n  Grund: ${reason}\n` +
        `  → Ist die Datei vollständig heruntergeladen und eine GGUF-Datei? Ggf. löschen und neu laden (npm run models:pull).\n` +
        `Could not load the model ${modelPath}: ${reason}. Is it a complete GGUF file? Delete it and download again.`,
    );
  }
}

/** The GPU backend the user asked for (LLM_GPU / gpu option) is not usable on this machine. */
export class GpuBackendError extends LlmError {
  override name = "GpuBackendError";
  constructor(readonly gpu: string, readonly reason: string) {
    super(
      `GPU-Backend „${gpu}“ ist auf diesem Rechner nicht nutzbar.\n  Grund: ${reason}\n` +
        `  → LLM_GPU=auto wählt selbst (CUDA, Vulkan, Metal oder CPU); LLM_GPU=cpu erzwingt die CPU.\n` +
        `GPU backend "${gpu}" is not usable here: ${reason}. Set LLM_GPU=auto (picks what works) or LLM_GPU=cpu.`,
    );
  }
}

/** The prompt (system prompt + history + question) does not fit into the context window. */
export class ContextOverflowError extends LlmError {
  override name = "ContextOverflowError";
  constructor(readonly promptTokens: number, readonly reservedForAnswer: number, readonly contextSize: number) {
    super(
      `Der Prompt ist zu lang: ${promptTokens} Tokens + ${reservedForAnswer} für die Antwort > Kontext ${contextSize}.\n` +
        `  → Verlauf kürzen, weniger RAG-Kontext (kleineres k) oder größeren Kontext (LLM_CONTEXT_SIZE) wählen.\n` +
        `Prompt too long: ${promptTokens} tokens + ${reservedForAnswer} for the answer exceed the context of ${contextSize}. ` +
        `Shorten the history, retrieve fewer chunks, or raise LLM_CONTEXT_SIZE.`,
    );
  }
}

/** The OpenAI-compatible server cannot be reached or answered with an error. */
export class LlmConnectionError extends LlmError {
  override name = "LlmConnectionError";
  constructor(readonly url: string, readonly reason: string, readonly status?: number) {
    super(
      `LLM-Server nicht erreichbar oder Fehler: ${url}\n  Grund: ${reason}\n` +
        `  → Läuft der Server (llama-server, vLLM, Ollama)? Stimmt LLM_BASE_URL (z. B. http://127.0.0.1:8080/v1)?\n` +
        `LLM server error at ${url}: ${reason}. Is the server running and LLM_BASE_URL correct?`,
    );
  }
}

/** The model's output could not be turned into a value that matches the schema. */
export class LlmOutputError extends LlmError {
  override name = "LlmOutputError";
  constructor(readonly output: string, readonly reason: string, readonly attempts: number) {
    super(
      `Die Modellausgabe passt nach ${attempts === 1 ? "einem Versuch" : `${attempts} Versuchen`} nicht zum JSON-Schema: ${reason}\n` +
        `  Ausgabe: ${output.length > 300 ? output.slice(0, 300) + " …" : output}\n` +
        `Model output did not match the JSON schema after ${attempts} attempt(s): ${reason}`,
    );
  }
}

/** The caller passed something the LLM layer cannot use (empty messages, wrong roles, bad schema). */
export class LlmInputError extends LlmError {
  override name = "LlmInputError";
}
