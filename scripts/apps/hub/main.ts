// `npm run hub -- [--port 8000] [--code C] [--root DIR] [--host H --allowed-host X] [--llm-url URL]
// [--board URL] [--max N] [--leerlauf MIN]` — the Klassenraum-Hub: JupyterHub on the instructor's
// machine, so participants need only a browser. Login with name + the class's join code; each participant
// gets DIR/<user>/ with fresh notebooks, the kit's kernel and KURS_*/LLM_* set (scripts/apps/hub/).
// `--loesungen-freigeben` gives everyone the solutions; `--aufraeumen` removes accounts and folders.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../../lib/config.js";
import { errorText } from "../../../lib/util.js";
import { HubUsageError, parseHubArgs, type HubArgs } from "./args.js";
import { boardDataPath, classJoinCode } from "./join-code.js";
import { cleanUpHub, releaseSolutions, runningHubPid } from "./participants.js";
import { KIT_KERNEL, participantFiles } from "./settings.js";
import { HubStartError, jupyterhubMissing, startHub } from "./start.js";
import { ensureNotebookLib } from "../../dev/build-notebook-lib.js";
import { printUsageError } from "../../node/parse-args-german.js";

function kernelMissing(kitRoot: string): string | undefined {
  if (existsSync(join(kitRoot, ".jupyter-prefix", "share", "jupyter", "kernels", KIT_KERNEL, "kernel.json"))) return undefined;
  return "Der TypeScript-Kernel ist nicht registriert: bitte zuerst 'npm run setup' ausführen.";
}

async function serve(args: HubArgs, kitRoot: string): Promise<number> {
  const missing = jupyterhubMissing() ?? kernelMissing(kitRoot);
  if (missing) {
    console.error(missing);
    return 1;
  }
  const running = runningHubPid(args.root);
  if (running) {
    console.error(`Für ${args.root} läuft schon ein Hub (Prozess ${running}). Bitte diesen zuerst beenden (Strg+C dort, sonst 'kill ${running}').`);
    return 1;
  }
  console.log(ensureNotebookLib());
  const code = await classJoinCode(boardDataPath(kitRoot), args.code, console.error);
  const hub = await startHub(args, kitRoot, code, console.error);
  console.log(
    [
      "Klassenraum-Hub läuft.",
      `  Für den Raum:    ${hub.url}`,
      `  Beitrittscode:   ${code}`,
      `  Ordner:          ${args.root} (bleiben bei Neustart erhalten)`,
      `  Modell:          ${args.llmUrl ? `Klassen-Server ${args.llmUrl}` : "keins angegeben (--llm-url) – jede:r lädt das Modell selbst"}`,
      `  Klassen-Board:   ${args.boardUrl ?? "keins (--board)"}`,
      "  Beenden mit Strg+C.",
    ].join("\n"),
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log("Hub wird beendet …");
    await hub.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  const code_ = await hub.exited;
  if (stopping) return new Promise<number>(() => undefined);
  await hub.stop();
  console.error(`JupyterHub hat sich beendet (Code ${code_}).`);
  return 1;
}

async function main(): Promise<number> {
  const kitRoot = findProjectRoot();
  let args: HubArgs;
  try {
    args = parseHubArgs(process.argv.slice(2), kitRoot);
  } catch (error) {
    if (error instanceof HubUsageError) return printUsageError(error);
    console.error(errorText(error));
    return 2;
  }
  try {
    if (args.action === "release-solutions") {
      const names = releaseSolutions(args.root, participantFiles(kitRoot).solutions);
      console.log(`Lösungen freigegeben: ${names.length} Teilnehmende haben sie jetzt in loesungen/; wer sich später anmeldet, bekommt sie auch.`);
      return 0;
    }
    if (args.action === "clean-up") {
      const pid = runningHubPid(args.root);
      if (pid) {
        console.error(`Der Hub läuft noch (Prozess ${pid}) – bitte zuerst mit Strg+C beenden.`);
        return 1;
      }
      const { removed, problems } = cleanUpHub(args.root);
      for (const p of problems) console.error(p);
      console.log(`Aufgeräumt: ${removed.length} Teilnehmende (Konten und Ordner) und ${args.root} gelöscht.`);
      return problems.length ? 1 : 0;
    }
    return await serve(args, kitRoot);
  } catch (error) {
    console.error(error instanceof HubStartError ? error.message : `Der Hub konnte nicht starten: ${errorText(error)}`);
    return 1;
  }
}

if (/[\\/]apps[\\/]hub[\\/]main\.ts$/.test(process.argv[1] ?? "")) process.exitCode = await main();
