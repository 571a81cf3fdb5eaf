// Command-line flags of the travel server (the shared ones: transports/server-cli.ts).
import { parseServerArgs, UsageError, type CommonFlags } from "../../mcp-server-shared/src/transports/server-cli.js";

export { UsageError };

export interface CliOptions extends CommonFlags {
  offline: boolean;
  /** From --max-sessions or TRAVEL_MAX_SESSIONS; undefined = the transport's default. */
  maxSessions: number | undefined;
  /** From --session-idle (seconds) or TRAVEL_SESSION_IDLE_S, in milliseconds. */
  sessionIdleMs: number | undefined;
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
  const args = parseServerArgs(argv, 8765, USAGE, {
    offline: { type: "boolean", default: false },
    "max-sessions": { type: "string" },
    "session-idle": { type: "string" },
  });
  const envOffline = ["1", "true", "yes", "on"].includes((env.TRAVEL_OFFLINE ?? "").trim().toLowerCase());
  // --allowed-host wins over TRAVEL_ALLOWED_HOSTS (comma-separated).
  const envHosts = env.TRAVEL_ALLOWED_HOSTS?.split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  const maxSessions = positive("--max-sessions", args.text("max-sessions") ?? env.TRAVEL_MAX_SESSIONS, true);
  const idleSeconds = positive("--session-idle", args.text("session-idle") ?? env.TRAVEL_SESSION_IDLE_S, false);
  return {
    ...args.common,
    allowedHosts: args.common.allowedHosts ?? (envHosts?.length ? envHosts : undefined),
    offline: args.isSet("offline") || envOffline,
    maxSessions,
    sessionIdleMs: idleSeconds === undefined ? undefined : idleSeconds * 1000,
  };
}

/** A positive number from a flag or env var (trimmed); undefined when not given. */
function positive(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw.trim());
  if (!(Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n)))) {
    throw new UsageError(
      `${flag} muss eine ${integer ? "ganze " : ""}Zahl größer als 0 sein, nicht "${raw}".\n${USAGE}`,
    );
  }
  return n;
}
