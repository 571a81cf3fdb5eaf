// One command of the kit (`npm run board`, `npm start`, …) as data: its name, one German line about it, its
// option table and what it runs. The German usage is generated from the option table; parsing, --help and
// German parse errors happen here before `run` loads anything. scripts/kit.ts alone reads process.argv,
// installs the signal handlers and sets the exit code (docs/architecture.md, "Commands").
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { ParseArgsConfig } from "node:util";
import { parseArgsGerman, printUsageError, UsageError } from "./parse-args-german.js";
import { KitError } from "../../lib/errors.js";
import { errorText } from "../../lib/util.js";

/** One option: node's parseArgs descriptor plus what the usage says about it. */
export type CommandOption = NonNullable<ParseArgsConfig["options"]>[string] & {
  /** German help text; several lines with "\n". Without it the option is not listed (an alias). */
  help?: string;
  /** Placeholder for the value in the usage ("P", "DATEI"); default "WERT" for string options. */
  value?: string;
  /** The whole left column when it is more than `--name VALUE` (e.g. "--uebung, --practice"). */
  label?: string;
};

export type CommandOptions = Record<string, CommandOption>;

/** What `run` gets: the parsed command line and the signal that Ctrl+C, SIGTERM or SIGHUP aborts. */
export interface CommandInput<O extends CommandOptions> {
  values: ParsedValues<O>;
  positionals: string[];
  /** The command line as given (after the command name). */
  argv: string[];
  /** Aborted on SIGINT, SIGTERM or SIGHUP (its reason names the signal). */
  signal: AbortSignal;
  /** The generated usage text. */
  usage: string;
}

type ValueOf<D> = D extends { type: "boolean" }
  ? D extends { multiple: true }
    ? boolean[]
    : boolean
  : D extends { multiple: true }
    ? string[]
    : string;
type ParsedValues<O extends CommandOptions> = {
  [K in keyof O]: O[K] extends { default: unknown } ? ValueOf<O[K]> : ValueOf<O[K]> | undefined;
} & { help?: boolean };

export interface CommandSpec<O extends CommandOptions> {
  /** The name after `tsx scripts/kit.ts` (the npm script's name). */
  name: string;
  /** How a person calls it, the start of the usage: "npm run board --". */
  invocation: string;
  /** What it does, one German line. */
  summary: string;
  options: O;
  /** Positional arguments in the synopsis (e.g. `"<Frage>"`); without it none are allowed. */
  positionals?: string;
  /** German text after the option list (examples, environment variables). */
  notes?: string;
  /** Appended to the message for an unknown option. */
  unknownOptionHint?: string;
  /**
   * How long the command may take to finish after its signal is aborted before the kit exits anyway (ms);
   * undefined: the command does not watch its signal, so a signal ends the process at once.
   */
  stopGraceMs?: number;
  /** End the process when `run` returns, even with handles still open (a test run's leftover sockets). */
  exitWhenDone?: boolean;
  /** Runs the command; returns the exit code (undefined = 0). */
  run(input: CommandInput<O>): Promise<number | void> | number | void;
}

export interface Command<O extends CommandOptions = CommandOptions> extends CommandSpec<O> {
  readonly usage: string;
}

/** The reason of a command's abort signal after SIGINT, SIGTERM or SIGHUP (scripts/kit.ts). */
export class StopSignal extends KitError {
  override name = "StopSignal";
  constructor(readonly signal: "SIGINT" | "SIGTERM" | "SIGHUP") {
    super(`Abbruch: ${signal}`);
  }
}

const HELP: CommandOption = { type: "boolean", short: "h", help: "diese Hilfe" };

/** The kit's folder (this file is scripts/node/command.ts). */
const KIT_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Whether runCommand ran in this process, and the commands defined in it (for refuseDirectRun). */
let commandRan = false;
const definedHere: string[] = [];

/**
 * A definition file run directly (`npx tsx scripts/dev/test.ts`, the habit of older notes) would load and
 * end with exit code 0 having run nothing: a false green. So when a process whose main file lies under
 * scripts/ or bench/ (and is not scripts/kit.ts) ends without running a command, it says where commands run
 * and ends with exit code 2. Reads only the main file's path, to tell that case.
 */
