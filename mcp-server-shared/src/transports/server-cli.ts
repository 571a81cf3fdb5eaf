// The command-line flags both MCP servers share (--host, --port, --stdio, --allowed-host, --parent-pid,
// --help) and their checks; each server's cli.ts adds its own flags and usage text.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { errorText } from "../../../lib/util.js";
import { germanParseArgsMessage, UsageError } from "../../../scripts/node/parse-args-german.js";

// The kit's one UsageError (exit code 0 for --help, 2 for wrong flags), shared with the kit's CLIs.
export { UsageError };

export interface CommonFlags {
  host: string;
  port: number;
  stdio: boolean;
  /** Exit when this process disappears (set by lib/mcp when it starts the server). */
  parentPid: number | undefined;
  /** From --allowed-host (repeatable); undefined when none was given. */
  allowedHosts: string[] | undefined;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

export interface ServerArgs {
  common: CommonFlags;
  /** A string flag of `extra` (undefined when not given). */
  text(name: string): string | undefined;
  /** A boolean flag of `extra`. */
  isSet(name: string): boolean;
}

/** parseArgs with the shared flags plus `extra`; wrong flags and --help become UsageErrors with `usage`. */
export function parseServerArgs(argv: string[], defaultPort: number, usage: string, extra: Options = {}): ServerArgs {
  const options: Options = {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: String(defaultPort) },
    stdio: { type: "boolean", default: false },
    "parent-pid": { type: "string" },
    "allowed-host": { type: "string", multiple: true },
    help: { type: "boolean", short: "h", default: false },
    ...extra,
  };
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true }));
  } catch (error) {
    // node's own messages are English ("Unknown option '--prot'"): the kit's German ones, with a guess.
    const message = germanParseArgsMessage(error, Object.keys(options)) ?? errorText(error);
    const unknown = (error as { code?: unknown }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    throw new UsageError(`${message}${unknown ? " Der Server kennt nur die Optionen unten." : ""}\n${usage}`);
  }
  if (positionals.length) {
    throw new UsageError(
      `Unerwartete Angabe „${positionals[0]}“: der Server nimmt nur Optionen, z. B. --port 0.\n${usage}`,
    );
  }
  const text = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === "string" ? value : undefined;
  };
  const isSet = (name: string) => values[name] === true;
  if (isSet("help")) throw new UsageError(usage, 0);
  const port = Number(text("port"));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port muss eine ganze Zahl von 0 bis 65535 sein, nicht "${text("port")}".\n${usage}`);
  const pidText = text("parent-pid");
  const parentPid = pidText === undefined ? undefined : Number(pidText);
  if (parentPid !== undefined && !(Number.isInteger(parentPid) && parentPid > 0))
    throw new UsageError(
      `--parent-pid muss eine Prozessnummer sein (ganze Zahl größer als 0), nicht "${pidText}".\n${usage}`,
    );
  const hosts = (values["allowed-host"] as string[] | undefined) ?? [];
  const common: CommonFlags = {
    host: text("host") ?? "127.0.0.1",
    port,
    stdio: isSet("stdio"),
    parentPid,
    allowedHosts: hosts.length ? hosts : undefined,
  };
  return { common, text, isSet };
}
