// The checkers: one task's expectation against one run (its tool calls, answer, warnings, rounds).
// Pure: every style's run is first turned into an EvalRun (runner.ts), the checks read only that.
import type { ArgConstraint, EvalTask, Fact, RequiredCall } from "./tasks.js";
import { isPlainObject } from "../util.js";

/** One tool call as the checkers see it. */
export interface EvalCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The call returned a result (a write: committed). */
  ok: boolean;
  result?: unknown;
}

/** One run of one task, whatever the style. */
export interface EvalRun {
  answer: string;
  calls: EvalCall[];
  /** Groundedness warnings (German). */
  warnings: string[];
  /** Model generations used. */
  rounds: number;
  status: string;
  /** Plans the loop accepted / all planning replies (plan style; 1/1 elsewhere). */
  validPlans: number;
  planReplies: number;
  /** Invalid plans whose feedback led straight to a valid plan in the next round. */
  repairedRounds: number;
  promptTokens: number;
  ms: number;
}

export interface CheckContext {
  /** The task set's today (YYYY-MM-DD). */
  today: string;
  /** Default tolerance of `near` in degrees. */
  tolerance: number;
}

export interface CheckResult {
  pass: boolean;
  /** German reasons, empty when passed. */
  failures: string[];
  /** Answered without any tool call (a refusal where no tool fits, else a guess). */
  refused: boolean;
}

const WRITE_TOOL = "save_trip_plan";
const names = (tool: string) => tool.split("|");

/** `today` plus `days`, as YYYY-MM-DD. */
export function shiftDate(today: string, days: number): string {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value.replace(",", "."))))
    return Number(value.replace(",", "."));
  return undefined;
}

function meets(value: unknown, c: ArgConstraint, ctx: CheckContext): boolean {
  if ("near" in c) {
    const n = asNumber(value);
    return n !== undefined && Math.abs(n - c.near) <= (c.tol ?? ctx.tolerance);
  }
  if ("date" in c) return value === shiftDate(ctx.today, c.date);
  if ("equals" in c) return JSON.stringify(value) === JSON.stringify(c.equals);
  return typeof value === "string" && new RegExp(c.matches, "iu").test(value);
}

/** A number with a German decimal comma, every digit kept: 23.9 → "23,9". */
const decimal = (n: number) => String(n).replace(".", ",");

function describe(c: ArgConstraint, ctx: CheckContext): string {
  if ("near" in c) return `≈ ${decimal(c.near)} (± ${decimal(c.tol ?? ctx.tolerance)})`;
  if ("date" in c) return shiftDate(ctx.today, c.date);
  if ("equals" in c) return JSON.stringify(c.equals);
  return `/${c.matches}/`;
}

function requiredCallFailure(req: RequiredCall, calls: readonly EvalCall[], ctx: CheckContext): string | undefined {
  const candidates = calls.filter((c) => names(req.tool).includes(c.name) && (c.ok || req.settled));
  if (candidates.length === 0) return `Aufruf ${req.tool} fehlt.`;
  const args = Object.entries(req.args ?? {});
  if (candidates.some((c) => args.every(([k, v]) => meets(c.arguments[k], v, ctx)))) return undefined;
  const wanted = args.map(([k, v]) => `${k} ${describe(v, ctx)}`).join(", ");
  const got = candidates.map((c) => JSON.stringify(c.arguments)).join("; ");
  return `Aufruf ${req.tool} mit falschen Argumenten: erwartet ${wanted}, erhalten ${got}.`;
}

/** The value at a dotted path. */
function at(value: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>(
      (v, key) => (isPlainObject(v) || Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined),
      value,
    );
}

/** How a number may be written: 24.5 / 24,5; 1264 / 1.264 / 1,264 / 1 264. */
export function numberNotations(n: number): string[] {
  const english = String(n);
  const [int = "", frac] = english.replace("-", "").split(".");
  const sign = n < 0 ? "-" : "";
  const group = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const forms = new Set([english, english.replace(".", ",")]);
  if (int.length > 3) {
    for (const [thousands, decimal] of [
      [".", ","],
      [",", "."],
      [" ", ","],
      ["\u202f", ","],
    ] as const) {
      forms.add(sign + group(thousands) + (frac ? decimal + frac : ""));
    }
  }
  return [...forms];
}

/** Whether `text` contains the number as a whole number token (24 does not match 240). */
export function mentionsNumber(text: string, n: number): boolean {
  return numberNotations(n).some((form) => {
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<![\\d.,])${escaped}(?![\\d]|[.,]\\d)`, "u").test(text);
  });
}

function factFailure(fact: Fact, run: EvalRun): string | undefined {
  if ("text" in fact)
    return run.answer.toLowerCase().includes(fact.text.toLowerCase())
      ? undefined
      : `Fakt „${fact.text}“ fehlt in der Antwort.`;
  const results = run.calls.filter((c) => names(fact.tool).includes(c.name) && c.ok);
  const call = results[(fact.call ?? 1) - 1];
  if (!call) return `Fakt ${fact.tool}.${fact.path}: kein Ergebnis von ${fact.tool}.`;
  const value = at(call.result, fact.path);
  const n = asNumber(value);
  if (n !== undefined)
    return mentionsNumber(run.answer, n)
      ? undefined
      : `Fakt ${fact.tool}.${fact.path} = ${decimal(n)} fehlt in der Antwort.`;
  if (typeof value === "string" && value !== "") {
    return run.answer.toLowerCase().includes(value.toLowerCase())
      ? undefined
      : `Fakt ${fact.tool}.${fact.path} = „${value}“ fehlt in der Antwort.`;
  }
  return `Fakt ${fact.tool}.${fact.path}: kein Wert im Ergebnis.`;
}

/** Checks one run against its task's expectation. */
export function checkRun(task: EvalTask, run: EvalRun, ctx: CheckContext): CheckResult {
  const e = task.expect;
  const failures: string[] = [];
  const fail = (message: string | undefined) => message !== undefined && failures.push(message);
  if (run.status !== "answered") fail(`Lauf endete mit Status ${run.status}.`);
  for (const req of e.calls ?? []) fail(requiredCallFailure(req, run.calls, ctx));
  for (const name of e.forbidden ?? []) if (run.calls.some((c) => c.name === name)) fail(`Verbotener Aufruf ${name}.`);
  if (e.noTools && run.calls.length > 0)
    fail(`Kein Werkzeug passt, trotzdem aufgerufen: ${run.calls.map((c) => c.name).join(", ")}.`);
  if (e.firstCall !== undefined && run.calls[0]?.name !== e.firstCall)
    fail(`Erster Aufruf sollte ${e.firstCall} sein, war ${run.calls[0]?.name ?? "keiner"}.`);
  const written = run.calls.some((c) => c.name === WRITE_TOOL && c.ok);
  if (e.written === true && !written) fail("Nichts gespeichert, obwohl freigegeben.");
  if (e.written === false && written) fail("Gespeichert, obwohl nicht freigegeben.");
  for (const f of e.facts ?? []) fail(factFailure(f, run));
  if (e.answerMatches !== undefined && !new RegExp(e.answerMatches, "iu").test(run.answer))
    fail(`Antwort passt nicht zu /${e.answerMatches}/.`);
  if (e.maxRounds !== undefined && run.rounds > e.maxRounds) fail(`${run.rounds} Runden, erlaubt ${e.maxRounds}.`);
  if ((e.grounded ?? true) && run.warnings.length > 0) fail(`Belegprüfung warnt: ${run.warnings.join(" ")}`);
  return { pass: failures.length === 0, failures, refused: run.status === "answered" && run.calls.length === 0 };
}
