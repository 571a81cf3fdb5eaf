// Practice mode and "the model is missing" — one copy for `npm run workshop`, `npm start` and
// `npm run doctor`: the switch, its environment, and the German ways out (download, USB stick, class
// server, and practice mode for a dry run).
import { existsSync, statSync } from "node:fs";
import { DEFAULT_LLM_FILE, loadConfig } from "../../../lib/config.js";
import { embeddingModelFiles } from "../../../lib/rag/index.js";
import { testEnvironment } from "../../dev/test-env.js";

/** The practice switch, the same for every entry point. */
export const PRACTICE_FLAGS = ["--uebung", "--übung", "--practice"];

/** What an entry point prints when practice mode is on. */
export const PRACTICE_LINE = "Übungsmodus: winzige Zufallsmodelle aus models/tiny, Reisedaten offline – die Antworten sind Kauderwelsch.";

/** The rehearsal switch (scripted answers for the notebooks' own questions). */
export const PROBE_FLAGS = ["--probe", "--probelauf"];

/** What an entry point prints in rehearsal mode. */
export const PROBE_LINE = "Probelauf: vorgespielte Antworten aus dem Drehbuch der Notebooks – echte Tools, Server, Freigaben und Diagramme.";

/**
 * The environment rehearsal mode runs with: WORKSHOP_PROBE=1 (no language model is loaded), the configured
 * embedding model when it is there, else the tiny one (with offline travel data, as in practice mode).
 */
export async function probeEnvironment(): Promise<NodeJS.ProcessEnv> {
  if (embeddingModelFiles().missing.length === 0) return { ...(await testEnvironment({ tinyModels: false })), WORKSHOP_PROBE: "1" };
  return { ...(await testEnvironment({ tinyModels: true })), WORKSHOP_PROBE: "1" };
}

/** The environment practice mode runs with: the test set-up (tiny models, offline travel data) plus WORKSHOP_PRACTICE=1. */
export async function practiceEnvironment(): Promise<NodeJS.ProcessEnv> {
  return { ...(await testEnvironment({ tinyModels: true })), WORKSHOP_PRACTICE: "1" };
}

/** The command a participant runs; the hints repeat it. */
export type Entry = "workshop" | "start";
const RUN: Record<Entry, string> = { workshop: "npm run workshop", start: 'npm start -- "<Frage>"' };
const PRACTICE_RUN: Record<Entry, string> = { workshop: "npm run workshop -- --uebung", start: 'npm start -- --uebung "<Frage>"' };

/** The settings for the class server (the address comes from the instructor). */
export const CLASS_SERVER_ENV = "LLM_BACKEND=openai LLM_BASE_URL=http://<klassen-server>:8080/v1";

/** The dry run without a model, for these entry points. */
export function practiceHint(entries: Entry[]): string {
  const runs = entries.map((e) => PRACTICE_RUN[e]).join(" bzw. ");
  return `Nur zum Durchklicken ohne Modell: ${runs} (winziges Zufallsmodell, Antworten sind Kauderwelsch).`;
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * German lines that say what is missing and the ways out (empty when the LLM is ready to load).
 * `modelPath`: a path the user named on the command line (`--model`), instead of the configured one.
 */
export function modelProblems(env: NodeJS.ProcessEnv, entry: Entry, modelPath?: string): string[] {
  const config = loadConfig(env);
  if (config.llmBackend === "openai") {
    return config.llmBaseUrl ? [] : ["LLM_BACKEND=openai ist gesetzt, aber LLM_BASE_URL fehlt (z. B. LLM_BASE_URL=http://<klassen-server>:8080/v1)."];
  }
  const path = modelPath ?? config.llmModelPath;
  if (isFile(path)) return [];
  const named = modelPath !== undefined ? "--model" : config.llmModelPathFromEnv ? "LLM_MODEL_PATH" : undefined;
  return [
    `Das Sprachmodell fehlt: ${path}`,
    named
      ? `Stimmt der Pfad in ${named}? Ohne ${named} gilt das Standardmodell – eine der drei Möglichkeiten reicht:`
      : "So geht es weiter – eine der drei Möglichkeiten reicht:",
    "  1. Mit Internet herunterladen: npm run models:pull   (Llama 3.1 8B, ca. 4,9 GB)",
    `  2. Vom USB-Stick der Kursleitung: die Datei ${DEFAULT_LLM_FILE} nach ${config.modelsDir}/ kopieren.`,
    `  3. Den Klassen-Server nutzen: ${CLASS_SERVER_ENV} ${RUN[entry]}`,
    practiceHint([entry]),
  ];
}
