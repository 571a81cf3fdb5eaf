// Runs the planned tool calls of one iteration: resolve `$ref`s and check arguments (only for calls
// checkPlan could not prepare), ask for approval, call the tool with a timeout and retries for transient
// errors, normalize the result. Concurrency follows the schedule mode (schedule.ts). Tool failures
// become outcomes, never exceptions.
import { isTransientError, ToolTimeoutError } from "../mcp/errors.js";
import { toolResultValue } from "../mcp/result.js";
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import { delay, errorText, ignore, untilAborted } from "../util.js";
import { classifyTool, decideApproval, type ApprovalPolicy, type ApproveFn } from "./approval.js";
import { ASK_USER_TOOL_NAME, askUser, type AskUserFn } from "./ask-user.js";
import { checkArguments } from "../plan/arguments.js";
import type { Plan } from "../plan/plan.js";
import { RefError, resolveRefs, type UserContext } from "../plan/refs.js";
import {
  blockedCalls,
  readyCalls,
  type BlockedCall,
  type Blocker,
  type ScheduledCall,
  type ScheduleMode,
} from "../plan/schedule.js";
import type { AgentEvent, ToolErrorKind } from "./trace.js";
import { cleanArguments, type ExecutedTool } from "../plan/check.js";
import { StagingError, type StagedChange, type StagedWorkspace } from "./workspace.js";

/**
 * Retries of one tool call. The executor is the only place that sends a call again: a call is sent at
 * most 1 + `retries` times (the MCP client reconnects within one send only when nothing reached a tool).
 */
