// Command-line flags of the math server.
import { parseArgs } from "node:util";

export const DEFAULT_PORT = 8766;

export interface CliOptions {
  host: string;
  port: number;
  stdio: boolean;
  /** Exit when this process disappears (set by lib/mcp's startMathServer). */
  parentPid: number | undefined;
  allowedHosts: string[] | undefined;
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
  `Aufruf: npm run math-server -- [--host 127.0.0.1] [--port ${DEFAULT_PORT}] [--stdio] [--allowed-host NAME …]\n` +
  "  --host H          Adresse für HTTP (Standard 127.0.0.1)\n" +
  `  --port P          Port für HTTP (Standard ${DEFAULT_PORT}, 0 = freier Port)\n` +
  "  --stdio           MCP über stdin/stdout statt HTTP (für MCP Inspector, Claude Desktop);\n" +
  "                    mit npm dann -s: npm run -s math-server -- --stdio\n" +
  "  --allowed-host N  zusätzlich erlaubter Host-Name im Host-/Origin-Header (mehrfach möglich)";

export function parseCli(argv: string[]): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        host: { type: "string", default: "127.0.0.1" },
        port: { type: "string", default: String(DEFAULT_PORT) },
        stdio: { type: "boolean", default: false },
        "parent-pid": { type: "string" },
        "allowed-host": { type: "string", multiple: true },
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
  if (parentPid !== undefined && !(Number.isInteger(parentPid) && parentPid > 0)) throw new UsageError("--parent-pid muss eine Prozessnummer sein.");
  const extraHosts = values["allowed-host"];
  return { host: values.host, port, stdio: values.stdio, parentPid, allowedHosts: extraHosts && extraHosts.length ? extraHosts : undefined };
}
