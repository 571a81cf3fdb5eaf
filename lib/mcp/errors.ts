// Typed errors of the MCP client side. Messages say what to do.

/** The travel server did not start or did not answer in time. `output` holds its stderr. */
export class TravelServerStartError extends Error {
  override name = "TravelServerStartError";
  constructor(
    message: string,
    readonly input: { command: string[]; timeoutMs: number; pid?: number },
    readonly output: string,
  ) {
    super(output.trim() ? `${message}\n--- Ausgabe des Servers (stderr) ---\n${output.trim()}` : message);
  }
}

/** The MCP server could not be reached (also not after one reconnect). */
export class McpConnectionError extends Error {
  override name = "McpConnectionError";
  constructor(
    message: string,
    readonly input: { target: string; tool?: string },
    options?: { cause?: unknown },
  ) {
    super(message);
    // set by hand: tslab compiles lib files against an older lib where Error has no options argument
    if (options && "cause" in options) Object.defineProperty(this, "cause", { value: options.cause, configurable: true, writable: true });
  }
}

/** A tool call did not finish within its time limit. */
export class McpToolTimeoutError extends Error {
  override name = "McpToolTimeoutError";
  constructor(
    message: string,
    readonly input: { tool: string; args: Record<string, unknown>; timeoutMs: number },
  ) {
    super(message);
  }
}

/** The math server did not start or did not answer in time (same shape as TravelServerStartError). */
export class MathServerStartError extends TravelServerStartError {
  override name = "MathServerStartError";
}
