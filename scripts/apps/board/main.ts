// `npm run board [-- --port P --code C --host H --allowed-host X --data FILE --export FILE --entfernen NAME]`
// — the class board on the instructor's laptop: prints the join code and the URL for the projector, then
// collects the self-check results participants' notebooks send (scripts/apps/board/). Results are kept in a JSON
// file (default .cache/board/ergebnisse.json), so a restart keeps them; --export writes them as CSV and
// exits (the JSON file is only read); --entfernen takes a participant off the board (while it is stopped).
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { findProjectRoot } from "../../../lib/config.js";
import { writeFileAtomic } from "../../../lib/files.js";
import { errorText } from "../../../lib/util.js";
import { BindError, bindOptions, isLoopback } from "../../node/bind.js";
import { boardCsv } from "./csv.js";
import { JOIN_CODE_PATTERN, randomJoinCode, weakJoinCode } from "./join-code.js";
import type { BoardPart } from "../../../lib/exercises/index.js";
import { BOARD_PARTS } from "../../../lib/exercises/board-record.js";
import { DEFAULT_STUCK_AFTER_MIN } from "./progress.js";
import { instructorBlock, instructorLink } from "./instructor.js";
import { loopbackWarning } from "./reach.js";
import { ensureHubKey, HubNames } from "./hub-trust.js";
import { startBoardServer } from "./server.js";
import { BoardState, freshHands, STALE_HAND_MS } from "./state.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";
import {
  BoardDataError,
  BoardSaver,
  boardHoldingLock,
  fileReason,
  loadBoard,
  lockBoardFile,
  prepareBoardFile,
} from "./store.js";

export const DEFAULT_BOARD_PORT = 8790;

interface BoardArgs {
  port: number;
  code: string | undefined;
  host: string;
  allowedHosts: string[] | undefined;
  data: string;
  /** --data not given: the data lives in the board's own folder (.cache/board/), kept private. */
  defaultData: boolean;
  exportTo: string | undefined;
  stuckAfterMin: number;
  remove: string[];
  /** --aufgabe: 1–4, null for 0 (the majority's again), undefined when not given (the stored one). */
  classAufgabe: BoardPart | null | undefined;
  roomUrl: string | undefined;
  newInstructorLink: boolean;
}

const BIND = bindOptions(DEFAULT_BOARD_PORT, "Port", "die Teilnehmenden das Board erreichen");
const OPTIONS = {
  port: BIND.port,
  code: { type: "string", value: "C", help: "Beitrittscode festlegen (Standard: der gespeicherte, sonst ein neuer)" },
  host: BIND.host,
  "allowed-host": BIND["allowed-host"],
  data: { type: "string", value: "DATEI", help: "Ergebnisdatei (Standard .cache/board/ergebnisse.json)" },
  export: {
    type: "string",
    value: "DATEI",
    help: "Ergebnisse als CSV schreiben und beenden (die Ergebnisdatei bleibt unverändert)",
  },
  "haengt-nach": {
    type: "string",
    default: String(DEFAULT_STUCK_AFTER_MIN),
    value: "N",
    help: `wer N Minuten kein ✅ hat, steht als „hängt“ oben (Standard ${DEFAULT_STUCK_AFTER_MIN})`,
  },
  entfernen: {
    type: "string",
    multiple: true,
    value: "NAME",
    help: "Teilnehmende(n) vom Board nehmen (bei beendetem Board; mehrfach möglich)",
  },
  aufgabe: {
    type: "string",
    value: "N",
    help: "die Klasse arbeitet in Aufgabe N (1–4); wer davor ist, steht als „zurück“ (Standard: die zuletzt festgelegte, sonst die der meisten; auf der Seite mit den Tasten 1–4 umstellen, 0 = wieder automatisch)",
  },
  "neuer-kursleitungs-link": {
    type: "boolean",
    help: "einen neuen Kursleitungs-Link machen (der alte gilt dann nicht mehr), z. B. wenn er weitergegeben wurde",
  },
  raum: {
    type: "string",
    value: "URL",
    help: "Klassenraum-Modus: die Anmeldeseite des Hubs; die Seite zeigt dann diese Adresse mit QR-Code statt des Board-Befehls (setzt npm run klassenraum)",
  },
} as const;

/** --raum: an http(s) address, e.g. http://kurs-pc.local:8000/hub/login. */
function roomUrlArg(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !["http:", "https:"].includes(url.protocol))
    throw new UsageError(
      `--raum: eine Adresse mit http:// oder https://, z. B. --raum http://kurs-pc.local:8000/hub/login.\n${command.usage}`,
    );
  return text;
}

