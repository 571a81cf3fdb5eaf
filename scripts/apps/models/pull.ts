// `npm run models:pull` — downloads the workshop models into MODELS_DIR: a GGUF LLM with node-llama-cpp's
// downloader (progress bar, resumable) and the embedding model for Teil 2 (EMBEDDING_MODEL) with
// transformers.js into `<MODELS_DIR>/<id>/`, the folder the embedder loads it from. Needs internet
// (Hugging Face); files already there are not downloaded again.
//
//   npm run models:pull [-- <llm-id>] [--no-embedding | --embedding-only] [--embedding-dtype <q8|fp32|…>] [--list]
//
// With MODELS_OFFLINE=1 nothing is downloaded: it only checks the files and, if some are missing, fails
// at once saying which files to put where.
import { germanNumber } from "../../../lib/util.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../../lib/config.js";
import { MODEL_CHOICES, modelChoicePath, type ModelChoice } from "../../../lib/llm/index.js";
import {
  DEFAULT_EMBEDDING_DTYPE,
  EMBEDDING_DTYPES,
  embeddingModelFiles,
  pullEmbeddingModel,
  RagError,
  type EmbeddingDtype,
  type EmbeddingModelFiles,
} from "../../../lib/rag/index.js";
import { errorText } from "../../../lib/util.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";

export interface PullOptions {
  /** The LLM to fetch, or undefined with --embedding-only. */
  llm: ModelChoice | undefined;
  /** Whether to fetch the embedding model (false with --no-embedding). */
  embedding: boolean;
  /** Undefined: the default (q8), or fp32 weights that are already there. */
  embeddingDtype: EmbeddingDtype | undefined;
  list: boolean;
}

const PULL_OPTIONS = {
  list: { type: "boolean", default: false, help: "zeigt alle Sprachmodelle" },
  "no-embedding": { type: "boolean", default: false, help: "nur das Sprachmodell" },
  "embedding-only": { type: "boolean", default: false, help: "nur das Embedding-Modell (EMBEDDING_MODEL)" },
  "embedding-dtype": { type: "string", value: "DTYPE", help: `Gewichte des Embedding-Modells (Standard: ${DEFAULT_EMBEDDING_DTYPE}; ${EMBEDDING_DTYPES.join(", ")})` },
} as const;

export const command = defineCommand({
  name: "models:pull",
  invocation: "npm run models:pull --",
  summary: `Lädt das Sprachmodell <llm-id> (Standard: ${MODEL_CHOICES[0]?.id}) und das Embedding-Modell.`,
  options: PULL_OPTIONS,
  positionals: "[<llm-id>]",
  notes: [
    "Verfügbare Sprachmodelle:",
    ...MODEL_CHOICES.map((m) => `  ${m.id.padEnd(14)} ~${germanNumber(m.approxSizeGb, 1)} GB  ${m.fileName}\n  ${"".padEnd(14)} ${m.note}`),
    "MODELS_OFFLINE=1: lädt nichts, prüft nur die Dateien",
  ].join("\n"),
  run: ({ argv }) => main(argv),
});
export const USAGE = command.usage;

/** Parses the command line; throws UsageError with a German + English message. */
export function parsePullArgs(argv: string[]): PullOptions {
  const { values, positionals } = parseArgsGerman({
    args: argv,
    allowPositionals: true,
    options: command.options,
  }, USAGE);
  if (values["no-embedding"] && values["embedding-only"]) {
    throw new UsageError("--no-embedding und --embedding-only schließen sich aus. / --no-embedding and --embedding-only exclude each other.");
  }
  if (positionals.length > 1) throw new UsageError(`Nur ein LLM auf einmal, erhalten: ${positionals.join(", ")}. / One LLM at a time.\n${USAGE}`);
  if (values["embedding-only"] && positionals.length > 0) {
    throw new UsageError(`--embedding-only lädt kein LLM; "${positionals[0]}" weglassen. / --embedding-only fetches no LLM.`);
  }
  const id = positionals[0] ?? MODEL_CHOICES[0]?.id;
  const choice = MODEL_CHOICES.find((m) => m.id === id);
  if (!choice) throw new UsageError(`Unbekanntes Modell "${id}". Wähle eines von / choose one of: ${MODEL_CHOICES.map((m) => m.id).join(", ")}`);
  const dtype = values["embedding-dtype"];
  if (dtype !== undefined && !(EMBEDDING_DTYPES as string[]).includes(dtype)) {
    throw new UsageError(`Unbekannter --embedding-dtype "${dtype}"; erlaubt / allowed: ${EMBEDDING_DTYPES.join(", ")}.`);
  }
  if (values["no-embedding"] && values["embedding-dtype"] !== undefined) {
    throw new UsageError("--embedding-dtype passt nicht zu --no-embedding. / --embedding-dtype makes no sense with --no-embedding.");
  }
  return {
    llm: values["embedding-only"] ? undefined : choice,
    embedding: !values["no-embedding"],
    embeddingDtype: dtype as EmbeddingDtype | undefined,
    list: values.list,
  };
}

function printList(): void {
  console.log("Verfügbare Sprachmodelle:");
  for (const m of MODEL_CHOICES) console.log(`  ${m.id.padEnd(14)} ~${germanNumber(m.approxSizeGb, 1)} GB  ${m.fileName}\n  ${"".padEnd(14)} ${m.note}`);
  const config = loadConfig();
  console.log(`\nEmbedding-Modell: ${config.embeddingModel} (EMBEDDING_MODEL), Gewichte ${DEFAULT_EMBEDDING_DTYPE}, nach ${config.modelsDir}`);
  console.log(`\n${USAGE}`);
}

