// `npm run workshop [-- --uebung] [jupyter options]` — opens notebooks/ in Jupyter with the project's
// TypeScript kernel (JupyterLab when installed, else the classic Notebook, Debian: jupyter-notebook).
// Before Jupyter opens it builds lib for the notebooks when stale and checks the model, and says in
// German what to do when it is missing. --uebung (practice mode): the generated tiny models, offline
// travel data, and every set-up cell says so — for an instructor's dry run or a laptop without a model.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot, loadConfig } from "../lib/config.js";
import { DEFAULT_LLM_FILE } from "../lib/config.js";
import { ModelNotFoundError } from "../lib/index.js";
import { resolveModelPath } from "../lib/llm/index.js";
import { ensureNotebookLib } from "./build-notebook-lib.js";
import { testEnvironment } from "./test-env.js";

export const PRACTICE_FLAGS = ["--uebung", "--übung", "--practice"];

/** The environment practice mode runs Jupyter with: the test set-up (tiny models) plus WORKSHOP_PRACTICE=1. */
export async function practiceEnvironment(): Promise<NodeJS.ProcessEnv> {
  return { ...(await testEnvironment({ tinyModels: true })), WORKSHOP_PRACTICE: "1" };
}

/** German lines that say what is missing (empty when the LLM is ready to load). */
export function modelProblems(env: NodeJS.ProcessEnv = process.env): string[] {
  const config = loadConfig(env);
  if (config.llmBackend === "openai") {
    return config.llmBaseUrl
      ? []
      : ["LLM_BACKEND=openai ist gesetzt, aber LLM_BASE_URL fehlt (z. B. LLM_BASE_URL=http://<kurs-server>:8080/v1)."];
  }
  try {
    resolveModelPath();
    return [];
  } catch (error) {
    if (!(error instanceof ModelNotFoundError)) throw error;
    return [
      `Das Sprachmodell fehlt: ${error.modelPath}`,
      "So geht es weiter – eine der drei Möglichkeiten reicht:",
      `  1. Mit Internet herunterladen: npm run models:pull   (Llama 3.1 8B, ca. 4,9 GB)`,
      `  2. Vom USB-Stick der Kursleitung: die Datei ${DEFAULT_LLM_FILE} nach ${config.modelsDir}/ kopieren.`,
      "  3. Den Kurs-Server nutzen: LLM_BACKEND=openai LLM_BASE_URL=http://<kurs-server>:8080/v1 npm run workshop",
      "Nur zum Durchklicken ohne Modell: npm run workshop -- --uebung (winziges Zufallsmodell, Antworten sind Kauderwelsch).",
    ];
  }
}

function jupyterCommand(): "lab" | "notebook" | undefined {
  for (const app of ["lab", "notebook"] as const) {
    if (spawnSync("jupyter", [app, "--version"], { stdio: "ignore" }).status === 0) return app;
  }
  return undefined;
}

async function main(): Promise<number> {
  const root = findProjectRoot();
  const args = process.argv.slice(2);
  const practice = args.some((a) => PRACTICE_FLAGS.includes(a));
  const jupyterArgs = args.filter((a) => !PRACTICE_FLAGS.includes(a));
  if (!existsSync(join(root, ".jupyter-prefix", "share", "jupyter", "kernels", "tslab", "kernel.json"))) {
    console.error("Der TypeScript-Kernel ist nicht registriert: bitte zuerst 'npm run setup' ausführen.");
    return 1;
  }
  const env = practice ? await practiceEnvironment() : { ...(await testEnvironment({ tinyModels: false })) };
  if (practice) {
    console.log("Übungsmodus: winzige Zufallsmodelle aus models/tiny, Reisedaten offline – die Antworten sind Kauderwelsch.");
  } else {
    const problems = modelProblems(env);
    if (problems.length > 0) {
      console.error(problems.join("\n"));
      return 1;
    }
  }
  console.log(ensureNotebookLib());
  const app = jupyterCommand();
  if (!app) {
    console.error("Jupyter fehlt: 'sudo apt-get install jupyter-notebook' (Debian/Ubuntu) oder 'python3 -m pip install jupyterlab'.");
    return 1;
  }
  // Jupyter refuses to run as root (containers, VMs) unless asked explicitly.
  const extra = process.getuid?.() === 0 ? ["--allow-root"] : [];
  const child = spawn("jupyter", [app, "--notebook-dir=notebooks", ...extra, ...jupyterArgs], { cwd: root, env, stdio: "inherit" });
  // Ctrl-C reaches Jupyter directly (same terminal); we only wait for it.
  process.on("SIGINT", () => undefined);
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

if (process.argv[1]?.endsWith("workshop.ts")) process.exitCode = await main();