function parseBoardArgs(argv: string[], root: string): BoardArgs {
  const { values } = parseArgsGerman({ args: argv, options: command.options }, command.usage);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port muss eine ganze Zahl von 0 bis 65535 sein.\n${command.usage}`);
  const stuckAfterMin = Number(values["haengt-nach"]);
  if (!Number.isInteger(stuckAfterMin) || stuckAfterMin < 1 || stuckAfterMin > 600)
    throw new UsageError(
      `--haengt-nach: Minuten als ganze Zahl von 1 bis 600, z. B. --haengt-nach 15.\n${command.usage}`,
    );
  const aufgabe = values.aufgabe === undefined ? undefined : Number(values.aufgabe.trim() || NaN);
  if (aufgabe !== undefined && aufgabe !== 0 && !BOARD_PARTS.includes(aufgabe as BoardPart))
    throw new UsageError(
      `--aufgabe: 1, 2, 3 oder 4, z. B. --aufgabe 2; 0 = die der meisten (automatisch).\n${command.usage}`,
    );
  const classAufgabe = aufgabe === 0 ? null : (aufgabe as BoardPart | undefined);
  const code = values.code?.trim();
  if (code !== undefined && !JOIN_CODE_PATTERN.test(code)) {
    throw new UsageError(
      "--code: 4 bis 64 Zeichen aus Buchstaben a–z, Ziffern, Punkt, Binde- und Unterstrich (ohne Umlaute), z. B. k7mq-2xhp-9dta.",
    );
  }
  if (values.export !== undefined && values.entfernen?.length)
    throw new UsageError(`--export und --entfernen bitte getrennt aufrufen.\n${command.usage}`);
  return {
    port,
    code,
    host: values.host,
    allowedHosts: values["allowed-host"]?.length ? values["allowed-host"] : undefined,
    data: resolve(values.data ?? join(root, ".cache", "board", "ergebnisse.json")),
    defaultData: values.data === undefined,
    exportTo: values.export === undefined ? undefined : resolve(values.export),
    stuckAfterMin,
    remove: values.entfernen ?? [],
    classAufgabe,
    roomUrl: roomUrlArg(values.raum),
    newInstructorLink: values["neuer-kursleitungs-link"] === true,
  };
}

/** True when `a` and `b` are the same file (also through a link); false when either is missing. */
function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  if (!existsSync(a) || !existsSync(b)) return false;
  const [sa, sb] = [statSync(a), statSync(b)];
  return realpathSync(a) === realpathSync(b) || (sa.dev === sb.dev && sa.ino === sb.ino);
}

function storedBoard(path: string): BoardState | undefined {
  const data = loadBoard(path);
  if (!data) console.error(`Keine Ergebnisse unter ${path} – läuft das Board mit einer anderen --data-Datei?`);
  return data && new BoardState(data.joinCode, data.participants, data);
}

async function exportCsv(args: BoardArgs): Promise<number> {
  const target = args.exportTo!;
  if (sameFile(target, args.data))
    throw new UsageError(
      `--export ${target} ist die Ergebnisdatei selbst – bitte einen anderen Namen wählen, z. B. ergebnisse.csv.`,
    );
  if (!existsSync(dirname(target)))
    throw new UsageError(
      `Der Ordner ${dirname(target)} für --export fehlt – bitte anlegen oder einen anderen Pfad wählen.`,
      1,
    );
  const state = storedBoard(args.data);
  if (!state) return 1;
  const data = state.data();
  try {
    // Names and results: readable by the instructor only, like the results file (participants of the hub are
    // users of this machine).
    await writeFileAtomic(target, boardCsv(data), { mode: 0o600 });
  } catch (error) {
    console.error(
      `CSV konnte nicht geschrieben werden (${fileReason(error)}) – einen anderen Pfad für --export wählen.`,
    );
    return 1;
  }
  const rows = data.participants.reduce((n, p) => n + p.checks.length, 0);
  console.log(`CSV geschrieben: ${args.exportTo} (${data.participants.length} Teilnehmende, ${rows} Zeilen).`);
  return 0;
}

/** Takes participants off the stored board; the board must not be running (it would write them back). */
async function removeParticipants(args: BoardArgs): Promise<number> {
  const running = boardHoldingLock(args.data);
  if (running !== undefined) {
    console.error(
      `Das Board läuft noch (Prozess ${running}). Erst dort mit Strg+C beenden, dann --entfernen, dann neu starten – Beitrittscode und Ergebnisse bleiben.`,
    );
    return 1;
  }
  const state = storedBoard(args.data);
  if (!state) return 1;
  lockBoardFile(args.data);
  let failed = 0;
  for (const name of args.remove) {
    const { removed, candidates } = state.remove(name);
    if (removed !== undefined) console.log(`Entfernt: „${removed}“.`);
    else {
      failed++;
      if (candidates.length > 1)
        console.error(
          `Mehrere Namen sehen aus wie „${name}“: ${candidates.map((c) => `„${c}“`).join(", ")} – bitte genau so schreiben, wie er auf dem Board steht.`,
        );
      else
        console.error(
          `„${name}“ steht nicht auf dem Board (${state.size} Teilnehmende; Namen zeigt die Seite des Boards oder --export).`,
        );
    }
  }
  await new BoardSaver(args.data, state, console.error).flush({ strict: true });
  console.log(`${state.size} Teilnehmende bleiben in ${args.data}.`);
  return failed > 0 ? 1 : 0;
}

const handsText = (n: number): string => (n === 1 ? "1 gehobene Hand" : `${n} gehobene Hände`);

async function serve(args: BoardArgs, signal: AbortSignal): Promise<number> {
  const stored = loadBoard(args.data);
  await prepareBoardFile(args.data, { ownFolder: args.defaultData });
  // Hands from an earlier day (a board left running overnight, a restart the next morning) are not taken over.
  const { hands, stale } = freshHands(stored?.hands, Date.now());
  const state = new BoardState(args.code ?? stored?.joinCode ?? randomJoinCode(), stored?.participants ?? [], {
    hands,
    instructorKey: args.newInstructorLink ? undefined : stored?.instructorKey,
    classAufgabe: stored?.classAufgabe,
  });
  if (args.classAufgabe !== undefined) state.classAufgabe = args.classAufgabe; // else the one set before a restart
  const saver = new BoardSaver(args.data, state, console.error);
  await saver.flush({ strict: true }); // the join code is kept from the start; a folder that cannot be written stops here
  const board = await startBoardServer({
    host: args.host,
    port: args.port,
    allowedHosts: args.allowedHosts,
    state,
    onChange: () => saver.changed(),
    log: console.error,
    stuckAfterMin: args.stuckAfterMin,
    hub: { key: ensureHubKey(args.data), names: new HubNames(args.data) },
    roomUrl: args.roomUrl,
  });
  const changedCode = stored && stored.joinCode !== state.joinCode;
  console.log(
    [
      "Klassen-Board läuft.",
      ...(changedCode
        ? [
            `  ACHTUNG: NEUER Beitrittscode (gespeichert war ${stored.joinCode}) – alle Teilnehmenden müssen ihn neu eingeben.`,
          ]
        : []),
      ...(weakJoinCode(state.joinCode)
        ? [
            `  WARNUNG: Der Beitrittscode ${state.joinCode} ist leicht zu erraten. Ein sicherer: --code ${randomJoinCode()} (dann alle neu eingeben).`,
          ]
        : []),
      `  Für den Beamer:  ${board.url}   (zeigt dort auch den Beitrittscode)`,
      `  Beitrittscode:   ${state.joinCode}`,
      args.roomUrl
        ? `  Teilnehmende:    im Browser anmelden unter ${args.roomUrl} (Name und Beitrittscode)`
        : `  Teilnehmende:    npm run workshop -- --kurs ${board.joinUrl} --name "Vorname" --code ${state.joinCode}`,
      `  Ergebnisse:      ${args.data} (${state.size} Teilnehmende, ${handsText(state.raisedHands().length)} gespeichert; bleiben bei Neustart erhalten)`,
      ...(stale > 0
        ? [
            `                   ${handsText(stale)} älter als ${STALE_HAND_MS / 3_600_000} Stunden nicht übernommen (vom Vortag).`,
          ]
        : []),
      ...(state.classAufgabe === null
        ? []
        : [
            `  Aufgabe:         Klasse in Aufgabe ${state.classAufgabe} (${args.classAufgabe === undefined ? "gespeichert vom letzten Mal" : "mit --aufgabe festgelegt"}; wieder die der meisten: --aufgabe 0 oder Taste 0)`,
          ]),
      "  Beenden mit Strg+C.",
      // This machine's browser needs no link, unless participants' kernels share the machine (Klassenraum).
      ...(!isLoopback(args.host) || args.roomUrl
        ? instructorBlock(instructorLink(args.roomUrl ? board.url : board.joinUrl, state.instructorKey), 19)
        : []),
    ].join("\n"),
  );
  if (isLoopback(args.host) && !args.roomUrl) {
    const warning = loopbackWarning(args.host);
    console.log(`\nWARNUNG: ${warning.problem}\n  ${warning.fix}`);
  }
  await new Promise((stopped) => signal.addEventListener("abort", stopped, { once: true }));
  await saver.flush();
  await board.close();
  return 0;
}

export const command = defineCommand({
  name: "board",
  invocation: "npm run board --",
  summary: "Das Klassen-Board: Beitrittscode und Adresse für den Beamer, sammelt die Ergebnisse der Selbsttests.",
  options: OPTIONS,
  stopGraceMs: 10_000,
  run: ({ argv, signal }) => main(argv, signal),
});

async function main(argv: string[], signal: AbortSignal): Promise<number> {
  let args: BoardArgs;
  try {
    args = parseBoardArgs(argv, findProjectRoot());
  } catch (error) {
    if (error instanceof UsageError) throw error;
    console.error(`${errorText(error)}\n${command.usage}`);
    return 2;
  }
  try {
    return args.exportTo
      ? await exportCsv(args)
      : args.remove.length > 0
        ? await removeParticipants(args)
        : await serve(args, signal);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return error.exitCode;
    }
    if (error instanceof BindError || error instanceof BoardDataError) console.error(error.message);
    else if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      console.error(`Port ${args.port} ist belegt – wähle einen anderen mit --port.`);
    else console.error(`Das Board konnte nicht starten: ${errorText(error)}`);
    return 1;
  }
}
