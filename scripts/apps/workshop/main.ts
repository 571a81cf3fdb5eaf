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
import { modelProblems, PRACTICE_FLAGS, PRACTICE_LINE, practiceEnvironment, PROBE_FLAGS, PROBE_LINE, probeEnvironment } from "../models/model-help.js";
import { parseArgsGerman, printUsageError, UsageError } from "../../node/parse-args-german.js";
import { testEnvironment } from "../../dev/test-env.js";
import { KursError, kursEnvironment, kursStatusLine, splitKursArgs, updateKursConfig, type KursConfig } from "./kurs-config.js";

function jupyterCommand(): "lab" | "notebook" | undefined {
  for (const app of ["lab", "notebook"] as const) {
    if (spawnSync("jupyter", [app, "--version"], { stdio: "ignore" }).status === 0) return app;
  }
  return undefined;
}

const USAGE =
  "Aufruf: npm run workshop [-- --uebung | --probe] [--kurs URL --name NAME [--code C]] [-- JUPYTER-OPTIONEN]\n" +
  "  --uebung        Übungsmodus: winzige Testmodelle, Reisedaten offline (ohne echtes Modell)\n" +
  "  --probe         Probelauf: ein vorbereitetes Modell beantwortet die Fragen der Notebooks\n" +
  "  --kurs URL      Selbstchecks an das Klassen-Board melden (--kurs aus: nicht mehr melden)\n" +
  "  --name NAME     dein Name auf dem Board\n" +
  "  --code C        Beitrittscode des Boards\n" +
  "  -- …            alles danach geht an Jupyter, z. B. -- --port=8890\n" +
  "  -h, --help      diese Hilfe";

const flag = { type: "boolean" } as const;
const OPTIONS = {
  ...Object.fromEntries([...PRACTICE_FLAGS, ...PROBE_FLAGS].map((f) => [f.slice(2), flag])),
  kurs: { type: "string" }, name: { type: "string" }, code: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function main(): Promise<number> {
  const root = findProjectRoot();
  let args: string[];
  let jupyterArgs: string[];
  let kurs: KursConfig | undefined;
  try {
    const split = splitKursArgs(process.argv.slice(2));
    const end = split.rest.indexOf("--");
    args = end < 0 ? split.rest : split.rest.slice(0, end);
    jupyterArgs = end < 0 ? [] : split.rest.slice(end + 1);
    parseArgsGerman({ args, options: OPTIONS }, USAGE); // before .cache/kurs.json changes
    kurs = await updateKursConfig(root, split.flags);
  } catch (error) {
    if (error instanceof UsageError) return printUsageError(error);
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
  const base = probe ? await probeEnvironment() : practice ? await practiceEnvironment() : { ...(await testEnvironment({ tinyModels: false })) };
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
  const kursLine = await kursStatusLine(env);
  if (kursLine) console.log(kursLine);
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

if (/[\\/]apps[\\/]workshop[\\/]main\.ts$/.test(process.argv[1] ?? "")) process.exitCode = await main();
