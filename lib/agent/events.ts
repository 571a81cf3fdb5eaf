// The events one agent run emits (the loop and the executor) — the data the trace records and
// event-text.ts puts into words.
import type { GenerationMeter } from "../llm/types.js";
import type { ApprovalOutcome } from "./approval.js";
import type { Plan, PlanParseErrorKind } from "../plan/plan.js";
import type { ScheduleMode } from "../plan/schedule.js";
import type { PlanProblem } from "../plan/check.js";
import type { WindowReport } from "./window.js";

export type RunStatus = "answered" | "max_iterations" | "aborted" | "llm_error";
export type PlanVia = "grammar" | "text";
export type ToolErrorKind =
  | "tool" // the tool answered with isError
  | "timeout"
  | "exception" // the client threw (after retries)
  | "rejected" // approval refused / blocked
  | "ref" // a `$ref` could not be resolved
  | "invalid_arguments" // resolved arguments do not fit the input schema
  | "dependency_failed" // a referenced call failed or could not run, so this one could not run
  | "held_back"; // step order: an earlier call did not succeed (or could not run), and this call waits for it (schedule.ts)

/** Fields every agent event has. */
export interface AgentEventBase {
  iteration: number;
  /** Milliseconds since the run started. */
  atMs: number;
}

export type AgentEvent =
  | (AgentEventBase & {
      type: "run_start";
      question: string;
      mode: ScheduleMode;
      maxIterations: number;
      tools: string[];
      today?: string;
    })
  | (AgentEventBase & { type: "llm_request"; via: PlanVia; forceFinal: boolean; messageCount: number })
  | (AgentEventBase & { type: "plan"; plan: Plan; raw: string; via: PlanVia; meter?: GenerationMeter })
  | (AgentEventBase & {
      type: "plan_error";
      kind: PlanParseErrorKind | "generation";
      message: string;
      raw: string;
      meter?: GenerationMeter;
    })
  | (AgentEventBase & { type: "validation_problems"; problems: PlanProblem[] })
  | (AgentEventBase & { type: "output_fallback"; message: string })
  | (AgentEventBase & { type: "step_start"; stepIndex: number; description: string; toolIds: string[] })
  | (AgentEventBase & { type: "approval"; toolId: string; toolName: string; outcome: ApprovalOutcome })
  | (AgentEventBase & {
      type: "tool_call";
      toolId: string;
      toolName: string;
      stepIndex: number;
      arguments: Record<string, unknown>;
      attempt: number;
    })
  | (AgentEventBase & {
      type: "tool_result";
      toolId: string;
      toolName: string;
      stepIndex: number;
      result: unknown;
      durationMs: number;
      attempts: number;
    })
  | (AgentEventBase & {
      type: "tool_error";
      toolId: string;
      toolName: string;
      stepIndex: number;
      errorKind: ToolErrorKind;
      message: string;
      durationMs: number;
      attempts: number;
    })
  | (AgentEventBase & { type: "nudge"; message: string })
  | (AgentEventBase & { type: "history_trimmed"; report: WindowReport })
  | (AgentEventBase & { type: "answer_writer"; draft: string; text: string; error?: string })
  | (AgentEventBase & { type: "groundedness"; warnings: string[]; unsupported: string[]; noToolCalls: boolean })
  | (AgentEventBase & { type: "final"; text: string; status: RunStatus });

export type AgentEventType = AgentEvent["type"];
