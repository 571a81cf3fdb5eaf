// Human-readable report of a loaded model (the "offload report" Teil 1 shows).
import type { LlmInfo, ServerLlmInfo } from "./types.js";

/** The German offload report of a loaded model: backend, model, layers on the GPU, VRAM, context, threads, notes. */
export function describeLlm(info: LlmInfo): string {
  if (info.backend === "openai-compatible") return describeClassServer(info);
  // Rehearsal: no model, no GPU – say so in German instead of the internal backend name.
  if (info.backend === "scripted")
    return ["Modell: keines – vorgespielte Antworten (Probelauf)", ...info.notes.map((n) => `Hinweis: ${n}`)].join(
      "\n",
    );
  const lines = [`Backend: ${info.backend} (${info.gpu})`];
  if (info.modelPath) lines.push(`Modell: ${info.modelName ? `${info.modelName} — ` : ""}${info.modelPath}`);
  else if (info.modelName) lines.push(`Modell: ${info.modelName}`);
  if (info.gpuLayersTotal !== undefined) {
    lines.push(`GPU-Schichten: ${info.gpuLayersOffloaded ?? 0} von ${info.gpuLayersTotal} ausgelagert`);
  }
  if (info.vramUsedBytes !== undefined)
    lines.push(
      `VRAM für Modell und Kontext: ${(info.vramUsedBytes / 2 ** 30).toLocaleString("de-DE", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} GiB`,
    );
  if (info.contextSize !== undefined) lines.push(`Kontextgröße: ${info.contextSize} Tokens`);
  if (info.chatWrapper) lines.push(`Chat-Vorlage: ${info.chatWrapper}`);
  if (info.threads !== undefined) lines.push(`CPU-Threads: ${info.threads}`);
  for (const note of info.notes) lines.push(`Hinweis: ${note}`);
  return lines.join("\n");
}

/** An OpenAI-compatible server (the class GPU server): layers and VRAM are the server's business. */
function describeClassServer(info: ServerLlmInfo): string {
  const lines = [`Backend: Klassen-Server (OpenAI-kompatibel) unter ${info.serverUrl}`];
  if (info.modelName) lines.push(`Modell: ${info.modelName}`);
  lines.push("GPU-Schichten: Klassen-Server – das Modell läuft dort, dieser Laptop rechnet nicht mit");
  for (const note of info.notes) lines.push(`Hinweis: ${note}`);
  return lines.join("\n");
}
