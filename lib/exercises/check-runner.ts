// A tiny self-check runner for the exercise notebooks: runs a participant's function against
// behavioural cases and prints a German verdict per case plus a summary line.
// In exercise notebooks it only prints; `{ strict: true }` (solution notebooks, CI) throws on a failure.
import { inspect, isDeepStrictEqual } from "node:util";
import { showArgs, showError, showResult, showValue } from "./show.js";
import { errorText, hasOwn } from "../util.js";
import { kernelBoardReporter, type BoardReporter } from "./board-report.js";
import { KitError } from "../errors.js";

/** Any function a check can test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- participants' functions have any shape
export type AnyFunction = (...args: any[]) => unknown;

export interface CheckCase<F extends AnyFunction> {
  /** The behaviour this case checks, in German ("Ältester Wortwechsel fliegt zuerst raus"). */
  name: string;
  /** Arguments for the call (deep-copied per run, functions kept as they are), or a function that makes them. */
  args?: Parameters<F> | (() => Parameters<F>);
  /** Custom invocation instead of `fn(...args)`, e.g. two calls in a row. */
  call?: (fn: F) => unknown;
  /** How to show the input (default: the call with its arguments). */
  input?: string;
  /** Expected return value (compared with sameData: key order and `undefined` object fields do not matter). */
  expect?: unknown;
  /** Own check of the returned value: a German description of the problem, or undefined when fine. */
  verify?: (actual: unknown, args: Parameters<F>) => string | undefined;
  /** What `verify` or `throws` expects, for the verdict ("eine Zahl zwischen 0 und 1"). */
  expectation?: string;
  /** The function must throw; its message must contain each of these texts. */
  throws?: { messageIncludes?: string[] };
  /** The function must not change its arguments. */
  unchangedInput?: boolean;
}

export interface CheckSet<F extends AnyFunction> {
  /** The name the participant's function has in the notebook. */
  functionName: string;
  /** Short German title of the task. */
  title: string;
  cases: ReadonlyArray<CheckCase<F>>;
  /**
   * Shared test data that case inputs refer to by name (`hitAtK(R, 3)`), as German lines ("R = …").
   * Printed once above the cases when a case fails, so a failing line need not repeat large objects.
   */
  context?: readonly string[];
  /** Time limit per case when the caller gives none (default DEFAULT_CHECK_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface CheckOptions {
  /** Throw a CheckFailedError when a case fails (solution notebooks, CI). Default false. */
  strict?: boolean;
  /** Time limit per case for async functions in ms (default 5000). */
  timeoutMs?: number;
  /** Where the verdict lines go, one call per line (default: one console.log call with all lines). */
  log?: (line: string) => void;
  /**
   * Where the run's counts are reported (default: this kernel's class board, set by KURS_BOARD, KURS_NAME,
   * KURS_CODE — nothing is sent when unset); false: never.
   */
  board?: BoardReporter | false;
}

export interface CaseOutcome {
  name: string;
  ok: boolean;
  input: string;
  expected?: string;
  actual?: string;
  /** What went wrong, in German. */
  problem?: string;
  /** The function threw NotSolvedError: the task is still a skeleton. */
  notSolved?: true;
}

export interface CheckReport {
  functionName: string;
  title: string;
  total: number;
  passed: number;
  failed: number;
  ok: boolean;
  cases: CaseOutcome[];
}

/** The message of NotSolvedError: what participants see while a task is still a skeleton. */
export const NOT_SOLVED = "Noch nicht gelöst";

const NOT_SOLVED_MARK = Symbol.for("llm-workshop-kit.NotSolvedError");

/**
 * What a task skeleton throws until the participant writes their own code (`throw new NotSolvedError();`).
 * Its `name` stays "Error", so what participants see is unchanged: "Error: Noch nicht gelöst".
 */
export class NotSolvedError extends KitError {
  // What a cell shows stays "Error: Noch nicht gelöst", as before the error root.
  override name = "Error";
  readonly [NOT_SOLVED_MARK] = true;
  constructor() {
    super(NOT_SOLVED);
  }
}

/** True for a NotSolvedError, also one from a second copy of this module (the mark is a global symbol). */
export function isNotSolved(error: unknown): error is NotSolvedError {
  return error instanceof NotSolvedError || (error instanceof Error && NOT_SOLVED_MARK in error);
}

/** Thrown by a check with `strict: true` when cases failed; the message counts and names them. */
export class CheckFailedError extends KitError {
  override name = "CheckFailedError";
  constructor(readonly report: CheckReport) {
    const failing = report.cases.filter((c) => !c.ok).map((c) => `„${c.name}“`);
    super(
      `Selbsttest ${report.functionName}: ${report.failed} von ${report.total} Fällen fehlgeschlagen (${failing.join(", ")}). ` +
        "Die Ausgabe oben zeigt Eingabe, Erwartung und Ergebnis jedes Falls.",
    );
  }
}

/** How long one case may run before it counts as failed, in ms. */
export const DEFAULT_CHECK_TIMEOUT_MS = 5000;

