// Reliability through redundancy: the same question runs k times, each run in its own staged
// workspace (reads are real, writes wait); every run's outcome — normalised answer text plus its
// staged changes — becomes a key (sha256); the runs vote on keys; only the winner's staged changes are
// committed, through the same approval path a single run uses (decideApproval with the preview).
//
// Decision rules:
// - "ahead-by" (default, margin 2): sample runs one after another and stop as soon as one key leads
//   every other key by `margin` votes; after `k` runs the unique leader wins. This is the MAKER-style
//   rule: when the runs agree (the common case for a model that is usually right) it stops after
//   `margin` runs, so it costs less than a fixed majority of k while deciding the same way in most cases.
// - "majority": the key with the most votes among k runs wins; stops early only when the remaining runs
//   can no longer change the outcome.
// Equal top counts are a tie: nothing is committed, and the result says so (German).
// Runs that end without an answer (max_iterations, llm_error, aborted), with an empty answer, that throw,
// or that a caller-given check rejects are red-flagged: they do not vote and are counted.
//
// Runs are sequential on one model, so the KV cache of the shared prompt prefix (system prompt, catalog,
// question) is reused from run to run; each run only varies the seed.
import { createHash } from "node:crypto";
import type { Llm } from "../llm/types.js";
import { combineToolClients } from "../mcp/composite.js";
import type { ToolCallResult, ToolInfo } from "../mcp/types.js";
import { decideApproval, type ApprovalOutcome, type ApproveFn } from "../agent/approval.js";
import { runAgent, type AgentRunResult, type RunAgentOptions } from "../agent/loop.js";
import type { AgentEvent } from "../agent/trace.js";
import { StagedWorkspace, type CallOptions, type StagedChange } from "../agent/workspace.js";
import { countText, errorText } from "../util.js";

export type VoteRule = "ahead-by" | "majority";

/** Lowest sampling temperature of a voting run: greedy runs would all say the same. */
export const VOTE_MIN_TEMPERATURE = 0.7;

export interface VoteOptions extends Omit<RunAgentOptions, "workspace" | "approve" | "onEvent" | "llm"> {
  /** Most runs; whole numbers ≥ 1 (a smaller k is a RangeError). Required. */
  k: number;
  /** When to stop early: "ahead-by" (one answer leads by `margin`) or "majority" (most votes among k; stops early only when the rest cannot change the winner). Default "ahead-by". */
  rule?: VoteRule;
  /** Lead needed by "ahead-by" (default 2). */
  margin?: number;
  /** Seed of run i is baseSeed + i (default 1). */
  baseSeed?: number;
  /** The model for every run (sequential, its KV cache is reused). Default: none; give it or `llmForRun`. */
  llm?: Llm;
  /** A fresh model per run (scripted planners: no state shared between runs). Wins over `llm`. */
  llmForRun?: (run: number, seed: number) => Llm;
  /** Decides the winner's staged changes, as in a single run. Default: none, so they are refused. */
  approve?: ApproveFn;
  /** Extra red flag: return a reason to keep a finished run out of the vote. Default: none. */
  check?: (result: AgentRunResult) => string | undefined;
  /** Called with every vote event (run start and end, the decision, the commits). */
  onEvent?: (event: VoteEvent) => void;
  /** Events of the individual runs (tagged with the run number). */
  onRunEvent?: (run: number, event: AgentEvent) => void;
}

export interface VoteRun {
  run: number;
  seed: number;
  status: AgentRunResult["status"] | "error";
  final: string;
  /** null when red-flagged. */
  key: string | null;
  redFlag?: string;
  changes: { toolName: string; path: string; bytes: number }[];
  promptTokensEvaluated: number;
  durationMs: number;
}

export interface VoteTally {
  key: string;
  count: number;
  runs: number[];
  /** The answer of the first run with this key. */
  final: string;
}

export interface VoteDecision {
  winner: string | null;
  tie: boolean;
  tally: VoteTally[];
}

