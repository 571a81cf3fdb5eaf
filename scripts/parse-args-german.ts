// node:util parseArgs throws English TypeErrors ("Unknown option '--li'", "argument is ambiguous"): the
// same problems as one German sentence, for the kit's command lines.

const known = (options: readonly string[], given: string) => {
  const stem = given.replace(/^-+/, "").split("=")[0] ?? "";
  return stem === "" ? [] : options.filter((o) => o.startsWith(stem) || stem.startsWith(o));
};

/**
 * The German message for a parseArgs error, or undefined when `error` is none. `options` (long names
 * without dashes) lets an unknown option suggest the one probably meant.
 */
export function germanParseArgsMessage(error: unknown, options: readonly string[] = []): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof TypeError) || typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) return undefined;
  // Node quotes the option as '--k <value>' or '-h, --help': the last token with a dash is the long form.
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? "";
  const option = quoted.split(/[\s,]+/).filter((t) => t.startsWith("-")).at(-1) ?? quoted;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const meant = known(options, option);
      return `Unbekannte Option „${option}“.${meant.length ? ` Gemeint: ${meant.map((o) => `--${o}`).join(" oder ")}?` : ""}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      if (/does not take an argument/.test(error.message)) return `Die Option „${option}“ nimmt keinen Wert.`;
      if (/ambiguous/.test(error.message)) return `Die Option „${option}“ braucht einen Wert, es folgt aber eine andere Option. Ein Wert, der mit „-“ beginnt, so: ${option}=-wert.`;
      return `Die Option „${option}“ braucht einen Wert.`;
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
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
