// Helpers the presentation notebooks (Teil 4) call in one line: a scripted "good model" for a plan and a
// tool client that answers slowly. They show the agent at work; they are not what the notebooks teach.
import type { ToolClient } from "../mcp/types.js";
import type { PlanStep } from "../plan/plan.js";
import { ScriptedLlm } from "./scripted-llm.js";
import type { AgentEvent } from "../agent/trace.js";
import { delay } from "../util.js";

export interface ScriptedPlanRun {
  /** Stands in for the model: sends the plan until every tool has run, then the answer. */
  llm: ScriptedLlm;
  /** Pass to runAgent: records tool results for the answer (and forwards every event to `watch`). */
  onEvent: (event: AgentEvent) => void;
}

/**
 * A scripted "good model" for runAgent: it sends the same plan until every tool of it has a result,
 * then writes `answer(results)` built from the real tool results. Spread it into runAgent's options.
 */
export function scriptedPlan(
  steps: PlanStep[],
  answer: (results: Map<string, unknown>) => string,
  watch?: (event: AgentEvent) => void,
): ScriptedPlanRun {
  const results = new Map<string, unknown>();
  const ids = steps.flatMap((step) => step.tools.map((t) => t.id));
  const llm = new ScriptedLlm([() => ({ steps, final: ids.every((id) => results.has(id)) ? answer(results) : null })], {
    whenExhausted: "repeat-last",
  });
  const onEvent = (event: AgentEvent) => {
    if (event.type === "tool_result") results.set(event.toolId, event.result);
    watch?.(event);
  };
  return { llm, onEvent };
}

/** The same tool client, but every call waits `ms` milliseconds first (as if it went over the internet). */
export function withDelay(inner: ToolClient, ms: number): ToolClient {
  return {
    listTools: () => inner.listTools(),
    callTool: async (name, args, options) => {
      await delay(ms, options?.signal);
      return inner.callTool(name, args, options);
    },
    close: async () => {},
  };
}
