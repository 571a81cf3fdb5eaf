// Typed errors of lib/llm. Each message says what to do, in German (participants read them).
import { KitError } from "../errors.js";

/** The base of lib/llm's typed errors (catch this for any of them); `retryable` says whether asking again can help. */
export class LlmError extends KitError {
  override name = "LlmError";
  /** False when asking again cannot help (missing model, server down, prompt too long, bad input). */
  override readonly retryable: boolean = true;
}

/** The GGUF file is not where it should be. */
export class ModelNotFoundError extends LlmError {
  override name = "ModelNotFoundError";
  override readonly retryable: boolean = false;
  /** `pullId`: the models:pull id that downloads exactly this file, when there is one. */
  constructor(
    readonly modelPath: string,
    readonly modelsDir: string,
    readonly pullId?: string,
  ) {
    super(
      pullId
        ? `Modelldatei nicht gefunden: ${modelPath}\n` +
            `  → Mit Internet: npm run models:pull -- ${pullId}  (lädt die Datei nach ${modelsDir})\n` +
            `  → Offline: die GGUF-Datei nach ${modelPath} kopieren oder LLM_MODEL_PATH=/pfad/zur/datei.gguf setzen.`
        : `Modelldatei nicht gefunden: ${modelPath}\n` +
            `  → Stimmt der Pfad in LLM_MODEL_PATH bzw. modelPath? Die Datei muss dort liegen.\n` +
            `  → Oder LLM_MODEL_PATH entfernen: dann gilt das Standardmodell aus ${modelsDir} (npm run models:pull lädt es).`,
    );
  }
}

/** The file exists but node-llama-cpp cannot load it (corrupt, not a GGUF, unsupported architecture, no memory). */
export class ModelLoadError extends LlmError {
  override name = "ModelLoadError";
  override readonly retryable: boolean = false;
  constructor(
    readonly modelPath: string,
    readonly reason: string,
  ) {
    super(
      `Das Modell konnte nicht geladen werden: ${modelPath}\n  Grund: ${reason}\n` +
        `  → Ist die Datei vollständig heruntergeladen und eine GGUF-Datei? Ggf. löschen und neu laden (npm run models:pull).`,
    );
  }
}

/** The GPU backend the user asked for (LLM_GPU / gpu option) is not usable on this machine. */
export class GpuBackendError extends LlmError {
  override name = "GpuBackendError";
  constructor(
    readonly gpu: string,
    readonly reason: string,
  ) {
    super(
      `GPU-Backend „${gpu}“ ist auf diesem Rechner nicht nutzbar.\n  Grund: ${reason}\n` +
        `  → LLM_GPU=auto wählt selbst (CUDA, Vulkan, Metal oder CPU); LLM_GPU=cpu erzwingt die CPU.`,
    );
  }
}

/** The prompt (system prompt + history + question) does not fit into the context window. */
export class ContextOverflowError extends LlmError {
  override name = "ContextOverflowError";
  override readonly retryable: boolean = false;
  /** `where`: "server" when a class server refused the prompt (its context per slot is fixed by the instructor). */
  constructor(
    readonly promptTokens: number,
    readonly reservedForAnswer: number,
    readonly contextSize: number,
    readonly where: "local" | "server" = "local",
  ) {
    super(
      where === "server"
        ? `Der Prompt ist zu lang für den Klassen-Server: ${promptTokens} Tokens ≥ Kontext ${contextSize} pro Platz.\n` +
            `  → Verlauf kürzen oder weniger RAG-Kontext (kleineres k); mehr Kontext pro Platz kann nur die Kursleitung einstellen (llama-server -c … --parallel …).`
        : `Der Prompt ist zu lang: ${promptTokens} Tokens + ${reservedForAnswer} für die Antwort > Kontext ${contextSize}.\n` +
            `  → Verlauf kürzen, weniger RAG-Kontext (kleineres k) oder größeren Kontext (LLM_CONTEXT_SIZE) wählen.`,
    );
  }
}

