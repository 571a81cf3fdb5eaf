// The command line of `npm run hub`: what the instructor may set, checked with German messages.
import { resolve } from "node:path";
import { errorText } from "../../../lib/util.js";
import { planBind, type BindPlan } from "../../node/bind.js";
import { JOIN_CODE_PATTERN } from "../board/join-code.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";

export const DEFAULT_HUB_PORT = 8000;
export const DEFAULT_HUB_MAX = 30;
export const DEFAULT_IDLE_MINUTES = 30;

export const HUB_USAGE =
  "Aufruf: npm run hub -- [--port 8000] [--code CODE] [--root ORDNER] [--host H --allowed-host NAME …]\n" +
  "                       [--llm-url URL] [--board URL] [--max 30] [--leerlauf 30]\n" +
  "        npm run hub -- --loesungen-freigeben [--root ORDNER]\n" +
  "        npm run hub -- --aufraeumen [--root ORDNER]\n" +
  "        npm run hub -- --teilnehmende [--root ORDNER]\n" +
  "        npm run hub -- --pin-vergessen NAME [--root ORDNER]\n" +
  "  --port P             Port für die Teilnehmenden (Standard 8000; 0 = ein freier)\n" +
  "  --code C             Beitrittscode (Standard: der des Klassen-Boards, sonst ein neuer)\n" +
  "  --root ORDNER        Ordner der Teilnehmenden und des Hubs (Standard .cache/hub)\n" +
  "  --host H             Adresse (Standard 127.0.0.1, nur dieser Rechner; 0.0.0.0 = ganzes Netz)\n" +
  "  --allowed-host N     Host-Name, unter dem der Raum den Hub erreicht (Pflicht bei --host 0.0.0.0)\n" +
  "  --llm-url URL        Klassen-Server (OpenAI-kompatibel), z. B. http://127.0.0.1:8080/v1\n" +
  "  --board URL          Klassen-Board, an das die Selbstchecks melden\n" +
  "  --max N              höchstens N Teilnehmende (Standard 30)\n" +
  "  --leerlauf MIN       Kernel nach MIN Minuten ohne Aktivität beenden (Standard 30)\n" +
  "  --loesungen-freigeben  Lösungen allen Teilnehmenden (auch späteren) in loesungen/ geben\n" +
  "  --aufraeumen         die Konten und Ordner löschen, die der Hub angelegt hat (nach dem Workshop; Hub vorher beenden)\n" +
  "  --teilnehmende       alle Teilnehmenden mit Konto und PIN-Stand zeigen\n" +
  "  --pin-vergessen NAME die PIN von NAME zurücksetzen: bei der nächsten Anmeldung wählt er/sie eine neue\n" +
  "  -h, --help           diese Hilfe";

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
  max: number;
  idleMinutes: number;
}

const OPTIONS = {
  port: { type: "string", default: String(DEFAULT_HUB_PORT) },
  code: { type: "string" },
  root: { type: "string" },
  host: { type: "string", default: "127.0.0.1" },
  "allowed-host": { type: "string", multiple: true },
  "llm-url": { type: "string" },
  board: { type: "string" },
  max: { type: "string", default: String(DEFAULT_HUB_MAX) },
  leerlauf: { type: "string", default: String(DEFAULT_IDLE_MINUTES) },
  "loesungen-freigeben": { type: "boolean" },
  aufraeumen: { type: "boolean" },
  teilnehmende: { type: "boolean" },
  "pin-vergessen": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** `text` as a whole number in [min, max], else a HubUsageError naming the flag (and `usage`). */
export function wholeNumber(text: string, flag: string, min: number, max: number, usage = HUB_USAGE): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} muss eine ganze Zahl von ${min} bis ${max} sein.\n${usage}`);
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
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${flag} muss mit http:// oder https:// beginnen, z. B. ${example}.`);
  return text.replace(/\/+$/, "");
}

export function parseHubArgs(argv: string[], kitRoot: string): HubArgs {
  const { values } = parseArgsGerman({ args: argv, options: OPTIONS }, HUB_USAGE);
  const actions = (["loesungen-freigeben", "aufraeumen", "teilnehmende", "pin-vergessen"] as const).filter((a) => values[a] !== undefined && values[a] !== false);
  if (actions.length > 1) throw new UsageError(`${actions.map((a) => `--${a}`).join(" und ")} bitte getrennt aufrufen.`);
  const pinName = values["pin-vergessen"]?.trim();
  if (pinName === "") throw new UsageError("--pin-vergessen braucht den Namen, z. B. --pin-vergessen \"Anna Müller\".");
  const code = values.code?.trim();
  if (code !== undefined && !JOIN_CODE_PATTERN.test(code)) {
    throw new UsageError("--code: 4 bis 64 Zeichen aus Buchstaben a–z, Ziffern, Punkt, Binde- und Unterstrich (ohne Umlaute), z. B. k7mq-2xhp-9dta.");
  }
  let bind: BindPlan;
  try {
    bind = planBind(values.host, values["allowed-host"], "Klassenraum-Hub");
  } catch (error) {
    throw new UsageError(errorText(error));
  }
  return {
    action: values["loesungen-freigeben"] ? "release-solutions" : values.aufraeumen ? "clean-up" : values.teilnehmende ? "list-participants" : pinName ? "reset-pin" : "serve",
    pinName,
    port: wholeNumber(values.port, "--port", 0, 65535),
    code,
    root: resolve(values.root ?? resolve(kitRoot, ".cache", "hub")),
    host: values.host,
    bind,
    llmUrl: httpUrl(values["llm-url"], "--llm-url", "http://127.0.0.1:8080/v1"),
    boardUrl: httpUrl(values.board, "--board", "http://127.0.0.1:8790"),
    max: wholeNumber(values.max, "--max", 1, 300),
    idleMinutes: wholeNumber(values.leerlauf, "--leerlauf", 1, 24 * 60),
  };
}
