// The command line of `npm run hub`: what the instructor may set, checked with German messages.
import { resolve } from "node:path";
import { errorText } from "../../../lib/util.js";
import { bindOptions, planBind, type BindPlan } from "../../node/bind.js";
import { JOIN_CODE_PATTERN } from "../board/join-code.js";
import { commandUsage } from "../../node/command.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";

export const DEFAULT_HUB_PORT = 8000;
export const DEFAULT_HUB_MAX = 30;
export const DEFAULT_IDLE_MINUTES = 30;
/** Limits per participant (the guide's sizing table): processes and threads, memory (MB), disk space (MB). */
export const DEFAULT_PROCESSES = 512;
export const DEFAULT_MEMORY_MB = 2048;
export const DEFAULT_SPACE_MB = 1024;

/** The kit's UsageError under the name the hub's callers know (exit code 0 for --help, 2 for a wrong command line). */
export { UsageError as HubUsageError };

export interface HubArgs {
  action: "serve" | "release-solutions" | "clean-up" | "list-participants" | "reset-pin";
  /** --pin-vergessen NAME */
  pinName: string | undefined;
  port: number;
  code: string | undefined;
  /** Participants' folders and the hub's state (`<root>/.hub`). */
  root: string;
  host: string;
  bind: BindPlan;
  llmUrl: string | undefined;
  boardUrl: string | undefined;
  /** The board's results file: the class's code and, beside it, the board's hub key (board/hub-trust.ts). */
  boardData: string;
  max: number;
  idleMinutes: number;
  limits: ParticipantLimits;
}

export interface ParticipantLimits {
  /** RLIMIT_NPROC of each participant's user (processes and threads; root only: it counts per user). */
  processes: number;
  /** memory.max of each participant's cgroup, in MB (root with a cgroup v2 memory controller only). */
  memoryMb: number;
  /** Disk space of each participant's folder, in MB; also the largest file (RLIMIT_FSIZE). */
  spaceMb: number;
}

const BIND = bindOptions(DEFAULT_HUB_PORT, "Port für die Teilnehmenden", "der Raum den Hub erreicht");
const OPTIONS = {
  port: BIND.port,
  code: { type: "string", value: "C", help: "Beitrittscode (Standard: der des Klassen-Boards, sonst ein neuer)" },
  root: { type: "string", value: "ORDNER", help: "Ordner der Teilnehmenden und des Hubs (Standard .cache/hub)" },
  host: BIND.host,
  "allowed-host": BIND["allowed-host"],
  "llm-url": {
    type: "string",
    value: "URL",
    help: "Klassen-Server (OpenAI-kompatibel), z. B. http://127.0.0.1:8080/v1",
  },
  board: { type: "string", value: "URL", help: "Klassen-Board, an das die Selbstchecks melden" },
  max: { type: "string", default: String(DEFAULT_HUB_MAX), value: "N", help: "höchstens N Teilnehmende (Standard 30)" },
  leerlauf: {
    type: "string",
    default: String(DEFAULT_IDLE_MINUTES),
    value: "MIN",
    help: "Kernel nach MIN Minuten ohne Aktivität beenden (Standard 30)",
  },
  "loesungen-freigeben": { type: "boolean", help: "Lösungen allen Teilnehmenden (auch späteren) in loesungen/ geben" },
  aufraeumen: {
    type: "boolean",
    help: "Teilnehmer-Konten und -Ordner löschen (nach dem Workshop; Hub vorher beenden)",
  },
  "board-daten": {
    type: "string",
    value: "DATEI",
    help: "Ergebnisdatei des Boards (Standard .cache/board/ergebnisse.json): Code und Hub-Schlüssel",
  },
  prozesse: {
    type: "string",
    default: String(DEFAULT_PROCESSES),
    value: "N",
    help: `höchstens N Prozesse und Threads je Teilnehmer:in (Standard ${DEFAULT_PROCESSES}; nur als root)`,
  },
  arbeitsspeicher: {
    type: "string",
    default: String(DEFAULT_MEMORY_MB),
    value: "MB",
    help: `Arbeitsspeicher je Teilnehmer:in (Standard ${DEFAULT_MEMORY_MB}; als root mit cgroup v2)`,
  },
  "platz-je-person": {
    type: "string",
    default: String(DEFAULT_SPACE_MB),
    value: "MB",
    help: `Platz je Ordner und größte Datei (Standard ${DEFAULT_SPACE_MB}); darüber wird der Server gestoppt`,
  },
  teilnehmende: { type: "boolean", help: "alle Teilnehmenden mit Konto und PIN-Stand zeigen" },
  "pin-vergessen": {
    type: "string",
    value: "NAME",
    help: "die PIN von NAME zurücksetzen: bei der nächsten Anmeldung wählt er/sie eine neue",
  },
} as const;

