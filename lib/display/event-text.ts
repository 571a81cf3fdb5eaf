// One German line per agent event, for live output in the CLI and in notebooks, and German labels for
// the English enum values (run status, schedule mode, error kinds) wherever participants read them.
import { compactJson } from "../plan/json.js";
import type { PlanParseErrorKind } from "../plan/plan.js";
import type { ScheduleMode } from "../plan/schedule.js";
import type { AgentEvent, RunStatus, ToolErrorKind } from "../agent/events.js";
import type { VoteEvent } from "../patterns/vote.js";
import { countText, hasOwn } from "../util.js";

export const RUN_STATUS_LABELS: Readonly<Record<RunStatus, string>> = {
  answered: "beantwortet",
  max_iterations: "Rundenlimit erreicht, keine Antwort",
  aborted: "abgebrochen",
  llm_error: "Fehler des Sprachmodells",
};

/** German names of the schedule modes, for tables and event texts. */
export const SCHEDULE_MODE_LABELS: Readonly<Record<ScheduleMode, string>> = {
  dependency: "nach Abhängigkeiten",
  "step-parallel": "schrittweise, parallel",
  sequential: "nacheinander",
};

export const TOOL_ERROR_LABELS: Readonly<Record<ToolErrorKind, string>> = {
  tool: "Tool meldet Fehler",
  timeout: "Zeitlimit",
  exception: "Aufruf gescheitert",
  rejected: "nicht freigegeben",
  ref: "$ref nicht auflösbar",
  invalid_arguments: "Argumente ungültig",
  dependency_failed: "Ergebnis fehlt",
  held_back: "zurückgehalten",
};

export const PLAN_ERROR_LABELS: Readonly<Record<PlanParseErrorKind | "generation", string>> = {
  not_text: "kein Text",
  empty: "leer",
  no_json: "kein JSON",
  invalid_json: "ungültiges JSON",
  truncated: "abgeschnitten",
  rejected: "kein Plan",
  not_a_plan: "kein Plan",
  too_deep: "zu tief verschachtelt",
  schema: "falsche Form",
  generation: "Generierung gescheitert",
};

const label = (labels: Readonly<Record<string, string>>, value: string | undefined) =>
  value !== undefined && hasOwn(labels, value) ? (labels[value] as string) : (value ?? "?");

/** German label of a run status, e.g. "beantwortet" for "answered". */
export function runStatusLabel(status: RunStatus | undefined): string {
  return label(RUN_STATUS_LABELS, status);
}

/** German label of a schedule mode, e.g. "nach Abhängigkeiten" for "dependency". */
export function scheduleModeLabel(mode: ScheduleMode): string {
  return label(SCHEDULE_MODE_LABELS, mode);
}

export function toolErrorLabel(kind: ToolErrorKind): string {
  return label(TOOL_ERROR_LABELS, kind);
}

export function planErrorLabel(kind: PlanParseErrorKind | "generation"): string {
  return label(PLAN_ERROR_LABELS, kind);
}

const seconds = (ms: number) =>
  `${(ms / 1000).toLocaleString("de-DE", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} s`;

