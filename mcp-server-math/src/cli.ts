// Command-line flags of the math server (the shared ones: ../../mcp-server-shared/src/transports/server-cli.ts).
import { parseServerArgs, UsageError, type CommonFlags } from "../../mcp-server-shared/src/transports/server-cli.js";

export { UsageError };

export const DEFAULT_PORT = 8766;

export type CliOptions = CommonFlags;

export const USAGE =
  `Aufruf: npm run math-server -- [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--stdio] [--allowed-host NAME …]\n` +
  "  --host H          Adresse für HTTP (Standard 127.0.0.1)\n" +
  `  --port P          Port für HTTP (Standard ${DEFAULT_PORT}, 0 = freier Port)\n` +
  "  --stdio           MCP über stdin/stdout statt HTTP (für MCP Inspector, Claude Desktop);\n" +
  "                    mit npm dann -s: npm run -s math-server -- --stdio\n" +
  "  --allowed-host N  erlaubter Host-Name im Host-/Origin-Header (mehrfach möglich). Pflicht, wenn\n" +
  "                    --host nicht 127.0.0.1/::1/localhost ist: dann kann jedes Gerät im Netz rechnen lassen";

export function parseCli(argv: string[]): CliOptions {
  return parseServerArgs(argv, DEFAULT_PORT, USAGE, {}).common;
}
