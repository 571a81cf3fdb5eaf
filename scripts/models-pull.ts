// `npm run models:pull [-- <model-id>] [-- --list]` — downloads a workshop GGUF into MODELS_DIR with
// node-llama-cpp's own downloader (progress bar, resumable). Needs internet (Hugging Face).
import { createModelDownloader } from "node-llama-cpp";
import { existsSync } from "node:fs";
import { loadConfig } from "../lib/config.js";
import { MODEL_CHOICES, modelChoicePath } from "../lib/llm/index.js";

const args = process.argv.slice(2);
if (args.includes("--list") || args.includes("--help")) {
  console.log("Verfügbare Modelle / available models:");
  for (const m of MODEL_CHOICES) console.log(`  ${m.id.padEnd(14)} ~${m.approxSizeGb} GB  ${m.fileName}\n  ${"".padEnd(14)} ${m.note}`);
  console.log("\nnpm run models:pull -- <id>   (default: " + MODEL_CHOICES[0]?.id + ")");
  process.exit(0);
}
const id = args.find((a) => !a.startsWith("--")) ?? MODEL_CHOICES[0]?.id;
const choice = MODEL_CHOICES.find((m) => m.id === id);
if (!choice) {
  console.error(`Unbekanntes Modell "${id}". Wähle eines von: ${MODEL_CHOICES.map((m) => m.id).join(", ")}`);
  process.exit(2);
}
const config = loadConfig();
const target = modelChoicePath(choice);
if (existsSync(target)) {
  console.log(`Schon vorhanden / already there: ${target}`);
  process.exit(0);
}
console.log(`Lade ${choice.id} (~${choice.approxSizeGb} GB) nach ${config.modelsDir} …`);
try {
  const downloader = await createModelDownloader({
    modelUri: choice.uri,
    dirPath: config.modelsDir,
    fileName: choice.fileName,
    showCliProgress: true,
  });
  const path = await downloader.download();
  console.log(`\nFertig: ${path}`);
  if (choice.id !== MODEL_CHOICES[0]?.id) console.log(`Nutzen mit: LLM_MODEL_PATH=${path}`);
} catch (err) {
  console.error(
    `\nDownload fehlgeschlagen: ${(err as Error).message}\n` +
      `Ohne Internet (oder ohne Zugang zu huggingface.co): die Datei ${choice.fileName} von einem USB-Stick o. Ä.\n` +
      `nach ${target} kopieren, oder LLM_MODEL_PATH=/pfad/zur/datei.gguf setzen.\n` +
      `Download failed. Offline: copy ${choice.fileName} to ${target} or set LLM_MODEL_PATH.`,
  );
  process.exit(1);
}
