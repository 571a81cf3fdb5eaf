// Which tool calls may run without asking: read-only tools run, side-effecting tools need an
// approval callback (approve, or reject with feedback the model sees as the tool's error), blocked
// tools never run. Classification: config override first, then MCP annotations, then the default.
import type { ToolInfo } from "../mcp/types.js";
import { untilAborted } from "../util.js";
import type { ChangePreview } from "./workspace.js";
import { errorText } from "../util.js";

export type ToolSafety = "read-only" | "side-effecting" | "blocked";

export interface ApprovalPolicy {
  /** Tool names treated as read-only regardless of annotations. */
  readOnly?: readonly string[];
  /** Tool names that always need approval regardless of annotations. */
  sideEffecting?: readonly string[];
  /** Tool names that never run (the planner is told so during validation). */
  blocked?: readonly string[];
  /** Class of a tool without `readOnlyHint` (default "side-effecting": ask when unsure). */
  unannotated?: "read-only" | "side-effecting";
  /** Reject when the callback has not decided within this time (default: wait forever). */
  timeoutMs?: number;
}

export interface ApprovalRequest {
  toolId: string;
  toolName: string;
  /** The resolved arguments the tool would receive. */
  arguments: Record<string, unknown>;
  tool: ToolInfo | undefined;
  safety: ToolSafety;
  /** Annotation hints, for display (e.g. "destruktiv"). */
  destructive: boolean;
  /** For a staged write: the file and a diff against what is on disk (workspace.ts). */
  preview?: ChangePreview;
}

/** `feedback` (on rejection) is shown to the model as the tool's error. */
export interface ApprovalDecision {
  approved: boolean;
  feedback?: string;
}

/** `signal` aborts when the decision is no longer wanted (timeout, run aborted): stop asking then. */
export type ApproveFn = (
  request: ApprovalRequest,
  signal: AbortSignal,
) => ApprovalDecision | boolean | Promise<ApprovalDecision | boolean>;

export type ApprovalOutcome =
  | { allowed: true; by: "read-only" | "callback"; message?: undefined; feedback?: undefined }
  | {
      allowed: false;
      by: "blocked" | "no-callback" | "callback" | "timeout" | "callback-error";
      message: string;
      feedback?: string;
    };

export function classifyTool(tool: ToolInfo | undefined, name: string, policy: ApprovalPolicy = {}): ToolSafety {
  if (policy.blocked?.includes(name)) return "blocked";
  if (policy.sideEffecting?.includes(name)) return "side-effecting";
  if (policy.readOnly?.includes(name)) return "read-only";
  const hint = tool?.annotations?.readOnlyHint;
  if (hint === true) return "read-only";
  if (hint === false) return "side-effecting";
  return policy.unannotated ?? "side-effecting";
}

function normalize(decision: ApprovalDecision | boolean): ApprovalDecision {
  return typeof decision === "boolean" ? { approved: decision } : decision;
}

/** Decides whether one call may run. Never throws: a failing callback counts as a rejection. */
export async function decideApproval(
  request: Omit<ApprovalRequest, "safety" | "destructive">,
  policy: ApprovalPolicy = {},
  approve?: ApproveFn,
  signal?: AbortSignal,
): Promise<ApprovalOutcome> {
  const safety = classifyTool(request.tool, request.toolName, policy);
  if (safety === "blocked") {
    return {
      allowed: false,
      by: "blocked",
      message: `Das Tool "${request.toolName}" ist gesperrt und wurde nicht ausgeführt.`,
    };
  }
  if (safety === "read-only") return { allowed: true, by: "read-only" };
  if (!approve) {
    return {
      allowed: false,
      by: "no-callback",
      message: `Das Tool "${request.toolName}" verändert etwas und braucht eine Freigabe; hier kann niemand freigeben. Es wurde nicht ausgeführt.`,
    };
  }
  const full: ApprovalRequest = {
    ...request,
    safety,
    destructive: request.tool?.annotations?.destructiveHint === true,
  };
  // `ended` tells the callback to stop asking: out of time, the run aborted, or decided (finally).
  const stop = new AbortController();
  const timer = policy.timeoutMs !== undefined ? setTimeout(() => stop.abort(), policy.timeoutMs) : undefined;
  const ended = signal ? AbortSignal.any([stop.signal, signal]) : stop.signal;
  try {
    const decision = normalize(
      await untilAborted(
        Promise.resolve().then(() => approve(full, ended)),
        ended,
      ),
    );
    if (decision.approved) return { allowed: true, by: "callback" };
    const feedback = decision.feedback?.trim() || undefined;
    return {
      allowed: false,
      by: "callback",
      feedback,
      message: `Der Nutzer hat den Aufruf von "${request.toolName}" abgelehnt${feedback ? `: ${feedback}` : "."}`,
    };
  } catch (error) {
    if (ended.aborted) {
      const why = signal?.aborted ? "(abgebrochen)" : `innerhalb von ${policy.timeoutMs} ms`;
      return {
        allowed: false,
        by: "timeout",
        message: `Keine Freigabe für "${request.toolName}" ${why}; das Tool wurde nicht ausgeführt.`,
      };
    }
    return {
      allowed: false,
      by: "callback-error",
      message: `Die Freigabe für "${request.toolName}" ist fehlgeschlagen (${errorText(error)}); das Tool wurde nicht ausgeführt.`,
    };
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}
