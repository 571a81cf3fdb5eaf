// `npm run workshop [-- --uebung | --probe] [-- jupyter options]` — opens notebooks/ in Jupyter with the project's
// TypeScript kernel (JupyterLab when installed, else the classic Notebook, Debian: jupyter-notebook).
// Before Jupyter opens it builds lib for the notebooks when stale and checks the model, and says in
// German what to do when it is missing. --uebung (practice mode): the generated tiny models, offline
// travel data, and every set-up cell says so — for an instructor's dry run or a laptop without a model.
// --kurs <url> --name <Name> [--code C] (stored in .cache/kurs.json, `--kurs aus` removes it): the
// kernel reports each self-check run to the instructor's class board (scripts/apps/workshop/kurs-config.ts).
// --probe (rehearsal, WORKSHOP_PROBE=1): a scripted model answers the notebooks' own questions, so the
// demos take their tool paths; no language model is needed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../../lib/config.js";
import { ensureNotebookLib } from "../../dev/build-notebook-lib.js";
import { ensureMcpBundles } from "../../dev/build-mcp-bundles.js";
import { ensureKernelSnapshot } from "./kernel-snapshot/kernel-snapshot.js";
import {
  modelProblems,
  PRACTICE_FLAGS,
  PRACTICE_LINE,
  practiceEnvironment,
  PROBE_FLAGS,
  PROBE_LINE,
  probeEnvironment,
} from "../models/model-help.js";
import { defineCommand, StopSignal } from "../../node/command.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";
import { testEnvironment } from "../../dev/test-env.js";
import { FIRST_SCREEN, germanNotebookSetup } from "./notebook-ui.js";
import {
  KursError,
  kursEnvironment,
  kursStatusLine,
  splitKursArgs,
  updateKursConfig,
  type KursConfig,
} from "./kurs-config.js";

function jupyterCommand(): "lab" | "notebook" | undefined {
  for (const app of ["lab", "notebook"] as const) {
    if (spawnSync("jupyter", [app, "--version"], { stdio: "ignore" }).status === 0) return app;
  }
  return undefined;
}

const flag = { type: "boolean" } as const;
const OPTIONS = {
  ...Object.fromEntries([...PRACTICE_FLAGS, ...PROBE_FLAGS].map((f) => [f.slice(2), flag])),
  uebung: { type: "boolean", help: "Übungsmodus: winzige Testmodelle, Reisedaten offline (ohne echtes Modell)" },
  probe: { type: "boolean", help: "Probelauf: ein vorbereitetes Modell beantwortet die Fragen der Notebooks" },
  kurs: {
    type: "string",
    value: "URL",
    help: "Selbstchecks an das Klassen-Board melden (--kurs aus: nicht mehr melden)",
  },
  name: { type: "string", value: "NAME", help: "dein Name auf dem Board" },
  code: { type: "string", value: "C", help: "Beitrittscode des Boards" },
} as const;

export const command = defineCommand({
  name: "workshop",
  invocation: "npm run workshop --",
  summary: "Öffnet notebooks/ in Jupyter mit dem TypeScript-Kernel des Workshops.",
  options: OPTIONS,
  positionals: "[-- JUPYTER-OPTIONEN]",
  notes: "Alles nach „--“ geht an Jupyter, z. B. npm run workshop -- -- --port=8890",
  // Ctrl+C reaches Jupyter directly (same terminal); the workshop waits for it to end.
  stopGraceMs: Infinity,
  run: ({ argv, signal }) => main(argv, signal),
});

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  const root = findProjectRoot();
  let args: string[];
  let jupyterArgs: string[];
  let kurs: KursConfig | undefined;
  try {
    const split = splitKursArgs(argv);
    const end = split.rest.indexOf("--");
    args = end < 0 ? split.rest : split.rest.slice(0, end);
    jupyterArgs = end < 0 ? [] : split.rest.slice(end + 1);
    parseArgsGerman({ args, options: command.options }, command.usage); // before .cache/kurs.json changes
    kurs = await updateKursConfig(root, split.flags);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (!(error instanceof KursError)) throw error;
    console.error(error.message);
    return 2;
  }
  const practice = args.some((a) => PRACTICE_FLAGS.includes(a));
  const probe = args.some((a) => PROBE_FLAGS.includes(a));
  if (!existsSync(join(root, ".jupyter-prefix", "share", "jupyter", "kernels", "tslab", "kernel.json"))) {
    console.error("Der TypeScript-Kernel ist nicht registriert: bitte zuerst 'npm run setup' ausführen.");
    return 1;
  }
  const base = probe
    ? await probeEnvironment()
    : practice
      ? await practiceEnvironment()
      : { ...(await testEnvironment({ tinyModels: false })) };
  const env = kursEnvironment(base, kurs);
  if (probe) {
    console.log(PROBE_LINE);
  } else if (practice) {
    console.log(PRACTICE_LINE);
  } else {
    const problems = modelProblems(env, "workshop");
    if (problems.length > 0) {
      console.error(problems.join("\n"));
      return 1;
    }
  }
  console.log(ensureNotebookLib());
  console.log(ensureMcpBundles());
  console.log((await ensureKernelSnapshot(root)).detail);
  const kursLine = await kursStatusLine(env);
  if (kursLine) console.log(kursLine);
  const app = jupyterCommand();
  if (!app) {
    console.error(
      "Jupyter fehlt: 'sudo apt-get install jupyter-notebook' (Debian/Ubuntu) oder 'python3 -m pip install jupyterlab'.",
    );
    return 1;
  }
  // Jupyter refuses to run as root (containers, VMs) unless asked explicitly.
  const extra = process.getuid?.() === 0 ? ["--allow-root"] : [];
  // The classic Notebook speaks German to a German browser and opens at the day's first notebook.
  const german = app === "notebook" ? await germanNotebookSetup(root, env) : { args: [], env: {} };
  if (app === "notebook") extra.push(...german.args, `--NotebookApp.default_url=${FIRST_SCREEN}`);
  const child = spawn("jupyter", [app, "--notebook-dir=notebooks", ...extra, ...jupyterArgs], {
    cwd: root,
    env: { ...env, ...german.env },
    stdio: "inherit",
  });
  // Ctrl-C reaches Jupyter directly (same terminal); SIGTERM and SIGHUP are passed on.
  signal.addEventListener("abort", () => {
    const reason: unknown = signal.reason;
    if (reason instanceof StopSignal && reason.signal !== "SIGINT") child.kill(reason.signal);
  });
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}