/** The OpenAI-compatible server cannot be reached or answered with an error. */
export class LlmConnectionError extends LlmError {
  override name = "LlmConnectionError";
  override readonly retryable: boolean = false;
  constructor(
    readonly url: string,
    readonly reason: string,
    readonly status?: number,
  ) {
    super(
      `LLM-Server nicht erreichbar oder Fehler: ${url}\n  Grund: ${reason}\n` +
        `  → Läuft der Server (llama-server, vLLM, Ollama)? Stimmt LLM_BASE_URL (z. B. http://127.0.0.1:8080/v1)?`,
    );
  }
}

/** The server did not finish its answer (connect + whole body) within the request's time limit. */
export class LlmTimeoutError extends LlmError {
  override name = "LlmTimeoutError";
  override readonly retryable: boolean = false;
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(
      `Der LLM-Server hat nicht innerhalb von ${Math.round(timeoutMs / 100) / 10} s vollständig geantwortet: ${url}\n` +
        `  → Ist der Server überlastet (alle Plätze belegt)? Später noch einmal versuchen oder ein längeres Zeitlimit (timeoutMs) setzen.`,
    );
  }
}

/** The answer (whole body) or one streamed event is larger than the backend accepts. */
export class LlmResponseTooLargeError extends LlmError {
  override name = "LlmResponseTooLargeError";
  override readonly retryable: boolean = false;
  constructor(
    readonly url: string,
    readonly part: "Antwort" | "Stream-Ereignis",
    readonly limitBytes: number,
  ) {
    super(
      `${part === "Antwort" ? "Die Antwort" : "Ein Stream-Ereignis"} des LLM-Servers ist größer als ${Math.round(limitBytes / 1024 / 1024)} MB: ${url}\n` +
        `  → Stimmt LLM_BASE_URL (ein OpenAI-kompatibler Server)? Sonst mit kleinerem maxTokens noch einmal versuchen.`,
    );
  }
}

/** The stream ended without its end marker (`data: [DONE]` or a finish_reason): the answer may be cut off. */
export class LlmStreamIncompleteError extends LlmError {
  override name = "LlmStreamIncompleteError";
  constructor(
    readonly url: string,
    readonly partialText: string,
  ) {
    super(
      `Der LLM-Server hat die Verbindung beendet, bevor die Antwort vollständig war: ${url}\n` +
        `  → Die Antwort ist abgeschnitten. Noch einmal versuchen; passiert es immer wieder, den Server neu starten.`,
    );
  }
}

/** The model's output could not be turned into a value that matches the schema. */
export class LlmOutputError extends LlmError {
  override name = "LlmOutputError";
  constructor(
    readonly output: string,
    readonly reason: string,
    readonly attempts: number,
  ) {
    super(
      `Die Modellausgabe passt nach ${attempts === 1 ? "einem Versuch" : `${attempts} Versuchen`} nicht zum JSON-Schema: ${reason}\n` +
        `  Ausgabe: ${output.length > 300 ? output.slice(0, 300) + " …" : output}`,
    );
  }
}

/** The caller passed something the LLM layer cannot use (empty messages, wrong roles, bad schema). */
export class LlmInputError extends LlmError {
  override name = "LlmInputError";
  override readonly retryable: boolean = false;
}

/** The backend cannot constrain output to this JSON schema; callers may fall back to plain chat. */
export class JsonNotSupportedError extends LlmInputError {
  override name = "JsonNotSupportedError";
}

/** The model was unloaded (dispose(), e.g. a notebook's cleanup cell) and is used again. */
export class ModelClosedError extends LlmError {
  override name = "ModelClosedError";
  override readonly retryable: boolean = false;
  constructor() {
    super("Das Modell wurde geschlossen – führe die Set-up-Zelle oben noch einmal aus.");
  }
}
