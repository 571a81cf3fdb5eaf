// What both servers' tools answer: a result with structuredContent and a German text line, or an `isError`
// result whose message the model and the participant read. The server keeps serving either way.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../../lib/util.js";

/** A tool's answer: `text` for the model and the participant, `data` as structuredContent (checked by the output schema). */
export function toolResult(text: string, data: object): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: data as Record<string, unknown> };
}

export interface ToolFailure {
  /** The server as the message names it, e.g. "Reise-Server". */
  server: string;
  tool: string;
  args: unknown;
  /** The server's own typed error, whose German message is shown as it is; anything else is an internal error. */
  isOwnError: (error: unknown) => error is Error;
  log: (line: string) => void;
}

/**
 * A failed tool call as an `isError` result: the server's own error keeps its message, anything else becomes
 * "Interner Fehler im <server> bei <tool>: …". The log line names the arguments, with the stack for internal errors.
 */
export function toolErrorResult(error: unknown, failure: ToolFailure): CallToolResult {
  const own = failure.isOwnError(error);
  const message = own ? error.message : `Interner Fehler im ${failure.server} bei ${failure.tool}: ${errorText(error)}`;
  const detail = own ? message : ((error as Error | undefined)?.stack ?? message);
  failure.log(`${failure.tool} ${JSON.stringify(failure.args)} → Fehler: ${detail}`);
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** Annotations of a tool that only reads: same answer for the same arguments; `openWorld` when it asks the internet. */
export function readOnlyAnnotations(title: string, openWorld: boolean) {
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: openWorld };
}
