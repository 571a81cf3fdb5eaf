// Typed errors of the MCP client side. Messages say what to do.
import { KitError } from "../errors.js";

/** What a server start was: the command line, its time limit and the child's pid. */
export interface ServerStartInput {
  command: string[];
  timeoutMs: number;
  pid?: number;
}

/** The base of lib/mcp's errors: a tool server did not start, could not be reached or did not answer in time. */
export class ToolServerError extends KitError {
  override name = "ToolServerError";
}

/** An MCP server child process did not start or did not answer in time. `output` holds its stderr. */
export class ServerStartError extends ToolServerError {
  override name = "ServerStartError";
  constructor(
    message: string,
    readonly input: ServerStartInput,
    readonly output: string,
  ) {
    super(output.trim() ? `${message}\n--- Ausgabe des Servers (stderr) ---\n${output.trim()}` : message);
  }
}

/** The travel server did not start or did not answer in time. */
export class TravelServerStartError extends ServerStartError {
  override name = "TravelServerStartError";
}

/** The math server did not start or did not answer in time. */
export class MathServerStartError extends ServerStartError {
  override name = "MathServerStartError";
}

/** The MCP server could not be reached or the connection broke during a request. */
export class McpConnectionError extends ToolServerError {
  override name = "McpConnectionError";
  /** `retryable` (default true): trying again later may help (connection lost or refused; not: client already closed). */
  constructor(
    message: string,
    readonly input: { target: string; tool?: string },
    options: { cause?: unknown; retryable?: boolean } = {},
  ) {
    super(message, { ...options, retryable: options.retryable ?? true });
  }
}

/** The client was closed (close(), e.g. a notebook's cleanup cell) and is used again; not retryable. */
export class McpClientClosedError extends McpConnectionError {
  override name = "McpClientClosedError";
  constructor(target: string) {
    super(
      "Die Verbindung zum Werkzeug-Server wurde geschlossen – führe die Set-up-Zelle oben noch einmal aus.",
      { target },
      { retryable: false },
    );
  }
}

/** A tool call did not finish within its time limit (the executor's limit or the client's default). */
export class ToolTimeoutError extends ToolServerError {
  override name = "ToolTimeoutError";
  constructor(
    readonly toolName: string,
    readonly timeoutMs: number,
  ) {
    super(`Das Tool "${toolName}" hat nicht innerhalb von ${timeoutMs} ms geantwortet.`);
  }
}

/** Node's network error codes: on the error itself or on its `cause` (fetch wraps them). */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EAI_AGAIN", "UND_ERR_SOCKET"]);

/** The system error code of `error` or of its cause, e.g. "ECONNRESET". */
export function networkCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" && NETWORK_CODES.has(code) ? code : undefined;
}

/** Whether another attempt of a failed call may succeed: decided by class and error code, never by text. */
export function isTransientError(error: unknown): boolean {
  if (error instanceof McpConnectionError) return error.retryable;
  return networkCode(error) !== undefined;
}
