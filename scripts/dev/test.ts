// `npm test`: typecheck, lint, unit tests, notebook execution, the slide decks in rehearsal mode, the browser
// check — all on the generated tiny models.
// Every stage runs even when an earlier one fails; the last line sums up all checks. Notebooks, slides and
// browser run beside the unit tests' longer lane (unitTests), so the summary gives the wall time as well.
// Usage: tsx scripts/dev/test.ts [--only typecheck|lint|unit|notebooks|slides|browser] [test file or notebook filters]
// Processes the tests leave running are ended at the end and named in the summary.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { ensureNotebookLib } from "./build-notebook-lib.js";
import { ensureMcpBundles } from "./build-mcp-bundles.js";
import { browserCheckMissing, EXPECTATIONS, formatBrowserResult, runBrowserCheck } from "./browser-check.js";
import { processesWithEnv } from "../node/processes.js";
import { ensureLlamaTools, type LlamaTools } from "./llama-build.js";
import { defineCommand } from "../node/command.js";
import { UsageError } from "../node/parse-args-german.js";
import { runAllNotebooks } from "./run-notebooks.js";
import { formatSlidesCheck, runSlidesCheck } from "./slides-check.js";
import { testEnvironment } from "./test-env.js";

interface StageResult {
  stage: string;
  passed: number;
  failed: number;
  seconds: number;
  /** Why the stage did not run (shown instead of counts; never counts as passed). */
  skipped?: string;
  /** What part of a stage that ran was skipped (shown after its counts). */
  note?: string;
  /** Tests inside the stage that were skipped (each says why in its own result line). */
  skippedTests?: number;
}

/** Tests under this folder run against llama.cpp's own llama-server (built by the llama stage). */
const LLAMA_TESTS = "test/llama-server/";
/** Set for the test processes when the llama stage could not build the tools (test/helpers/llama-server.ts). */
const LLAMA_MISSING_ENV = "LLAMA_TOOLS_MISSING";

const root = findProjectRoot();
const STAGES = ["typecheck", "lint", "unit", "notebooks", "slides", "browser"];
export const command = defineCommand({
  name: "test",
  invocation: "npm test --",
  summary: "Alle Prüfungen auf den winzigen Testmodellen: typecheck, lint, unit, notebooks, slides, browser.",
  options: { only: { type: "string", value: "STUFE", help: `nur diese Stufe (${STAGES.join("|")})` } },
  positionals: "[TESTDATEI oder NAMENSTEIL …]",
  notes: "TESTDATEI: nur diese Testdateien (test/…test.ts) bzw. Notebooks, deren Name das enthält",
  // A handle some stage left open (a socket, a timer) must not keep the run from ending.
  exitWhenDone: true,
  run: ({ values, positionals }) => {
    if (values.only !== undefined && !STAGES.includes(values.only))
      throw new UsageError(
        `--only erwartet eine der Stufen ${STAGES.join(", ")}, erhalten: "${values.only}".\n\n${command.usage}`,
      );
    return main(values.only, positionals);
  },
});

let only: string | undefined;
let filters: string[] = [];
const wants = (s: string) => !only || only === s;

/**
 * Every process the run starts carries this in its environment. Whatever still carries it when the stages are
 * done was left behind by a test: it is ended and named in the summary, so that it neither holds CI's output
 * open nor outlives the run.
 */
const RUN_MARK_ENV = "KIT_TEST_RUN";

function run(cmd: string, cmdArgs: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: root, env, stdio: "inherit" });
    child.on("error", () => resolve(127));
    child.on("close", (code) => resolve(code ?? 1));
  });
}

const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ").trim();
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]?.split(" ")[1]);

/**
 * tsx's esbuild service of this runner: started (with the run's mark) when a stage running in this process
 * first loads a TypeScript file, and still this process's own helper, not something a test left behind.
 */
function isOwnEsbuild(pid: number): boolean {
  try {
    return parentOf(pid) === process.pid && /\besbuild --service\b/.test(commandLine(pid));
  } catch {
    return false; // gone meanwhile
  }
}