export type VoteEvent =
  | { type: "vote_run"; run: VoteRun }
  | {
      type: "vote_decision";
      rule: VoteRule;
      margin: number;
      decision: VoteDecision;
      runsUsed: number;
      runsSaved: number;
      redFlagged: number;
    }
  | { type: "vote_approval"; toolName: string; path: string; outcome: ApprovalOutcome }
  | { type: "vote_commit"; toolName: string; path: string; ok: boolean; message: string };

export interface VoteResult {
  /** The winner's answer, or a German message saying why there is none. */
  final: string;
  decision: VoteDecision;
  rule: VoteRule;
  margin: number;
  runs: VoteRun[];
  runsUsed: number;
  runsSaved: number;
  redFlagged: number;
  /** The winning run's result (absent on a tie or without valid votes). */
  winner?: AgentRunResult;
  committed: StagedChange[];
  events: VoteEvent[];
  promptTokensEvaluated: number;
  durationMs: number;
}

// ---------- normalisation and keys (pure) ----------

/** A number written German or English style as a plain decimal ("1.234,50" and "1,234.5" → "1234.5"). */
function canonicalNumber(raw: string): string {
  let digits = raw;
  const dot = raw.lastIndexOf(".");
  const comma = raw.lastIndexOf(",");
  if (dot >= 0 && comma >= 0) {
    // Both: the later one is the decimal mark.
    const decimal = dot > comma ? "." : ",";
    const group = decimal === "." ? "," : ".";
    digits = raw.split(group).join("").replace(decimal, ".");
  } else if (dot >= 0 || comma >= 0) {
    const mark = dot >= 0 ? "." : ",";
    const parts = raw.split(mark);
    // Repeated, or exactly three digits after a single mark: thousands grouping; else decimal mark.
    const grouping = parts.length > 2 || parts[1]?.length === 3;
    digits = grouping ? parts.join("") : parts.join(".");
  }
  if (digits.includes(".")) digits = digits.replace(/0+$/, "").replace(/\.$/, "");
  return digits.replace(/^0+(?=\d)/, "");
}

/**
 * Answer text as compared in a vote: lower case, numbers canonical (German and English formats),
 * whitespace collapsed, a trailing full stop dropped. Ambiguity: "1,234" and "1.234" both read as 1234.
 */
export function normalizeAnswer(text: string): string {
  return text
    .normalize("NFC")
    .toLowerCase()
    .replace(/\d[\d.,]*\d|\d/g, canonicalNumber)
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!]+$/, "")
    .trim();
}