/** A short German description of `event`, or undefined for events not worth a line. */
export function describeAgentEvent(event: AgentEvent, options: { maxChars?: number } = {}): string | undefined {
  const max = options.maxChars ?? 160;
  const at = `[${seconds(event.atMs).padStart(6)}]`;
  switch (event.type) {
    case "run_start":
      return `${at} Frage: ${event.question} (${event.today ? `heute: ${event.today}, ` : ""}Ausführung ${scheduleModeLabel(event.mode)}, höchstens ${event.maxIterations} Runden)`;
    case "plan": {
      const calls = event.plan.steps.flatMap((s) => s.tools.map((t) => `${t.id}=${t.name}`));
      const final = event.plan.final ? " + Antwort" : "";
      return `${at} Runde ${event.iteration}: Plan mit ${event.plan.steps.length === 1 ? "1 Schritt" : `${event.plan.steps.length} Schritten`} [${calls.join(", ")}]${final}`;
    }
    case "plan_error":
      return `${at} Runde ${event.iteration}: Plan unbrauchbar (${planErrorLabel(event.kind)}): ${event.message.slice(0, max)}`;
    case "validation_problems":
      return `${at} Runde ${event.iteration}: ${event.problems.length === 1 ? "1 Problem" : `${event.problems.length} Probleme`} im Plan → zurück an das Modell: ${event.problems
        .map((p) => p.message)
        .join(" | ")
        .slice(0, max)}`;
    case "output_fallback":
      return `${at} ${event.message}`;
    case "step_start":
      return `${at}   Schritt ${event.stepIndex + 1}: ${event.description}`;
    case "approval":
      return event.outcome.allowed
        ? `${at}   ✔ ${event.toolId} (${event.toolName}) freigegeben`
        : `${at}   ✋ ${event.toolId} (${event.toolName}) abgelehnt: ${event.outcome.message}`;
    case "tool_call":
      return `${at}   → ${event.toolId}: ${event.toolName}(${compactJson(event.arguments, max)})${event.attempt > 1 ? ` – Versuch ${event.attempt}` : ""}`;
    case "tool_result":
      return `${at}   ✓ ${event.toolId} nach ${Math.round(event.durationMs)} ms: ${compactJson(event.result, max)}`;
    case "tool_error":
      return `${at}   ✗ ${event.toolId} (${toolErrorLabel(event.errorKind)}): ${event.message.slice(0, max)}`;
    case "nudge":
      return `${at} Hinweis an das Modell: ${event.message.slice(0, max)}`;
    case "history_trimmed": {
      const r = event.report;
      const parts = [
        r.summarisedRounds ? `${r.summarisedRounds} ältere Runde(n) zusammengefasst` : "",
        r.droppedHistoryMessages ? `${r.droppedHistoryMessages} Nachricht(en) früherer Fragen weggelassen` : "",
        r.droppedRounds ? `${r.droppedRounds} Runde(n) weggelassen` : "",
        r.shortened ? "Text gekürzt" : "",
      ].filter((p) => p !== "");
      return `${at} Verlauf gekürzt, damit er in den Kontext passt (${r.tokens} Tokens): ${parts.join(", ")}`;
    }
    case "answer_writer":
      return `${at} Antwort-Schreiber: ${event.error ? `fehlgeschlagen (${event.error.slice(0, max)}), Antwort des Planers bleibt` : "Antwort aus Frage, Kontext und Tool-Ergebnissen neu geschrieben"}`;
    case "groundedness":
      return event.warnings.length > 0
        ? `${at} ⚠ ${event.warnings.join(" | ").slice(0, max)}`
        : `${at} Alle Zahlen, Daten und Orte der Antwort sind belegt.`;
    case "final":
      return `${at} Fertig: ${runStatusLabel(event.status)}.`;
    default:
      return undefined;
  }
}

/** One German line per vote event (CLI and logs; the notebook shows voteHtml from vote.ts). */
export function describeVoteEvent(event: VoteEvent): string {
  switch (event.type) {
    case "vote_run": {
      const r = event.run;
      const what = r.key ? `Stimme für ${r.key}` : `ungültig (${r.redFlag})`;
      return `Abstimmung: Lauf ${r.run + 1} (Seed ${r.seed}) – ${what}, ${r.durationMs} ms`;
    }
    case "vote_decision": {
      const counts = event.decision.tally.map((t) => `${t.key}: ${t.count}`).join(", ") || "keine";
      const verdict = event.decision.winner ? `Gewinner ${event.decision.winner}` : "kein Gewinner, nichts übernommen";
      const rule = event.rule === "ahead-by" ? `${countText(event.margin, "Stimme", "Stimmen")} Vorsprung` : "Mehrheit";
      return `Abstimmung (${rule}): ${counts}; ${event.redFlagged} ungültig; ${verdict}; ${countText(event.runsUsed, "Lauf", "Läufe")}, ${event.runsSaved} gespart`;
    }
    case "vote_approval":
      return `Abstimmung: ${event.toolName} → ${event.path} ${event.outcome.allowed ? "freigegeben" : `nicht freigegeben (${event.outcome.message})`}`;
    case "vote_commit":
      return `Abstimmung: ${event.path} ${event.ok ? "geschrieben" : `nicht geschrieben: ${event.message}`}`;
  }
}