function refuseDirectRun(name: string): void {
  definedHere.push(name);
  if (definedHere.length > 1) return;
  process.once("beforeExit", () => {
    const main = process.argv[1] ?? "";
    const inKit = relative(KIT_ROOT, main).replaceAll("\\", "/");
    if (commandRan || !/^(scripts|bench)\//u.test(inKit) || inKit === "scripts/kit.ts") return;
    console.error(
      `${main} ist kein Einstieg: die Befehle laufen über scripts/kit.ts, z. B. npx tsx scripts/kit.ts ${definedHere.at(-1)} (oder npm run …).`,
    );
    process.exitCode = 2;
  });
}

/** A command with its generated usage; every option table gets `-h, --help`. */
export function defineCommand<O extends CommandOptions>(spec: CommandSpec<O>): Command<O> {
  refuseDirectRun(spec.name);
  const options = { ...spec.options, help: spec.options.help ?? HELP };
  return { ...spec, options, usage: commandUsage({ ...spec, options }) };
}

/** The left column of an option's usage line. */
function optionLabel(name: string, option: CommandOption): string {
  if (option.label) return option.label;
  const short = option.short ? `-${option.short}, ` : "";
  const value = option.type === "string" ? ` ${option.value ?? "WERT"}` : "";
  return `${short}--${name}${value}`;
}

/** The German usage: synopsis, summary, one line per option (help texts aligned), notes. */
export function commandUsage(
  spec: Pick<CommandSpec<CommandOptions>, "invocation" | "summary" | "options" | "positionals" | "notes">,
): string {
  const listed = Object.entries(spec.options).filter(([, o]) => o.help !== undefined);
  const labels = listed.map(([name, o]) => optionLabel(name, o));
  const width = Math.max(16, ...labels.map((l) => l.length)) + 2;
  const lines = listed.flatMap(([, o], i) => {
    const [first, ...more] = o.help!.split("\n");
    return [`  ${labels[i]!.padEnd(width)}${first}`, ...more.map((m) => `  ${" ".repeat(width)}${m}`)];
  });
  const synopsis = [`Aufruf: ${spec.invocation}`, spec.positionals, "[Optionen]"].filter(Boolean).join(" ");
  return [synopsis, spec.summary, "", "Optionen:", ...lines, ...(spec.notes ? ["", spec.notes] : [])].join("\n");
}

/**
 * Parses `argv` against the command's option table (German errors, --help) and runs it. Throws UsageError
 * for a wrong command line or --help (exit code 0), and whatever `run` throws.
 */
export async function runCommand<O extends CommandOptions>(
  command: Command<O>,
  argv: string[],
  signal: AbortSignal,
): Promise<number> {
  commandRan = true;
  let parsed: { values: unknown; positionals: string[] };
  try {
    parsed = parseArgsGerman(
      { args: argv, options: command.options, allowPositionals: command.positionals !== undefined },
      command.usage,
    );
  } catch (error) {
    if (
      error instanceof UsageError &&
      error.exitCode !== 0 &&
      command.unknownOptionHint &&
      error.message.startsWith("Unbekannte Option")
    ) {
      const [message, ...rest] = error.message.split("\n");
      throw new UsageError([`${message} ${command.unknownOptionHint}`, ...rest].join("\n"));
    }
    throw error;
  }
  const code = await command.run({
    values: parsed.values as ParsedValues<O>,
    positionals: parsed.positionals,
    argv,
    signal,
    usage: command.usage,
  });
  return code ?? 0;
}

/**
 * Shows what a command threw as scripts/kit.ts does and returns the exit code: a UsageError (or --help) its
 * own; an expected problem (KitError) its German message, 1; anything else is a bug: its text, no stack, 1.
 */
export function reportCommandError(error: unknown): number {
  if (error instanceof UsageError) return printUsageError(error);
  console.error(error instanceof KitError ? error.message : `Unerwarteter Fehler: ${errorText(error)}`);
  return 1;
}
