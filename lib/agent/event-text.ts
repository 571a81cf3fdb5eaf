// One German line per agent event, for live output in the CLI and in notebooks.
import { compactJson } from "./json-util.js";
import type { AgentEvent } from "./trace.js";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A short German description of `event`, or undefined for events not worth a line. */
export function describeAgentEvent(event: AgentEvent, options: { maxChars?: number } = {}): string | undefined {
  const max = options.maxChars ?? 160;
  const at = `[${seconds(event.atMs).padStart(6)}]`;
  switch (event.type) {
    case "run_start":
      return `${at} Frage: ${event.question} (Modus ${event.mode}, höchstens ${event.maxIterations} Runden)`;
    case "plan": {
      const calls = event.plan.steps.flatMap((s) => s.tools.map((t) => `${t.id}=${t.name}`));
      const final = event.plan.final ? " + Antwort" : "";
      return `${at} Runde ${event.iteration}: Plan mit ${event.plan.steps.length} Schritt(en) [${calls.join(", ")}]${final}`;
    }
    case "plan_error":
      return `${at} Runde ${event.iteration}: Plan unbrauchbar (${event.kind}): ${event.message.slice(0, max)}`;
    case "validation_problems":
      return `${at} Runde ${event.iteration}: ${event.problems.length} Problem(e) im Plan → zurück an das Modell: ${event.problems
        .map((p) => p.message)
        .join(" | ")
        .slice(0, max)}`;
    case "output_fallback":
      return `${at} ${event.message}`;
    case "step_start":
      return `${at}   Schritt ${event.stepIndex + 1}: ${event.description}`;
    case "approval":
      return event.outcome.allowed ? undefined : `${at}   ✋ ${event.toolId} (${event.toolName}) abgelehnt: ${event.outcome.message}`;
    case "tool_call":
      return `${at}   → ${event.toolId}: ${event.toolName}(${compactJson(event.arguments, max)})${event.attempt > 1 ? ` – Versuch ${event.attempt}` : ""}`;
    case "tool_result":
      return `${at}   ✓ ${event.toolId} nach ${Math.round(event.durationMs)} ms: ${compactJson(event.result, max)}`;
    case "tool_error":
      return `${at}   ✗ ${event.toolId} (${event.errorKind}): ${event.message.slice(0, max)}`;
    case "nudge":
      return `${at} Hinweis an das Modell: ${event.message.slice(0, max)}`;
    case "final":
      return `${at} Fertig (${event.status}).`;
    default:
      return undefined;
  }
}