export interface RetryPolicy {
  /** N: extra sends after the first one for transient failures (default 1, so at most 2 sends). */
  retries: number;
  /** Backoff before retry n is baseDelayMs · 2^(n-1), capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Whether a thrown error is worth another try (default isTransientError: by class and error code). */
  isTransient?: (error: unknown) => boolean;
  /** Retry after a timeout as well (default false: a slow tool stays slow). */
  retryTimeouts?: boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { retries: 1, baseDelayMs: 200, maxDelayMs: 2000 };

/** Everything the loop keeps about tool calls across iterations (mutated by the executor). */
export interface ExecutionState {
  /** Results of successful calls by tool id (what `$ref`s read); no prototype, so any id is safe. */
  results: Record<string, unknown>;
  /** Every call that ran or was refused, by id: such an id never runs again. */
  executed: Map<string, ExecutedTool>;
}

export function createExecutionState(): ExecutionState {
  return { results: Object.create(null) as Record<string, unknown>, executed: new Map() };
}

export interface ToolOutcome {
  toolId: string;
  toolName: string;
  stepIndex: number;
  /** Resolved arguments when resolution succeeded, else the planned ones. */
  arguments: Record<string, unknown>;
  ok: boolean;
  result?: unknown;
  error?: string;
  errorKind?: ToolErrorKind;
  durationMs: number;
  attempts: number;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type ExecutorEvent = DistributiveOmit<AgentEvent, "iteration" | "atMs">;

export interface ExecutorOptions {
  client: ToolClient;
  catalog: ReadonlyMap<string, ToolInfo>;
  mode: ScheduleMode;
  toolTimeoutMs: number;
  retry: RetryPolicy;
  approval: ApprovalPolicy;
  approve?: ApproveFn;
  userCtx: UserContext;
  /**
   * Arguments checkPlan already resolved and checked, by tool id (sent as they are). Calls not in it
   * (they wait for a result of this plan) are resolved and checked here, right before they run.
   */
  prepared?: ReadonlyMap<string, Record<string, unknown>>;
  emit: (event: ExecutorEvent) => void;
  signal?: AbortSignal;
  now?: () => number;
  /** Stages side-effecting calls that offer a preview: approval shows the diff, commit writes (workspace.ts). */
  workspace?: StagedWorkspace;
  /** Answers `ask_user` calls; without it they fail with „Rückfrage nicht möglich". */
  askUser?: AskUserFn;
}

const BLOCKER_TEXT: Record<Blocker["reason"], string> = {
  failed: "ist fehlgeschlagen",
  blocked: "konnte selbst nicht laufen",
  not_run: "wurde nicht ausgeführt",
};

function blockerList(blockers: readonly Blocker[]): string {
  return blockers.map((b) => `"${b.id}" ${BLOCKER_TEXT[b.reason]}`).join(", ");
}

/** The German outcome text for a call that could not start, saying what happened to what it waited for. */
export function blockedMessage(c: BlockedCall): { message: string; errorKind: ToolErrorKind } {
  const id = `"${c.call.id}"`;
  const data = c.blockers.filter((b) => b.via === "data");
  if (data.length > 0) {
    const needs =
      data.length === 1
        ? `das Ergebnis von "${data[0]?.id}"`
        : `die Ergebnisse von ${data.map((b) => `"${b.id}"`).join(", ")}`;
    return {
      errorKind: "dependency_failed",
      message: `Nicht ausgeführt: ${id} braucht ${needs}, aber ${blockerList(data)}.`,
    };
  }
  const order = c.blockers.filter((b) => b.via === "order");
  const message = c.readOnly
    ? `Nicht ausgeführt: ${id} steht nach einem früheren Schritt, der etwas verändert, und wartet darauf; ${blockerList(order)}. ` +
      `Prüfe die Ergebnisse; ${id} darf unverändert im Plan bleiben, wenn es noch passt.`
    : `Nicht ausgeführt: ${id} verändert etwas und läuft erst, wenn alle früheren Schritte geklappt haben; ${blockerList(order)}. ` +
      `Prüfe die Ergebnisse; ${id} darf unverändert im Plan bleiben, wenn es noch passt.`;
  return { errorKind: "held_back", message };
}

/**
 * The one owner of the per-call time limit: `send` gets a signal that aborts after `timeoutMs` (reason
 * ToolTimeoutError) or with the run, and the wait ends then even if the tool ignores the signal.
 * Every tool call goes through here: plain calls, staged previews and commits.
 */
async function withToolTimeout<T>(
  name: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ToolTimeoutError(name, timeoutMs)), timeoutMs);
  const onOuterAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener("abort", onOuterAbort, { once: true });
  try {
    return await untilAborted(
      Promise.resolve().then(() => send(controller.signal)),
      controller.signal,
    );
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}

/**
 * Runs the calls of `scope` (see iterationScope) with the mode's concurrency, records them in
 * `state`, and returns one outcome per call that was attempted or could not run.
 */
export async function executeScope(
  plan: Plan,
  scope: readonly ScheduledCall[],
  state: ExecutionState,
  options: ExecutorOptions,
): Promise<ToolOutcome[]> {
  const now = options.now ?? (() => performance.now());
  const succeeded = new Set([...state.executed.values()].filter((e) => e.ok).map((e) => e.id));
  const failed = new Set([...state.executed.values()].filter((e) => !e.ok).map((e) => e.id));
  const running = new Map<string, Promise<void>>();
  const outcomes: ToolOutcome[] = [];
  const startedSteps = new Set<number>();

  const startStep = (stepIndex: number) => {
    if (startedSteps.has(stepIndex)) return;
    startedSteps.add(stepIndex);
    const step = plan.steps[stepIndex];
    options.emit({
      type: "step_start",
      stepIndex,
      description: step?.description ?? "",
      toolIds: scope.filter((c) => c.stepIndex === stepIndex).map((c) => c.call.id),
    });
  };

  const record = (call: ScheduledCall["call"], outcome: ToolOutcome, executed: boolean) => {
    outcomes.push(outcome);
    if (outcome.ok) {
      succeeded.add(outcome.toolId);
      state.results[outcome.toolId] = outcome.result;
    } else {
      failed.add(outcome.toolId);
    }
    if (executed) {
      state.executed.set(outcome.toolId, {
        id: outcome.toolId,
        name: outcome.toolName,
        arguments: call.arguments,
        ok: outcome.ok,
      });
    }
  };

  for (;;) {
    if (!options.signal?.aborted) {
      const ready = readyCalls(scope, { succeeded, failed, running: new Set(running.keys()) }, options.mode);
      for (const c of ready) {
        startStep(c.stepIndex);
        const task = runOne(c, state, options, now).then(({ outcome, executed }) => {
          running.delete(c.call.id);
          record(c.call, outcome, executed);
        });
        running.set(c.call.id, task);
      }
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }

  for (const c of blockedCalls(scope, { succeeded, failed, running: new Set() })) {
    const { message, errorKind } = blockedMessage(c);
    options.emit({
      type: "tool_error",
      toolId: c.call.id,
      toolName: c.call.name,
      stepIndex: c.stepIndex,
      errorKind,
      message,
      durationMs: 0,
      attempts: 0,
    });
    outcomes.push({
      toolId: c.call.id,
      toolName: c.call.name,
      stepIndex: c.stepIndex,
      arguments: c.call.arguments,
      ok: false,
      error: message,
      errorKind,
      durationMs: 0,
      attempts: 0,
    });
  }
  return outcomes;
}

async function runOne(
  c: ScheduledCall,
  state: ExecutionState,
  options: ExecutorOptions,
  now: () => number,
): Promise<{ outcome: ToolOutcome; executed: boolean }> {
  const { call, stepIndex } = c;
  const started = now();
  const tool = options.catalog.get(call.name);
  const base = { toolId: call.id, toolName: call.name, stepIndex };
  const fail = (
    errorKind: ToolErrorKind,
    message: string,
    args: Record<string, unknown>,
    attempts: number,
    executed: boolean,
  ) => {
    const durationMs = now() - started;
    options.emit({ type: "tool_error", ...base, errorKind, message, durationMs, attempts });
    return {
      outcome: { ...base, arguments: args, ok: false, error: message, errorKind, durationMs, attempts },
      executed,
    };
  };

  let args = options.prepared?.get(call.id);
  if (args === undefined) {
    try {
      args = cleanArguments(resolveRefs(call.arguments, state.results, options.userCtx), tool);
    } catch (error) {
      if (error instanceof RefError) return fail("ref", error.message, call.arguments, 0, false);
      return fail("ref", errorText(error, { withName: true }), call.arguments, 0, false);
    }
    const check = tool ? checkArguments(tool, args) : { ok: true, issues: [] };
    if (!check.ok) {
      return fail(
        "invalid_arguments",
        `Argumente passen nicht zum Eingabe-Schema: ${check.issues.map((i) => i.message).join(" ")}`,
        args,
        0,
        false,
      );
    }
  }

  if (call.name === ASK_USER_TOOL_NAME) {
    // Answered by the person, not a server: no tool timeout (people read slowly), no retry.
    options.emit({ type: "tool_call", ...base, arguments: args, attempt: 1 });
    const asked = await askUser(
      typeof args.question === "string" ? args.question : "",
      options.askUser,
      options.signal,
    );
    if (!asked.ok) return fail("tool", asked.message, args, 1, true);
    const durationMs = now() - started;
    options.emit({ type: "tool_result", ...base, result: asked.result, durationMs, attempts: 1 });
    return {
      outcome: { ...base, arguments: args, ok: true, result: asked.result, durationMs, attempts: 1 },
      executed: true,
    };
  }

  const sent = args; // narrowed, for the closures below
  // A write is staged first: the server previews it (nothing written), the approval shows the diff.
  const workspace = options.workspace;
  let staged: StagedChange | undefined;
  if (workspace?.stages(call.name) && classifyTool(tool, call.name, options.approval) === "side-effecting") {
    try {
      staged = await withToolTimeout(call.name, options.toolTimeoutMs, options.signal, (signal) =>
        workspace.stage(call.id, call.name, sent, { signal }),
      );
    } catch (error) {
      if (error instanceof ToolTimeoutError)
        return fail("timeout", `Keine Vorschau: ${error.message} Nichts geschrieben.`, args, 1, true);
      const message =
        error instanceof StagingError
          ? error.message
          : `Vorschau für "${call.name}" fehlgeschlagen: ${errorText(error, { withName: true })}`;
      return fail("tool", message, args, 1, true);
    }
  }

  const approval = await decideApproval(
    { toolId: call.id, toolName: call.name, arguments: args, tool, ...(staged ? { preview: staged.preview } : {}) },
    options.approval,
    options.approve,
    options.signal,
  );
  if (approval.by !== "read-only")
    options.emit({ type: "approval", toolId: call.id, toolName: call.name, outcome: approval });
  if (!approval.allowed) {
    if (staged) workspace?.discard(call.id, approval.message);
    return fail("rejected", approval.message, args, 0, true);
  }

  const policy = options.retry;
  const transient = policy.isTransient ?? isTransientError;
  for (let attempt = 1; ; attempt++) {
    options.emit({ type: "tool_call", ...base, arguments: args, attempt });
    try {
      const result = await withToolTimeout(call.name, options.toolTimeoutMs, options.signal, (signal) =>
        staged && workspace
          ? workspace.commit(call.id, { signal })
          : options.client.callTool(call.name, sent, { signal }),
      );
      if (result.isError) {
        const text =
          result.text || (typeof result.data === "string" ? result.data : JSON.stringify(result.data ?? null));
        return fail("tool", text || `Das Tool "${call.name}" meldete einen Fehler ohne Text.`, args, attempt, true);
      }
      const value = toolResultValue(result);
      const durationMs = now() - started;
      options.emit({ type: "tool_result", ...base, result: value, durationMs, attempts: attempt });
      return {
        outcome: { ...base, arguments: args, ok: true, result: value, durationMs, attempts: attempt },
        executed: true,
      };
    } catch (error) {
      const isTimeout = error instanceof ToolTimeoutError;
      // A staged commit is sent once: the change is settled either way.
      const retryable =
        !staged &&
        !options.signal?.aborted &&
        attempt <= policy.retries &&
        (isTimeout ? policy.retryTimeouts === true : transient(error));
      if (retryable) {
        await delay(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)), options.signal).catch(
          ignore("an abort during the back-off ends the loop at its next check"),
        );
        continue;
      }
      if (isTimeout) return fail("timeout", error.message, args, attempt, true);
      const prefix = options.signal?.aborted ? "Abgebrochen" : `Aufruf von "${call.name}" fehlgeschlagen`;
      return fail("exception", `${prefix}: ${errorText(error, { withName: true })}`, args, attempt, true);
    }
  }
}