/** The key a run votes with: sha256 of the normalised answer and its staged changes (tool, path, content). */
export function outcomeKey(final: string, changes: readonly Pick<StagedChange, "toolName" | "preview">[]): string {
  const staged = changes
    .map((c) => ({ tool: c.toolName, path: c.preview.path, content: c.preview.after.replace(/\s+/g, " ").trim() }))
    .sort((a, b) => (a.path + a.tool < b.path + b.tool ? -1 : a.path + a.tool > b.path + b.tool ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify({ answer: normalizeAnswer(final), staged }))
    .digest("hex")
    .slice(0, 12);
}

// ---------- decision (pure) ----------

/** Counts valid votes (null = red-flagged) per key, in order of first appearance. */
export function tallyVotes(keys: readonly (string | null)[], finals: readonly string[] = []): VoteTally[] {
  const byKey = new Map<string, VoteTally>();
  keys.forEach((key, run) => {
    if (key === null) return;
    const entry = byKey.get(key) ?? { key, count: 0, runs: [], final: finals[run] ?? "" };
    entry.count++;
    entry.runs.push(run);
    byKey.set(key, entry);
  });
  return [...byKey.values()].sort((a, b) => b.count - a.count || a.runs[0]! - b.runs[0]!);
}

/** Whether more runs are needed; `k` = most runs, `keys` = votes so far (null = red-flagged). */
export function voteDecided(keys: readonly (string | null)[], k: number, rule: VoteRule, margin = 2): boolean {
  if (keys.length >= k) return true;
  const tally = tallyVotes(keys);
  const first = tally[0]?.count ?? 0;
  const second = tally[1]?.count ?? 0;
  if (rule === "ahead-by") return first > 0 && first - second >= margin;
  // Majority: decided when the remaining runs cannot change who leads (nor make a tie).
  return first > 0 && first - second > k - keys.length;
}

/** The decision after the runs: the unique leader, or a tie (also: no valid votes). */
export function decideVote(keys: readonly (string | null)[], finals: readonly string[] = []): VoteDecision {
  const tally = tallyVotes(keys, finals);
  const first = tally[0];
  if (!first) return { winner: null, tie: false, tally };
  if (tally[1] && tally[1].count === first.count) return { winner: null, tie: true, tally };
  return { winner: first.key, tie: false, tally };
}

// ---------- the workspace of a voting run ----------

/**
 * A run's workspace while the vote is open: a "commit" during the run keeps the change pending (the run
 * goes on as if it were written); only `commitForVote` after the vote writes.
 */
export class VoteWorkspace extends StagedWorkspace {
  override async commit(id: string): Promise<ToolCallResult> {
    const change = this.pending().find((c) => c.id === id);
    if (!change) return super.commit(id); // throws the usual StagingError
    return {
      isError: false,
      data: { staged: true, path: change.preview.path, bytes: change.preview.bytes },
      text: `Vorgemerkt für die Abstimmung (noch nicht geschrieben): ${change.preview.path}`,
    };
  }

  /** Writes a pending change for real (after the vote and its approval). */
  commitForVote(id: string, options?: CallOptions): Promise<ToolCallResult> {
    return super.commit(id, options);
  }
}

// ---------- the runner ----------

/** In a voting run only staged writes are "approved" (they stay pending); anything else would act now. */
const stageOnly: ApproveFn = (request) =>
  request.preview
    ? true
    : {
        approved: false,
        feedback: `Während einer Abstimmung läuft "${request.toolName}" nicht (keine Vorschau möglich).`,
      };

function tieMessage(decision: VoteDecision, redFlagged: number): string {
  if (decision.tally.length === 0) {
    return `Keine gültige Stimme (${countText(redFlagged, "Lauf", "Läufe")} ohne verwertbare Antwort); nichts übernommen.`;
  }
  const top = decision.tally.filter((t) => t.count === decision.tally[0]!.count).length;
  return `Unentschieden: ${top} Ergebnisse mit je ${countText(decision.tally[0]!.count, "Stimme", "Stimmen")}; nichts übernommen.`;
}

async function oneRun(
  options: VoteOptions,
  run: number,
  catalog: ToolInfo[],
): Promise<{ vote: VoteRun; result?: AgentRunResult; workspace: VoteWorkspace }> {
  const seed = (options.baseSeed ?? 1) + run;
  const llm = options.llmForRun?.(run, seed) ?? options.llm;
  if (!llm) throw new TypeError("runVote: `llm` oder `llmForRun` angeben.");
  const workspace = new VoteWorkspace(combineToolClients(options.tools), catalog);
  const started = performance.now();
  let evaluated = 0;
  const generation = {
    ...options.generation,
    seed,
    temperature: Math.max(options.generation?.temperature ?? 0, VOTE_MIN_TEMPERATURE),
  };
  const base = { run, seed, changes: [] as VoteRun["changes"] };
  try {
    const {
      k: _k,
      rule: _r,
      margin: _m,
      baseSeed: _b,
      llmForRun: _l,
      check: _c,
      onEvent: _e,
      onRunEvent,
      approve: _a,
      ...single
    } = options;
    const result = await runAgent({
      ...single,
      llm,
      catalog,
      generation,
      workspace,
      approve: stageOnly,
      onEvent: (event) => {
        if ((event.type === "plan" || event.type === "plan_error") && event.meter)
          evaluated += event.meter.promptTokensEvaluated;
        onRunEvent?.(run, event);
      },
    });
    const pending = workspace.pending();
    const changes = pending.map((c) => ({ toolName: c.toolName, path: c.preview.path, bytes: c.preview.bytes }));
    const redFlag =
      result.status !== "answered"
        ? `ohne Antwort beendet (${result.status})`
        : result.final.trim() === ""
          ? "leere Antwort"
          : options.check?.(result);
    const vote: VoteRun = {
      ...base,
      status: result.status,
      final: result.final,
      key: redFlag ? null : outcomeKey(result.final, pending),
      ...(redFlag ? { redFlag } : {}),
      changes,
      promptTokensEvaluated: evaluated,
      durationMs: Math.round(performance.now() - started),
    };
    return { vote, result, workspace };
  } catch (error) {
    const message = errorText(error);
    const vote: VoteRun = {
      ...base,
      status: "error",
      final: "",
      key: null,
      redFlag: `Fehler: ${message}`,
      promptTokensEvaluated: evaluated,
      durationMs: Math.round(performance.now() - started),
    };
    return { vote, workspace };
  }
}

/** Runs the question up to k times, votes on the outcomes and commits only the winner's staged changes. */
export async function runVote(options: VoteOptions): Promise<VoteResult> {
  const k = Math.floor(options.k);
  if (!(k >= 1)) throw new RangeError(`runVote: k muss mindestens 1 sein (war ${options.k}).`);
  const rule = options.rule ?? "ahead-by";
  const margin = Math.max(1, Math.floor(options.margin ?? 2));
  const started = performance.now();
  const events: VoteEvent[] = [];
  const emit = (event: VoteEvent) => {
    events.push(event);
    options.onEvent?.(event);
  };
  const catalog = options.catalog ?? (await combineToolClients(options.tools).listTools());

  const runs: { vote: VoteRun; result?: AgentRunResult; workspace: VoteWorkspace }[] = [];
  const keys = () => runs.map((r) => r.vote.key);
  while (!voteDecided(keys(), k, rule, margin) && !options.signal?.aborted) {
    const r = await oneRun(options, runs.length, catalog);
    runs.push(r);
    emit({ type: "vote_run", run: r.vote });
  }

  const decision = decideVote(
    keys(),
    runs.map((r) => r.vote.final),
  );
  const redFlagged = runs.filter((r) => r.vote.key === null).length;
  emit({
    type: "vote_decision",
    rule,
    margin,
    decision,
    runsUsed: runs.length,
    runsSaved: k - runs.length,
    redFlagged,
  });

  const winnerRun = decision.winner ? runs.find((r) => r.vote.key === decision.winner) : undefined;
  const committed: StagedChange[] = [];
  if (winnerRun) {
    for (const change of winnerRun.workspace.pending()) {
      const tool = catalog.find((t) => t.name === change.toolName);
      const outcome = await decideApproval(
        { toolId: change.id, toolName: change.toolName, arguments: change.arguments, tool, preview: change.preview },
        options.approval,
        options.approve,
        options.signal,
      );
      emit({ type: "vote_approval", toolName: change.toolName, path: change.preview.path, outcome });
      if (!outcome.allowed) {
        winnerRun.workspace.discard(change.id, outcome.message);
        continue;
      }
      let ok = false;
      let message: string;
      try {
        const result = await winnerRun.workspace.commitForVote(change.id, {
          signal: options.signal,
          timeoutMs: options.toolTimeoutMs,
        });
        ok = !result.isError;
        message = result.text;
      } catch (error) {
        message = errorText(error);
      }
      emit({ type: "vote_commit", toolName: change.toolName, path: change.preview.path, ok, message });
      if (ok) committed.push({ ...change, status: "committed" });
    }
  }
  for (const r of runs) await r.workspace.close();

  return {
    final: winnerRun ? winnerRun.vote.final : tieMessage(decision, redFlagged),
    decision,
    rule,
    margin,
    runs: runs.map((r) => r.vote),
    runsUsed: runs.length,
    runsSaved: k - runs.length,
    redFlagged,
    ...(winnerRun?.result ? { winner: winnerRun.result } : {}),
    committed,
    events,
    promptTokensEvaluated: runs.reduce((sum, r) => sum + r.vote.promptTokensEvaluated, 0),
    durationMs: Math.round(performance.now() - started),
  };
}
