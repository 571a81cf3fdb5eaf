// The one entry of the kit's commands: `tsx scripts/kit.ts <command> [options]`, used by every npm script but
// the plain-JS bootstraps (setup.mjs; doctor.mjs hands over to this file) and the MCP servers, which stand
// alone. Only this file reads process.argv, installs the signal handlers (SIGINT, SIGTERM, SIGHUP abort the
// command's signal), maps errors to German messages and sets the exit code. The commands are data
// (scripts/node/command.ts), listed in scripts/commands.ts.
import { COMMANDS, isCommandName } from "./commands.js";
import { reportCommandError, runCommand, StopSignal, type Command } from "./node/command.js";
import { UsageError } from "./node/parse-args-german.js";

const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
const KIT_USAGE = `Aufruf: npx tsx scripts/kit.ts <Befehl> [Optionen]\nBefehle: ${Object.keys(COMMANDS).join(", ")}`;

async function main(name: string | undefined, argv: string[]): Promise<number> {
  if (!isCommandName(name)) {
    console.error(name === undefined ? KIT_USAGE : `Unbekannter Befehl „${name}“.\n${KIT_USAGE}`);
    return 2;
  }
  const controller = new AbortController();
  let command: Command | undefined;
  for (const signal of Object.keys(SIGNAL_EXIT_CODES) as (keyof typeof SIGNAL_EXIT_CODES)[]) {
    process.on(signal, () => {
      const code = SIGNAL_EXIT_CODES[signal];
      const grace = command?.stopGraceMs;
      // A second signal, or a command that does not watch its signal: end now, as without a handler.
      if (controller.signal.aborted || grace === undefined) process.exit(code);
      controller.abort(new StopSignal(signal));
      if (Number.isFinite(grace)) setTimeout(() => process.exit(code), grace).unref();
    });
  }
  try {
    command = await COMMANDS[name]();
    const code = await runCommand(command, argv, controller.signal);
    if (command.exitWhenDone) process.exit(code);
    return code;
  } catch (error) {
    if (!(error instanceof UsageError) && controller.signal.aborted)
      return SIGNAL_EXIT_CODES[(controller.signal.reason as StopSignal).signal];
    return reportCommandError(error);
  }
}

process.exitCode = await main(process.argv[2], process.argv.slice(3));