/** Deep copy of plain objects and arrays; functions, class instances and primitives are kept. */
export function copyArgs<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => copyArgs(v)) as unknown as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = copyArgs((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}

/** An object literal (prototype Object.prototype or null); Date, Map and class instances are not. */
function isLiteralObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * True when both values are the same data: key order and object fields whose value is `undefined` do not
 * matter (`{ a: 1, b: undefined }` equals `{ a: 1 }`), but everything JSON would blur does: `undefined` is
 * not `null` (also in arrays), `Infinity` and `NaN` are not `null`, NaN equals NaN, 0 equals -0.
 * Other objects (Date, Map, class instances, …) are compared with util.isDeepStrictEqual.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (isLiteralObject(a) && isLiteralObject(b)) {
    const keys = (o: Record<string, unknown>) =>
      Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
    const keysA = keys(a);
    const keysB = keys(b);
    if (keysA.length !== keysB.length || keysA.some((k, i) => k !== keysB[i])) return false;
    return keysA.every((k) => sameData(a[k], b[k]));
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  return isDeepStrictEqual(a, b);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

class CaseTimeout extends Error {
  override name = "CaseTimeout";
}

async function settle(value: unknown, timeoutMs: number): Promise<unknown> {
  if (!isThenable(value)) return value;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CaseTimeout(`keine Antwort nach ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve(value), timeout]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

type Invocation = { threw: false; value: unknown } | { threw: true; error: unknown };

async function invoke<F extends AnyFunction>(
  fn: F,
  c: CheckCase<F>,
  args: Parameters<F>,
  timeoutMs: number,
): Promise<Invocation> {
  try {
    const raw = c.call ? c.call(fn) : fn(...(args as unknown[]));
    return { threw: false, value: await settle(raw, timeoutMs) };
  } catch (error) {
    return { threw: true, error };
  }
}

async function runCase<F extends AnyFunction>(
  set: CheckSet<F>,
  fn: F,
  c: CheckCase<F>,
  timeoutMs: number,
): Promise<CaseOutcome> {
  let given: Parameters<F> | undefined;
  try {
    given = typeof c.args === "function" ? (c.args as () => Parameters<F>)() : c.args;
  } catch (error) {
    return {
      name: c.name,
      ok: false,
      input: c.input ?? set.functionName,
      problem: `Die Testdaten dieses Falls ließen sich nicht laden (${showError(error)}).`,
    };
  }
  const args = copyArgs((given ?? []) as Parameters<F>);
  const before = c.unchangedInput ? copyArgs(args) : undefined;
  const input = c.input ?? `${set.functionName}(${showArgs(args as unknown[])})`;
  const outcome = await invoke(fn, c, args, timeoutMs);

  if (outcome.threw === true) {
    const error = outcome.error;
    if (error instanceof CaseTimeout) {
      return {
        name: c.name,
        ok: false,
        input,
        problem: `Deine Funktion hat nach ${timeoutMs} ms nicht geantwortet (Endlosschleife oder ein Promise, das nie fertig wird?).`,
      };
    }
    const threw: CaseOutcome = {
      name: c.name,
      ok: false,
      input,
      actual: `Fehler: ${showError(error)}`,
      problem: "Deine Funktion hat einen Fehler geworfen.",
    };
    if (isNotSolved(error)) return { ...threw, notSolved: true };
    if (c.throws) {
      const message = errorText(error);
      const missing = (c.throws.messageIncludes ?? []).filter((part) => !message.includes(part));
      if (missing.length === 0) return { name: c.name, ok: true, input };
      return {
        name: c.name,
        ok: false,
        input,
        expected: c.expectation ?? `ein Fehler, dessen Meldung ${missing.map((m) => `„${m}“`).join(" und ")} nennt`,
        actual: showError(error),
        problem: `Die Fehlermeldung nennt nicht ${missing.map((m) => `„${m}“`).join(" und ")} – wer sie liest, soll wissen, was fehlt.`,
      };
    }
    return threw;
  }

  const actual = outcome.value;
  if (c.throws) {
    return {
      name: c.name,
      ok: false,
      input,
      expected: c.expectation ?? "ein Fehler (throw)",
      actual: showResult(actual),
      problem: "Hier muss deine Funktion einen Fehler werfen.",
    };
  }
  if (hasOwn(c, "expect") && !sameData(actual, c.expect)) {
    return { name: c.name, ok: false, input, expected: showResult(c.expect), actual: showResult(actual) };
  }
  if (c.verify) {
    let problem: string | undefined;
    try {
      problem = c.verify(actual, args);
    } catch (error) {
      problem = `Das Ergebnis hat nicht die erwartete Form (${showError(error)}).`;
    }
    if (problem)
      return { name: c.name, ok: false, input, expected: c.expectation, actual: showResult(actual), problem };
  }
  if (before !== undefined && !isDeepStrictEqual(args, before)) {
    return {
      name: c.name,
      ok: false,
      input,
      expected: `unveränderte Eingabe ${showValue(before)}`,
      actual: `danach ${showValue(args)}`,
      problem: "Deine Funktion hat ihre Eingabe verändert – gib lieber ein neues Objekt zurück.",
    };
  }
  return { name: c.name, ok: true, input };
}

/** True when every case failed the same way (a placeholder that throws, or not a function at all). */
function failedAlike(report: CheckReport): boolean {
  const [first] = report.cases;
  return (
    report.passed === 0 &&
    first !== undefined &&
    report.cases.length > 1 &&
    report.cases.every((c) => c.actual === first.actual && c.problem === first.problem && c.expected === undefined)
  );
}

function summaryLine(report: CheckReport): string {
  return report.ok
    ? `Ergebnis: alle ${report.total} Fälle bestanden. 🎉`
    : `Ergebnis: ${report.passed} von ${report.total} Fällen bestanden, ${report.failed} fehlgeschlagen – schau dir die ❌ oben an.`;
}

function verdictLines(report: CheckReport, context: readonly string[] = []): string[] {
  const lines = [`🔎 Selbsttest „${report.functionName}“ – ${report.title} (${report.total} Fälle)`];
  const first = report.cases[0];
  // One line instead of the same failure N times: the empty exercise, or a cell not run yet.
  const notSolved = report.passed === 0 && report.cases.every((c) => c.notSolved === true);
  if (first && (notSolved || failedAlike(report))) {
    lines.push(
      notSolved
        ? `❌ ${NOT_SOLVED}: Ersetze in der Zelle mit ${report.functionName} die Zeile mit throw durch deinen Code.`
        : `❌ Alle ${report.total} Fälle scheitern gleich: ${first.problem ?? ""} ${first.actual ?? ""}`.trimEnd(),
    );
    lines.push(summaryLine(report));
    return lines;
  }
  if (!report.ok && context.length > 0) {
    lines.push("   Testdaten, auf die sich die Eingaben unten beziehen:");
    for (const line of context) lines.push(`     ${line}`);
  }
  report.cases.forEach((c, i) => {
    lines.push(`${c.ok ? "✅" : "❌"} ${i + 1}. ${c.name}`);
    if (c.ok) return;
    lines.push(`     Eingabe:  ${c.input}`);
    if (c.expected !== undefined) lines.push(`     Erwartet: ${c.expected}`);
    if (c.actual !== undefined) lines.push(`     Bekommen: ${c.actual}`);
    if (c.problem !== undefined) lines.push(`     Problem:  ${c.problem}`);
  });
  lines.push(summaryLine(report));
  return lines;
}

/** Runs `fn` against every case of `set`, prints the verdict and returns the report. */
export async function runChecks<F extends AnyFunction>(
  set: CheckSet<F>,
  fn: F,
  options: CheckOptions = {},
): Promise<CheckReport> {
  const timeoutMs = options.timeoutMs ?? set.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  let cases: CaseOutcome[];
  if (typeof fn !== "function") {
    const problem = `Statt einer Funktion wurde ${showValue(fn)} übergeben. Hast du die Zelle mit ${set.functionName} schon ausgeführt?`;
    cases = set.cases.map((c) => ({ name: c.name, ok: false, input: c.input ?? set.functionName, problem }));
  } else {
    cases = [];
    for (const c of set.cases) cases.push(await runCase(set, fn, c, timeoutMs));
  }
  const passed = cases.filter((c) => c.ok).length;
  const report: CheckReport = {
    functionName: set.functionName,
    title: set.title,
    total: cases.length,
    passed,
    failed: cases.length - passed,
    ok: passed === cases.length,
    cases,
  };
  // A notebook cell ending in `await checkX(fn)` displays the returned value with util.inspect; the
  // verdict is already printed, so the report shows as nothing there (its fields stay readable).
  Object.defineProperty(report, inspect.custom, { enumerable: false, value: () => "" });
  const lines = verdictLines(report, set.context);
  // Under tslab every console.log is one message to Jupyter; with one call per line the tail of a
  // verdict was seen missing twice on a busy machine (cause not pinned down). One call arrives whole.
  if (options.log) for (const line of lines) options.log(line);
  else console.log(lines.join("\n"));
  const board = options.board ?? kernelBoardReporter();
  if (board) await board.report(report, options.log ?? ((line) => console.log(line)));
  if (options.strict && !report.ok) throw new CheckFailedError(report);
  return report;
}

/** A check function bound to one case set: `await checkTrimHistory(trimHistory)`. */
export type CheckFunction<F extends AnyFunction> = ((fn: F, options?: CheckOptions) => Promise<CheckReport>) & {
  readonly set: CheckSet<F>;
};

/** Binds a check set to a function that runs it: `await checkX(x)` prints the report and returns it. */
export function defineCheck<F extends AnyFunction>(set: CheckSet<F>): CheckFunction<F> {
  const check = (fn: F, options?: CheckOptions) => runChecks(set, fn, options);
  return Object.assign(check, { set });
}
