// node:util parseArgs throws English TypeErrors ("Unknown option '--li'", "argument is ambiguous"): the
// same problems as one German sentence, for the kit's command lines. parseArgsGerman and printUsageError
// are the whole round trip a script needs: parse, --help, German errors, exit codes.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { KitError } from "../../lib/errors.js";

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`: optimal string alignment. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The options probably meant by `given`: a prefix either way ("--li" → limit) or a typo or two ("--prot" → port). */
const known = (options: readonly string[], given: string) => {
  const stem = given.replace(/^-+/, "").split("=")[0] ?? "";
  if (stem === "") return [];
  const typos = Math.min(2, Math.floor(stem.length / 3));
  return options.filter((o) => o.startsWith(stem) || stem.startsWith(o) || editDistance(stem, o) <= typos);
};

/** The line of `usage` that explains `option` ("  --port P   Port (Standard 8790)"), trimmed; undefined when none does. */
function usageLine(usage: string | undefined, option: string): string | undefined {
  const line = usage
    ?.split("\n")
    .find((l) => new RegExp(`^\\s*(-\\w, )?${option.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b(?!-)`).test(l));
  return line?.trim().replace(/\s{2,}/g, " – ");
}

/**
 * The German message for a parseArgs error, or undefined when `error` is none. `options` (long names
 * without dashes) lets an unknown option suggest the one probably meant; `usage` lets a missing value
 * quote the line that explains the option.
 */
export function germanParseArgsMessage(
  error: unknown,
  options: readonly string[] = [],
  usage?: string,
): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof TypeError) || typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) return undefined;
  // Node quotes the option as '--k <value>' or '-h, --help': the last token with a dash is the long form.
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? "";
  const option =
    quoted
      .split(/[\s,]+/)
      .filter((t) => t.startsWith("-"))
      .at(-1) ?? quoted;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const meant = known(options, option);
      return `Unbekannte Option „${option}“.${meant.length ? ` Gemeint: ${meant.map((o) => `--${o}`).join(" oder ")}?` : ""}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      if (/does not take an argument/.test(error.message)) return `Die Option „${option}“ nimmt keinen Wert.`;
      if (/ambiguous/.test(error.message))
        return `Die Option „${option}“ braucht einen Wert, es folgt aber eine andere Option. Ein Wert, der mit „-“ beginnt, so: ${option}=-wert.`;
      const explained = usageLine(usage, option);
      return `Die Option „${option}“ braucht einen Wert.${explained ? ` (${explained})` : ""}`;
    }
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `Unerwartete Angabe „${quoted}“: Werte gehören hinter ihre Option, z. B. --k 3.`;
    default:
      return `Die Befehlszeile ist ungültig (${code}).`;
  }
}

/**
 * A wrong command line, for every CLI of the kit: the German message says what to write instead; the CLI
 * prints it without a stack trace and exits with `exitCode` (2; 0 where the "error" is the --help text).
 */
export class UsageError extends KitError {
  override name = "UsageError";
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

/**
 * node's parseArgs (strict), with the kit's German errors: a wrong command line throws a UsageError with
 * the message and `usage`; `--help`/`-h` throws a UsageError with `usage` and exit code 0 — before the
 * script loads or starts anything. `config.options` must declare `help` (boolean, short "h").
 */
export function parseArgsGerman<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    // strict is parseArgs' default: every script's options are the whole list.
    parsed = parseArgs(config);
  } catch (error) {
    const message = germanParseArgsMessage(error, Object.keys(config.options ?? {}), usage) ?? String(error);
    throw new UsageError(`${message}\n\n${usage}`);
  }
  if ((parsed.values as Record<string, unknown>).help === true) throw new UsageError(usage, 0);
  return parsed;
}

/** Prints a UsageError as every kit CLI does — the --help text on stdout, a wrong command line on stderr — and returns its exit code. */
export function printUsageError(error: UsageError): number {
  if (error.exitCode === 0) console.log(error.message);
  else console.error(error.message);
  return error.exitCode;
}

/**
 * For a command without options: prints the usage for --help, or the German error for anything else given,
 * and returns the exit code to end with; undefined when the command line is empty and the command may run.
 */
export function refusedWithoutOptions(argv: string[], usage: string): number | undefined {
  try {
    parseArgsGerman({ args: argv, options: { help: { type: "boolean", short: "h" } } }, usage);
    return undefined;
  } catch (error) {
    if (error instanceof UsageError) return printUsageError(error);
    throw error;
  }
}
