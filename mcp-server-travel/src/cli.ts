// Command-line flags of the travel server.
import { parseArgs } from "node:util";

export interface CliOptions {
  host: string;
  port: number;
  offline: boolean;
  stdio: boolean;
  /** Exit when this process disappears (set by lib/mcp's startTravelServer). */
  parentPid: number | undefined;
  /** From --allowed-host (repeatable) or TRAVEL_ALLOWED_HOSTS (comma-separated). */
  allowedHosts: string[] | undefined;
  /** From --max-sessions or TRAVEL_MAX_SESSIONS; undefined = the transport's default. */
  maxSessions: number | undefined;
  /** From --session-idle (seconds) or TRAVEL_SESSION_IDLE_S, in milliseconds. */
  sessionIdleMs: number | undefined;
}

export class UsageError extends Error {
  override name = "UsageError";
  /** 0 for --help, 2 for wrong flags. */
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

export const USAGE =
  "Aufruf: npm run travel-server -- [--host 127.0.0.1] [--port 8765] [--offline] [--stdio] [--allowed-host NAME …]\n" +
  "       [--max-sessions N] [--session-idle SEKUNDEN]\n" +
  "  --host H          Adresse für HTTP (Standard 127.0.0.1)\n" +
  "  --port P          Port für HTTP (Standard 8765, 0 = freier Port)\n" +
  "  --offline         nur mitgelieferte Daten verwenden (auch TRAVEL_OFFLINE=1)\n" +
  "  --stdio           MCP über stdin/stdout statt HTTP (für MCP Inspector, Claude Desktop);\n" +
  "                    mit npm dann -s: npm run -s travel-server -- --stdio (sonst stört npms Kopfzeile)\n" +
  "  --allowed-host N  erlaubter Host-Name im Host-/Origin-Header (mehrfach möglich; auch\n" +
  "                    TRAVEL_ALLOWED_HOSTS=a,b). Pflicht, wenn --host nicht 127.0.0.1/::1/localhost ist:\n" +
  "                    dann kann jedes Gerät im Netz die Werkzeuge aufrufen\n" +
  "  --max-sessions N  höchstens N offene Sitzungen, die am längsten unbenutzte weicht (Standard 50;\n" +
  "                    auch TRAVEL_MAX_SESSIONS)\n" +
  "  --session-idle S  Sitzungen ohne Anfrage nach S Sekunden schließen (Standard 900;\n" +
  "                    auch TRAVEL_SESSION_IDLE_S)";

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: "8765" },
        offline: { type: "boolean", default: false },
        stdio: { type: "boolean", default: false },
        "parent-pid": { type: "string" },
        "allowed-host": { type: "string", multiple: true },
        "max-sessions": { type: "string" },
        "session-idle": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) throw new UsageError(USAGE, 0);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port muss eine ganze Zahl von 0 bis 65535 sein, nicht "${values.port}".\n${USAGE}`);
  const parentPid = values["parent-pid"] === undefined ? undefined : Number(values["parent-pid"]);
  if (parentPid !== undefined && !(Number.isInteger(parentPid) && parentPid > 0)) throw new UsageError(`--parent-pid muss eine Prozessnummer sein.`);
  const envOffline = ["1", "true", "yes", "on"].includes((env.TRAVEL_OFFLINE ?? "").trim().toLowerCase());
  const extraHosts = values["allowed-host"] ?? env.TRAVEL_ALLOWED_HOSTS?.split(",").map((h) => h.trim()).filter(Boolean);
  const maxSessions = positive("--max-sessions", values["max-sessions"] ?? env.TRAVEL_MAX_SESSIONS, true);
  const idleSeconds = positive("--session-idle", values["session-idle"] ?? env.TRAVEL_SESSION_IDLE_S, false);
  return {
    host: values.host,
    port,
    offline: values.offline || envOffline,
    stdio: values.stdio,
    parentPid,
    allowedHosts: extraHosts && extraHosts.length ? extraHosts : undefined,
    maxSessions,
    sessionIdleMs: idleSeconds === undefined ? undefined : idleSeconds * 1000,
  };
}

/** A positive number from a flag or env var (trimmed); undefined when not given. */
function positive(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw.trim());
  if (!(Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n)))) {
    throw new UsageError(`${flag} muss eine ${integer ? "ganze " : ""}Zahl größer als 0 sein, nicht "${raw}".\n${USAGE}`);
  }
  return n;
}
