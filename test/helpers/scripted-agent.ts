// runAgent with a scripted planner (lib/testing/scripted-llm.ts), and what the agent tests read from such a run:
// the events of one type, the last user message of a request, whether a request asked for the final answer.
import { runAgent, type RunAgentOptions } from "../../lib/agent/loop.js";
import type { AgentEvent } from "../../lib/agent/trace.js";
import { ScriptedLlm, type ScriptedReply, type ScriptedRequest } from "../../lib/testing/scripted-llm.js";

/** One agent run whose planner answers with `replies` in turn: its result, the planner (with its requests) and every event. */
export async function runScripted(replies: ScriptedReply[], options: Omit<RunAgentOptions, "llm">) {
  const llm = new ScriptedLlm(replies);
  const events: AgentEvent[] = [];
  const result = await runAgent({ llm, onEvent: (e) => events.push(e), ...options });
  return { result, llm, events };
}

/** The events of one type, typed as such. */
export const eventsOf = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

export const lastUserMessage = (request: ScriptedRequest) => request.messages.at(-1)?.content ?? "";

/** Whether the planner was asked for the final answer only (a plan schema that allows no steps). */
export const isFinalSchema = (request: ScriptedRequest) =>
  (request.schema as { properties?: { steps?: { maxItems?: number } } } | undefined)?.properties?.steps?.maxItems === 0;