/** Ends the processes of this run that are still running (SIGKILL); returns their command lines. */
function endLeftovers(mark: string): string[] {
  return processesWithEnv(RUN_MARK_ENV, mark)
    .filter((pid) => !isOwnEsbuild(pid))
    .map((pid) => {
      let command = String(pid);
      try {
        command = commandLine(pid).slice(0, 160) || command;
        process.kill(pid, "SIGKILL");
      } catch {
        // gone meanwhile
      }
      return command;
    });
}

function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "fixtures" ? [] : testFiles(p);
    return name.endsWith(".test.ts") ? [p] : [];
  });
}

async function gate(stage: string, cmd: string, cmdArgs: string[], env: NodeJS.ProcessEnv): Promise<StageResult> {
  console.log(`\n=== ${stage}`);
  const t = performance.now();
  const code = await run(cmd, cmdArgs, env);
  console.log(code === 0 ? `${stage}: ok` : `${stage}: FAILED (exit ${code})`);
  return { stage, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, seconds: (performance.now() - t) / 1000 };
}

/** The test files whose path contains a filter (all without one); a filter naming a test file runs that file. */
function selectedTestFiles(): string[] {
  const named = filters
    .filter((f) => f.endsWith(".test.ts") && existsSync(join(root, f)))
    .map((f) => relative(root, join(root, f)));
  const found = testFiles(join(root, "test"))
    .map((f) => relative(root, f))
    .filter((f) => filters.length === 0 || filters.some((q) => f.includes(q)));
  return [...new Set([...found, ...named])].sort();
}

/**
 * llama.cpp's tools for the tests under test/llama-server/: built once per bundle commit (~10 min on 2
 * cores, cached outside the clone), only when such a test is selected. The build starts first
 * and runs (niced) beside the other stages; those tests run last, once it is done. Without a
 * compiler the stage is skipped and those tests say why in their own result line.
 */
function startLlamaBuild(): { started: number; tools: Promise<LlamaTools> } {
  console.log("\n=== llama.cpp tools (llama-server, llama-bench, llama-quantize): build started in the background");
  return {
    started: performance.now(),
    tools: ensureLlamaTools((line) => console.log(`[llama.cpp] ${line}`)).catch((e: unknown): LlamaTools => ({
      missing: `build failed: ${e instanceof Error ? e.message : String(e)}`,
      failed: true,
    })),
  };
}

async function llamaStage(build: ReturnType<typeof startLlamaBuild>, env: NodeJS.ProcessEnv): Promise<StageResult> {
  console.log("\n=== llama.cpp tools");
  const tools = await build.tools;
  const seconds = (performance.now() - build.started) / 1000;
  if ("bin" in tools) {
    console.log(`llama.cpp tools: ${tools.bin} (${seconds.toFixed(1)} s since the build started)`);
    return { stage: "llama.cpp", passed: 1, failed: 0, seconds };
  }
  env[LLAMA_MISSING_ENV] = tools.missing;
  console.log(`llama.cpp tools ${tools.failed ? "FAILED" : "skipped"}: ${tools.missing}`);
  // a broken build on a machine with a compiler is a failure; no compiler (a laptop) is a visible skip
  if (tools.failed) return { stage: "llama.cpp", passed: 0, failed: 1, seconds };
  return { stage: "llama.cpp", passed: 0, failed: 0, seconds, skipped: tools.missing };
}

/**
 * Test files that start a real JupyterHub with system users (`kurs-*`): they run one at a time, in a
 * process of their own beside the other files (their participants' names and accounts would meet).
 */
const ONE_AT_A_TIME = /^test\/scripts\/hub[-.]/;
/**
 * Files that mostly wait (on a model server, a kernel, a board, a subprocess: little CPU for their time, each
 * measured alone). They run in the hub files' lane after those, one at a time: that lane ends long before
 * the others, and its core would idle meanwhile (`lanes:` in the stage's output says how the two lanes end).
 */