/** The offline message: what is missing and where to put it (German, then English). */
function offlineMessage(llm: { choice: ModelChoice; target: string } | undefined, embedding: EmbeddingModelFiles | undefined): string {
  const de: string[] = ["MODELS_OFFLINE=1 ist gesetzt: models:pull lädt nichts herunter. Es fehlen Dateien:"];
  const en: string[] = ["MODELS_OFFLINE=1 forbids downloads, and files are missing:"];
  if (llm) {
    de.push(`  • LLM ${llm.choice.id}: die Datei ${llm.choice.fileName} nach ${llm.target} kopieren (z. B. vom USB-Stick).`);
    en.push(`  • LLM ${llm.choice.id}: copy ${llm.choice.fileName} to ${llm.target}.`);
  }
  if (embedding) {
    const files = embedding.missing.map((f) => join(embedding.dir, f));
    de.push(`  • Embedding-Modell ${embedding.model} (dtype ${embedding.dtype}): den Modellordner nach ${embedding.dir} kopieren; es fehlen:`);
    de.push(...files.map((f) => `      ${f}`));
    en.push(`  • Embedding model ${embedding.model} (dtype ${embedding.dtype}): copy the model folder to ${embedding.dir} (missing: ${embedding.missing.join(", ")}).`);
  }
  de.push("  → Mit Internet: MODELS_OFFLINE nicht setzen und npm run models:pull erneut ausführen.");
  en.push("  With internet: unset MODELS_OFFLINE and run npm run models:pull again.");
  return [...de, "", ...en].join("\n");
}

async function pullLlm(choice: ModelChoice, target: string, modelsDir: string): Promise<boolean> {
  console.log(`Lade ${choice.id} (~${choice.approxSizeGb} GB) nach ${modelsDir} …`);
  try {
    const { createModelDownloader } = await import("node-llama-cpp");
    const downloader = await createModelDownloader({ modelUri: choice.uri, dirPath: modelsDir, fileName: choice.fileName, showCliProgress: true });
    const path = await downloader.download();
    console.log(`\nFertig / done: ${path}`);
    if (choice.id !== MODEL_CHOICES[0]?.id) console.log(`Nutzen mit / use with: LLM_MODEL_PATH=${path}`);
    return true;
  } catch (err) {
    console.error(
      `\nDownload fehlgeschlagen: ${errorText(err)}\n` +
        `Ohne Internet (oder ohne Zugang zu huggingface.co): die Datei ${choice.fileName} von einem USB-Stick o. Ä.\n` +
        `nach ${target} kopieren, oder LLM_MODEL_PATH=/pfad/zur/datei.gguf setzen.\n` +
        `Download failed. Offline: copy ${choice.fileName} to ${target} or set LLM_MODEL_PATH.`,
    );
    return false;
  }
}

async function pullEmbedding(files: EmbeddingModelFiles): Promise<boolean> {
  console.log(`Lade Embedding-Modell / downloading embedding model ${files.model} (dtype ${files.dtype}) nach ${files.dir} …`);
  try {
    await pullEmbeddingModel({ model: files.model, dtype: files.dtype, offline: false, progress: true });
    console.log(`Fertig / done: ${files.dir}`);
    return true;
  } catch (error) {
    console.error(`\n${error instanceof RagError ? `${error.name}: ` : ""}${errorText(error)}`);
    return false;
  }
}

/** Runs models:pull; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const options = parsePullArgs(argv); // a wrong command line throws a UsageError (scripts/kit.ts prints it)
  if (options.list) {
    printList();
    return 0;
  }
  const config = loadConfig();
  const llm = options.llm ? { choice: options.llm, target: modelChoicePath(options.llm) } : undefined;
  const llmMissing = llm !== undefined && !existsSync(llm.target);
  let embedding: EmbeddingModelFiles | undefined;
  if (options.embedding) {
    try {
      embedding = embeddingModelFiles({ dtype: options.embeddingDtype });
    } catch (error) {
      console.error(errorText(error));
      return 1;
    }
  }
  const embeddingMissing = embedding !== undefined && embedding.missing.length > 0;

  if (llm && !llmMissing) console.log(`Schon vorhanden / already there: ${llm.target}`);
  if (embedding && !embeddingMissing) console.log(`Schon vorhanden / already there: ${embedding.dir} (${embedding.model}, dtype ${embedding.dtype})`);
  if (!llmMissing && !embeddingMissing) return 0;

  if (embedding && embeddingMissing && !embedding.downloadable) {
    console.error(
      `EMBEDDING_MODEL zeigt auf den lokalen Ordner ${embedding.dir}; dort fehlt: ${embedding.missing.join(", ")}.\n` +
        `  → Die Dateien dorthin kopieren, oder EMBEDDING_MODEL auf eine Modell-ID setzen (z. B. Xenova/paraphrase-multilingual-MiniLM-L12-v2).\n` +
        `EMBEDDING_MODEL is a local folder (${embedding.dir}) missing ${embedding.missing.join(", ")}; a local folder is not downloaded.`,
    );
    return 1;
  }
  if (config.modelsOffline) {
    console.error(offlineMessage(llmMissing ? llm : undefined, embeddingMissing ? embedding : undefined));
    return 1;
  }
  let ok = true;
  if (llm && llmMissing) ok = (await pullLlm(llm.choice, llm.target, config.modelsDir)) && ok;
  if (embedding && embeddingMissing) ok = (await pullEmbedding(embedding)) && ok;
  return ok ? 0 : 1;
}