/** The hub's command line as data (scripts/apps/hub/main.ts defines the command with it). */
export const HUB_COMMAND_LINE = {
  name: "hub",
  invocation: "npm run hub --",
  summary: "Der Klassenraum-Hub: JupyterHub auf diesem Rechner, die Teilnehmenden brauchen nur einen Browser.",
  options: OPTIONS,
  notes:
    "Nach dem Workshop: npm run hub -- --loesungen-freigeben [--root ORDNER] bzw. --aufraeumen [--root ORDNER]\n" +
    "Teilnehmende: npm run hub -- --teilnehmende [--root ORDNER]; PIN vergessen: npm run hub -- --pin-vergessen NAME [--root ORDNER]",
};

export const HUB_USAGE = commandUsage(HUB_COMMAND_LINE);

/** `text` as a whole number in [min, max], else a HubUsageError naming the flag (and `usage`). */
export function wholeNumber(text: string, flag: string, min: number, max: number, usage = HUB_USAGE): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${flag} muss eine ganze Zahl von ${min} bis ${max} sein.\n${usage}`);
  return n;
}

function httpUrl(text: string | undefined, flag: string, example: string): string | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag} ist keine Adresse („${text}“). Richtig wäre z. B. ${example}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${flag} muss mit http:// oder https:// beginnen, z. B. ${example}.`);
  return text.replace(/\/+$/, "");
}

export function parseHubArgs(argv: string[], kitRoot: string): HubArgs {
  const { values } = parseArgsGerman(
    { args: argv, options: { ...OPTIONS, help: { type: "boolean", short: "h" } } },
    HUB_USAGE,
  );
  const actions = (["loesungen-freigeben", "aufraeumen", "teilnehmende", "pin-vergessen"] as const).filter(
    (a) => values[a] !== undefined && values[a] !== false,
  );
  if (actions.length > 1)
    throw new UsageError(`${actions.map((a) => `--${a}`).join(" und ")} bitte getrennt aufrufen.`);
  const pinName = values["pin-vergessen"]?.trim();
  if (pinName === "") throw new UsageError('--pin-vergessen braucht den Namen, z. B. --pin-vergessen "Anna Müller".');
  const code = values.code?.trim();
  if (code !== undefined && !JOIN_CODE_PATTERN.test(code)) {
    throw new UsageError(
      "--code: 4 bis 64 Zeichen aus Buchstaben a–z, Ziffern, Punkt, Binde- und Unterstrich (ohne Umlaute), z. B. k7mq-2xhp-9dta.",
    );
  }
  let bind: BindPlan;
  try {
    bind = planBind(values.host, values["allowed-host"], "Klassenraum-Hub");
  } catch (error) {
    throw new UsageError(errorText(error));
  }
  return {
    action: values["loesungen-freigeben"]
      ? "release-solutions"
      : values.aufraeumen
        ? "clean-up"
        : values.teilnehmende
          ? "list-participants"
          : pinName
            ? "reset-pin"
            : "serve",
    pinName,
    port: wholeNumber(values.port, "--port", 0, 65535),
    code,
    root: resolve(values.root ?? resolve(kitRoot, ".cache", "hub")),
    host: values.host,
    bind,
    llmUrl: httpUrl(values["llm-url"], "--llm-url", "http://127.0.0.1:8080/v1"),
    boardUrl: httpUrl(values.board, "--board", "http://127.0.0.1:8790"),
    boardData: resolve(values["board-daten"] ?? resolve(kitRoot, ".cache", "board", "ergebnisse.json")),
    max: wholeNumber(values.max, "--max", 1, 300),
    idleMinutes: wholeNumber(values.leerlauf, "--leerlauf", 1, 24 * 60),
    limits: {
      processes: wholeNumber(values.prozesse, "--prozesse", 32, 100_000),
      memoryMb: wholeNumber(values.arbeitsspeicher, "--arbeitsspeicher", 128, 1_048_576),
      spaceMb: wholeNumber(values["platz-je-person"], "--platz-je-person", 1, 10_485_760),
    },
  };
}