const AFTER_HUB = [
  "test/llm/live-model.test.ts",
  "test/scripts/board-projector.test.ts",
  "test/scripts/tslab-wire.test.ts",
  "test/mcp-server-travel/cli.test.ts",
  "test/scripts/board-class-names.test.ts",
  "test/mcp/server-process.test.ts",
  "test/llm/class-server-faults.test.ts",
  "test/scripts/board-join.test.ts",
];
/**
 * How many of the other test files run at once. Most of them wait (on kernels, servers, subprocesses,
 * a one-thread model); 2 keeps a 2-core machine busy without starving the hub's own processes.
 */
const CONCURRENCY = 2;

/**
 * The test files that take most (each measured alone with /usr/bin/time; the stage is CPU-bound, so by CPU
 * seconds, most first): they start first, so that no long file starts last while the other slot idles. The
 * others follow in name order; the hub lane keeps its own order (hub files longest first, then AFTER_HUB).
 */
const LONG_FIRST = [
  "test/scripts/models-warm.test.ts",
  "test/llm/warm-states.test.ts",
  "test/scripts/doctor.test.ts",
  "test/scripts/run-notebooks.test.ts",
  "test/llm/prompt-state.test.ts",
  "test/exercises/run-all-again.test.ts",
  "test/cli/cli.test.ts",
  "test/examples/examples.test.ts",
  "test/cli/cli-capabilities.test.ts",
  "test/exercises/aufgabe-kernel.test.ts",
  "test/scripts/board-harden.test.ts",
  "test/agent/session.test.ts",
  "test/rag/eval-script.test.ts",
  "test/llm/local-backend.test.ts",
  "test/eval/eval-cli.test.ts",
  "test/cli/cli-practice.test.ts",
  "test/scripts/cli-usage.test.ts",
  "test/tiny-models/tiny-llama.test.ts",
  "test/cli/cli-signals.test.ts",
  "test/scripts/hub.test.ts",
  "test/scripts/hub-security.test.ts",
  "test/scripts/hub-german.test.ts",
  "test/scripts/hub-disk-full.test.ts",
  "test/scripts/hub-robust.test.ts",
];

