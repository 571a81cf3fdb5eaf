// `npm run hub -- [--port 8000] [--code C] [--root DIR] [--host H --allowed-host X] [--llm-url URL]
// [--board URL] [--max N] [--leerlauf MIN]` — the Klassenraum-Hub: JupyterHub on the instructor's
// machine, so participants need only a browser. Login with name + the class's join code; each participant
// gets DIR/<user>/ with fresh notebooks, the kit's kernel and KURS_*/LLM_* set (scripts/apps/hub/).
// `--loesungen-freigeben` gives everyone the solutions; `--aufraeumen` removes the accounts and folders the hub
// made; `--teilnehmende` lists the participants, `--pin-vergessen NAME` resets one participant's PIN.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../../lib/config.js";
import { errorText } from "../../../lib/util.js";
import { HUB_COMMAND_LINE, HubUsageError, parseHubArgs, type HubArgs } from "./args.js";
import { classJoinCode } from "./join-code.js";
import { cleanUpHub, ownAccounts } from "./accounts.js";
import { loadParticipants, releaseSolutions, runningHubPid } from "./participants.js";
import { PinStore } from "./pin.js";
import { KIT_KERNEL, hubStateDir, participantFiles } from "./settings.js";
import { participantKey } from "../board/state.js";
import { HubStartError, jupyterhubMissing, startHub } from "./start.js";
import { ensureNotebookLib } from "../../dev/build-notebook-lib.js";
import { ensureMcpBundles } from "../../dev/build-mcp-bundles.js";
import { ensureKernelSnapshot } from "../workshop/kernel-snapshot/kernel-snapshot.js";
import { defineCommand } from "../../node/command.js";

function kernelMissing(kitRoot: string): string | undefined {
  if (existsSync(join(kitRoot, ".jupyter-prefix", "share", "jupyter", "kernels", KIT_KERNEL, "kernel.json")))
    return undefined;
  return "Der TypeScript-Kernel ist nicht registriert: bitte zuerst 'npm run setup' ausführen.";
}

async function serve(args: HubArgs, kitRoot: string, signal: AbortSignal): Promise<number> {
  const missing = jupyterhubMissing() ?? kernelMissing(kitRoot);
  if (missing) {
    console.error(missing);
    return 1;
  }
  const running = runningHubPid(args.root);
  if (running) {
    console.error(
      `Für ${args.root} läuft schon ein Hub (Prozess ${running}). Bitte diesen zuerst beenden (Strg+C dort, sonst 'kill ${running}').`,
    );
    return 1;
  }
  console.log(ensureNotebookLib());
  console.log(ensureMcpBundles());
  console.log((await ensureKernelSnapshot(kitRoot)).detail);
  const code = await classJoinCode(args.boardData, args.code, console.error);
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
  const stopped = new Promise<number>((resolve) =>
    signal.addEventListener(
      "abort",
      () => {
        console.log("Hub wird beendet …");
        void hub.stop().then(() => resolve(0));
      },
      { once: true },
    ),
  );
  const code_ = await Promise.race([hub.exited, stopped.then(() => undefined)]);
  if (signal.aborted) return stopped;
  await hub.stop();
  console.error(`JupyterHub hat sich immer wieder beendet (zuletzt Code ${code_}) – der Hub ist gestoppt.`);
  return 1;
}

function listParticipants(root: string): number {
  const participants = loadParticipants(root);
  if (participants.length === 0) {
    console.log(`Noch niemand angemeldet (${root}).`);
    return 0;
  }
  const pins = new PinStore(hubStateDir(root));
  const own = new Set(ownAccounts(root).map((a) => a.user));
  console.log(`${participants.length} Teilnehmende (${root}):`);
  for (const p of participants) {
    console.log(
      `  ${p.name.padEnd(42)} ${p.user.padEnd(30)} ${pins.has(participantKey(p.name)) ? "PIN gesetzt" : "PIN offen"}${own.has(p.user) ? "" : " (kein Konto)"}`,
    );
  }
  return 0;
}

function resetPin(root: string, name: string): number {
  const participant = loadParticipants(root).find((p) => participantKey(p.name) === participantKey(name));
  if (!participant) {
    console.error(
      `„${name}“ ist in ${root} nicht angemeldet. Alle Namen: npm run hub -- --teilnehmende --root ${root}`,
    );
    return 1;
  }
  const had = new PinStore(hubStateDir(root)).reset(participantKey(participant.name));
  console.log(
    had
      ? `PIN von „${participant.name}“ zurückgesetzt: bei der nächsten Anmeldung (Name + Beitrittscode) wählt „${participant.name}“ eine neue PIN. Eine offene Sitzung bleibt angemeldet.`
      : `„${participant.name}“ hat noch keine PIN – die nächste Anmeldung setzt eine.`,
  );
  return 0;
}

export const command = defineCommand({
  ...HUB_COMMAND_LINE,
  stopGraceMs: 60_000,
  run: ({ argv, signal }) => main(argv, signal),
});

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  const kitRoot = findProjectRoot();
  let args: HubArgs;
  try {
    args = parseHubArgs(argv, kitRoot);
  } catch (error) {
    if (error instanceof HubUsageError) throw error;
    console.error(errorText(error));
    return 2;
  }
  try {
    if (args.action === "release-solutions") {
      const { names, problems } = releaseSolutions(args.root, participantFiles(kitRoot).solutions);
      for (const p of problems) console.error(p);
      console.log(
        `Lösungen freigegeben: ${names.length} Teilnehmende haben sie jetzt in loesungen/; wer sich später anmeldet, bekommt sie auch.`,
      );
      return problems.length ? 1 : 0;
    }
    if (args.action === "list-participants") return listParticipants(args.root);
    if (args.action === "reset-pin") return resetPin(args.root, args.pinName!);
    if (args.action === "clean-up") {
      const pid = runningHubPid(args.root);
      if (pid) {
        console.error(`Der Hub läuft noch (Prozess ${pid}) – bitte zuerst mit Strg+C beenden.`);
        return 1;
      }
      const { removed, problems } = await cleanUpHub(args.root);
      for (const p of problems) console.error(p);
      if (problems.length) {
        console.error(
          `Aufräumen unvollständig (${removed.length} Konten gelöscht) – bitte die Meldungen prüfen und erneut aufrufen.`,
        );
        return 1;
      }
      console.log(
        `Aufgeräumt: ${removed.length} Konten und Ordner der Teilnehmenden und der Zustand des Hubs gelöscht; andere Dateien in ${args.root} bleiben.`,
      );
      return 0;
    }
    return await serve(args, kitRoot, signal);
  } catch (error) {
    console.error(error instanceof HubStartError ? error.message : `Der Hub konnte nicht starten: ${errorText(error)}`);
    return 1;
  }
}
