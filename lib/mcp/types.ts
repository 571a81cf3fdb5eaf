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

/** What the agent needs of a tool source: MCP (McpToolClient, CompositeToolClient) or in memory (tests). */
export interface ToolClient {
  /** The tools on offer, with their schemas. */
  listTools(): Promise<ToolInfo[]>;
  /** Runs one tool; a tool's own failure comes back as `isError`, a lost connection or timeout is thrown. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<ToolCallResult>;
  /** Ends the session (and a server process this client started); safe to call twice. */
  close(): Promise<void>;
}
