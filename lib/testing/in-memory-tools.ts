// A ToolClient whose tools are plain async functions in this process: for tests, benchmarks and
// notebook demos without a server. Records every call and how many ran at the same time.
import type { ToolCallResult, ToolClient, ToolInfo } from "../mcp/types.js";
import { KitError } from "../errors.js";

export interface InMemoryTool {
  info: ToolInfo;
  /** Returns the structured result; throw ToolReportedError for an `isError` answer. */
  handler: (args: Record<string, unknown>, context: { signal?: AbortSignal }) => unknown;
}

/** Thrown by a handler to answer with `isError: true` (a tool-level error, not a transport failure). */
export class ToolReportedError extends KitError {
  override name = "ToolReportedError";
}

export class UnknownToolError extends KitError {
  override name = "UnknownToolError";
  constructor(readonly toolName: string) {
    super(`Unbekanntes Tool "${toolName}".`);
  }
}

export class ToolClientClosedError extends KitError {
  override name = "ToolClientClosedError";
  constructor() {
    super("Der Tool-Client ist bereits geschlossen (InMemoryToolClient.close() wurde aufgerufen).");
  }
}

export interface RecordedCall {
  name: string;
  args: Record<string, unknown>;
  startedAt: number;
  endedAt?: number;
}

export class InMemoryToolClient implements ToolClient {
  readonly calls: RecordedCall[] = [];
  private inFlight = 0;
  /** Highest number of calls that were running at the same time. */
  maxConcurrent = 0;
  private readonly tools: Map<string, InMemoryTool>;
  private closed = false;

  constructor(tools: readonly InMemoryTool[]) {
    this.tools = new Map(tools.map((t) => [t.info.name, t]));
  }

  async listTools(): Promise<ToolInfo[]> {
    return [...this.tools.values()].map((t) => t.info);
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ToolCallResult> {
    if (this.closed) throw new ToolClientClosedError();
    const tool = this.tools.get(name);
    if (!tool) throw new UnknownToolError(name);
    const record: RecordedCall = { name, args, startedAt: performance.now() };
    this.calls.push(record);
    this.inFlight++;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.inFlight);
    try {
      const data = await tool.handler(args, { signal: options.signal });
      return { isError: false, data, text: JSON.stringify(data) ?? "" };
    } catch (error) {
      if (error instanceof ToolReportedError) return { isError: true, data: null, text: error.message };
      throw error;
    } finally {
      this.inFlight--;
      record.endedAt = performance.now();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
