// The tool-side interface the agent depends on. lib/mcp implements it over one MCP session;
// tests may implement it in-process.

/** A tool as listed by the MCP server (name, description, JSON schemas, annotations). */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** Normalized result of one tool call: structuredContent preferred, parsed text as fallback. */
export interface ToolCallResult {
  isError: boolean;
  data: unknown;
  /** The text rendering the server sent (for display and for error messages). */
  text: string;
}

export interface ToolClient {
  listTools(): Promise<ToolInfo[]>;
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal; timeoutMs?: number }): Promise<ToolCallResult>;
  close(): Promise<void>;
}