/** `files` with the known long ones first (in LONG_FIRST's order), then the rest in name order. */
function longFirst(files: string[]): string[] {
  const rank = (f: string) => {
    const i = LONG_FIRST.indexOf(f);
    return i === -1 ? LONG_FIRST.length : i;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** `node --test` over `files` in their order (`concurrency` at a time); resolves with the exit code and the TAP counts. */
async function nodeTest(env: NodeJS.ProcessEnv, files: string[], concurrency: number) {
  const started = performance.now();
  const tapFile = join(tmpdir(), `kit-tap-${process.pid}-${randomBytes(4).toString("hex")}.txt`);
  const code = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--test",
      `--test-concurrency=${concurrency}`,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tapFile}`,
      ...files,
    ],
    env,
  );
  const tap = existsSync(tapFile) ? readFileSync(tapFile, "utf8") : "";
  rmSync(tapFile, { force: true });
  const count = (key: string) => Number(new RegExp(`^# ${key} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  return {
    code,
    seconds: (performance.now() - started) / 1000,
    passed: count("pass"),
    failed: count("fail") + count("cancelled"),
    skipped: (tap.match(/ # SKIP\b/g) ?? []).length,
  };
}

type NodeTestRun = Awaited<ReturnType<typeof nodeTest>>;

/**
 * The unit tests in two lanes: the other files `concurrency` at a time, and beside them the hub files, then
 * AFTER_HUB, one at a time. `thenBeside` (the later stages) follows in the second lane once its files are done:
 * the first lane ends long after it, and a core would idle meanwhile. Resolves with the unit stage's result
 * first, then those of `thenBeside`.
 */
async function unitTests(
  env: NodeJS.ProcessEnv,
  files: string[],
  stage = "unit tests",
  concurrency = CONCURRENCY,
  thenBeside: () => Promise<StageResult[]> = async () => [],
): Promise<StageResult[]> {
  console.log(`\n=== ${stage}`);
  const t = performance.now();
  const since = () => (performance.now() - t) / 1000;
  const hub = files.filter((f) => ONE_AT_A_TIME.test(f));
  const afterHub = hub.length > 0 ? files.filter((f) => AFTER_HUB.includes(f)) : [];
  const alone = [...longFirst(hub), ...afterHub.sort((a, b) => AFTER_HUB.indexOf(a) - AFTER_HUB.indexOf(b))];
  const others = longFirst(files.filter((f) => !alone.includes(f)));
  const lane = (laneFiles: string[], atOnce: number) =>
    (laneFiles.length > 0 ? nodeTest(env, laneFiles, atOnce) : Promise.resolve(undefined)).then((run) => ({
      run,
      ended: since(),
    }));
  const [first, second] = await Promise.all([
    lane(others, concurrency),
    lane(alone, 1).then(async (l) => ({ ...l, later: await thenBeside() })),
  ]);
  const later = second.later;
  const runs = [first.run, second.run].filter((r): r is NodeTestRun => r !== undefined);
  // Where the time goes: the lane that ends last is the one to shorten.
  if (first.run && second.run) {
    const beside =
      later.length > 0 ? `, then ${later.map((r) => r.stage).join(", ")} until ${since().toFixed(0)} s` : "";
    console.log(
      `lanes: ${concurrency} files at a time ${first.ended.toFixed(0)} s; hub files and AFTER_HUB ${second.ended.toFixed(0)} s${beside}`,
    );
  }
  let passed = runs.reduce((n, r) => n + r.passed, 0);
  let failed = 0;
  for (const r of runs) failed += r.code !== 0 && r.failed === 0 ? 1 : r.failed; // 1: the runner itself failed
  if (files.length === 0) {
    failed += 1;
    console.log("no test files found");
    passed = 0;
  }
  const unit = {
    stage,
    passed,
    failed,
    seconds: Math.max(first.ended, second.ended),
    skippedTests: runs.reduce((n, r) => n + r.skipped, 0),
  };
  return [unit, ...later];
}

async function notebooks(env: NodeJS.ProcessEnv): Promise<StageResult> {
  console.log("\n=== notebooks (tslab kernel, tiny models)");
  const t = performance.now();
  // Teil 4 and Aufgabe 4 run completely, under the same kernel and models, in the browser stage.
  const inBrowser = wants("browser") && !browserCheckMissing() ? EXPECTATIONS.map((e) => e.notebook) : [];
  if (inBrowser.length > 0) console.log("Teil 4 and Aufgabe 4: run in the browser stage below");
  const results = await runAllNotebooks(filters, env, false, inBrowser);
  const failed = results.filter((r) => !r.ok).length;
  return { stage: "notebooks", passed: results.length - failed, failed, seconds: (performance.now() - t) / 1000 };
}

async function slides(): Promise<StageResult> {
  console.log("\n=== slides (rehearsal mode under tslab, decks in Chromium)");
  const r = await runSlidesCheck(filters);
  console.log(formatSlidesCheck(r));
  const failed = r.checks.filter((c) => !c.ok).length;
  // Without Chromium the rehearsal part still counts; the result line says what was skipped.
  return {
    stage: "slides",
    passed: r.checks.length - failed,
    failed: failed + (r.checks.length === 0 ? 1 : 0),
    seconds: r.seconds,
    ...(r.skipped ? { note: `browser part skipped: ${r.skipped}` } : {}),
  };
}

async function browser(): Promise<StageResult> {
  console.log("\n=== browser (Chromium against Jupyter Notebook, practice mode)");
  const r = await runBrowserCheck(filters);
  console.log(formatBrowserResult(r));
  const failed = r.results.filter((n) => !n.ok).length;
  return { stage: "browser", passed: r.results.length - failed, failed, seconds: r.seconds, skipped: r.skipped };
}

async function main(stage: string | undefined, selected: string[]): Promise<number> {
  only = stage;
  filters = selected;
  const started = performance.now();
  const runMark = randomBytes(6).toString("hex");
  // Set before the test environment is copied from it, so every child carries it.
  process.env[RUN_MARK_ENV] = runMark;
  const env = await testEnvironment({ tinyModels: true });
  // A developer's own class-board setting never reaches the tests (they start boards of their own).
  for (const key of ["KURS_BOARD", "KURS_NAME", "KURS_CODE"]) delete env[key];
  // Saved prompt states go to a folder of this run, not the project's .cache/llm-state: a state an earlier run
  // (or the developer's own work) left there cannot change what a test measures. Tests that count evaluated
  // tokens use a folder of their own.
  const stateDir = mkdtempSync(join(tmpdir(), "kit-test-llm-state-"));
  env.LLM_STATE_DIR = stateDir;
  const results: StageResult[] = [];
  const unitFiles = wants("unit") ? selectedTestFiles() : [];
  const serverFiles = unitFiles.filter((f) => f.startsWith(LLAMA_TESTS));
  const llamaBuild = serverFiles.length > 0 ? startLlamaBuild() : undefined;
  // Typecheck, lint and format, one after the other (side by side they took as long: tsc and eslint each build a
  // TypeScript program). Each keeps one core busy: they run last, beside the llama-server tests, when the other
  // stages no longer need the second core; the summary lists them first.
  const gates = async () => {
    const done: StageResult[] = [];
    if (wants("typecheck"))
      done.push(await gate("typecheck", join(root, "node_modules/.bin/tsc"), ["--noEmit", "-p", root], env));
    if (wants("lint")) {
      done.push(await gate("lint", join(root, "node_modules/.bin/eslint"), ["--max-warnings", "0", "."], env));
      // The formatter's check (Prettier, 120 columns; `npm run format` fixes what it finds) is part of lint.
      done.push(await gate("format", join(root, "node_modules/.bin/prettier"), ["--check", "."], env));
    }
    return done;
  };
  // Notebooks, slides and browser, one after the other: beside the unit tests (in their second lane, see
  // unitTests) when those run, else on their own.
  const laterStages = async () => [
    ...(wants("notebooks") ? [await notebooks(env)] : []),
    ...(wants("slides") ? [await slides()] : []),
    ...(wants("browser") ? [await browser()] : []),
  ];
  const others = unitFiles.filter((f) => !serverFiles.includes(f));
  if (wants("unit") && (others.length > 0 || serverFiles.length === 0)) {
    // Built once here, not by the first of several test files that run at once and need it.
    if (others.length > 0) console.log(`${ensureNotebookLib()}\n${ensureMcpBundles()}`);
    results.push(...(await unitTests(env, others, "unit tests", CONCURRENCY, laterStages)));
  } else results.push(...(await laterStages()));
  // Last, so that the build overlaps every other stage (a cold build takes longer than the unit tests).
  const llamaServer = async (): Promise<StageResult[]> =>
    llamaBuild
      ? [await llamaStage(llamaBuild, env), ...(await unitTests(env, serverFiles, "llama-server", 1))] // one at a time
      : [];
  const [gateResults, llamaResults] = await Promise.all([gates(), llamaServer()]);
  results.unshift(...gateResults);
  results.push(...llamaResults);

  const leftovers = endLeftovers(runMark);
  rmSync(stateDir, { recursive: true, force: true });
  console.log("\n=== summary");
  for (const r of results) {
    if (r.skipped) console.log(`${r.stage.padEnd(12)} skipped: ${r.skipped}`);
    else {
      const skips = r.skippedTests ? `, ${r.skippedTests} skipped, reasons in their result lines` : "";
      const extra = r.note || skips ? ` (${[r.note, skips.slice(2)].filter(Boolean).join("; ")})` : "";
      console.log(
        `${r.stage.padEnd(12)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${r.seconds.toFixed(1)} s${extra}`,
      );
    }
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  const skipped = results.filter((r) => r.skipped).map((r) => `${r.stage} skipped: ${r.skipped}`);
  if (leftovers.length > 0)
    console.log(`left running by the tests, now ended (${leftovers.length}):\n  ${leftovers.join("\n  ")}`);
  // Stages overlap (notebooks, slides and browser beside the unit tests), so their times do not add up to this.
  console.log(`wall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`checks: ${passed} passed, ${failed} failed${skipped.length ? ` (${skipped.join("; ")})` : ""}`);
  return failed > 0 ? 1 : 0;
}
