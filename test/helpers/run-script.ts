// Runs one of the kit's scripts as a real subprocess (node + tsx), as `npm run …` would.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { format } from "node:util";
import { findProjectRoot, tinyModelPaths } from "../../lib/config.js";
import { COMMANDS, type CommandName } from "../../scripts/commands.js";
import { reportCommandError, runCommand as runParsed } from "../../scripts/node/command.js";

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ScriptOptions {
  /** The child is killed after this (default 120 s). */
  timeoutMs?: number;
  /** Piped to stdin, which is never a terminal (default: closed at once). */
  input?: string;
}

/** Runs the kit's command `command` (`tsx scripts/kit.ts <command>`, as its npm script does) with `args`; `env` adds to this process's environment. */
export function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: ScriptOptions = {},
): Promise<ScriptRun> {
  return runTsFile(join("scripts", "kit.ts"), [command, ...args], env, options);
}

/**
 * Runs the kit's command `command` in this process as scripts/kit.ts does (same parsing, same German error
 * mapping and exit code), with what it prints captured: for command lines that end before the command
 * starts anything (usage errors, unusable paths). A few real processes (runCommand) stay as smoke tests.
 * `env` adds to process.env for the run; process.env is as before afterwards (a command may add to it).
 */
export async function runCommandHere(
  command: CommandName,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ScriptRun> {
  const out = { stdout: "", stderr: "" };
  const { log, error } = console;
  const envBefore = { ...process.env };
  Object.assign(process.env, env);
  console.log = (...parts: unknown[]) => void (out.stdout += `${format(...parts)}\n`);
  console.error = (...parts: unknown[]) => void (out.stderr += `${format(...parts)}\n`);
  try {
    const code = await runParsed(await COMMANDS[command](), args, new AbortController().signal).catch(
      reportCommandError,
    );
    return { code, ...out };
  } finally {
    Object.assign(console, { log, error });
    for (const key of Object.keys(process.env)) if (!(key in envBefore)) delete process.env[key];
    Object.assign(process.env, envBefore);
  }
}

/** Runs the TypeScript file `file` (relative to the project root) with `args`, as `npx tsx <file>` would. */
export function runTsFile(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: ScriptOptions = {},
): Promise<ScriptRun> {
  const root = findProjectRoot();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(root, file), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The environment that points the CLI at the generated tiny models, CPU only, one thread. */
function tinyModelEnv(): Record<string, string> {
  const tiny = tinyModelPaths();
  return {
    LLM_MODEL_PATH: tiny.gguf,
    EMBEDDING_MODEL: tiny.embeddingDir,
    MODELS_OFFLINE: "1",
    LLM_THREADS: "1",
    LLM_GPU: "cpu",
    LLM_BACKEND: "local",
  };
}

/** The CLI (`npm start`) on the generated tiny models, CPU only, one thread; `env` adds or overrides. */
export function runCliOnTinyModels(
  args: string[],
  env: Record<string, string> = {},
  options: ScriptOptions = {},
): Promise<ScriptRun> {
  return runCommand("start", args, { ...tinyModelEnv(), ...env }, options);
}

/**
 * The CLI's command in this process (runCommandHere) with the tiny models' environment: for command lines
 * that end before a model or server starts (help, usage errors, a missing file).
 */
export function runCliHere(args: string[], env: Record<string, string> = {}): Promise<ScriptRun> {
  return runCommandHere("start", args, { ...tinyModelEnv(), ...env });
}
