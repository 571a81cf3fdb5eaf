// What the MCP SDK hands back, turned into the kit's own shapes: tool descriptions (ToolInfo) and
// tool results (ToolCallResult), with the SDK's English error frames put into German. Kept apart from
// client.ts so that the client's public declarations do not pull in the SDK's types.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCallResult, ToolInfo } from "./types.js";

export function toToolInfo(tool: Tool): ToolInfo {
  return {
    name: tool.name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
}

const SDK_INVALID_ARGUMENTS = /^MCP error -32602: Input validation error: Invalid arguments for tool (\S+): ([\s\S]*)$/;
const SDK_UNKNOWN_TOOL = /^MCP error -32602: Tool (\S+) not found$/;
/** One zod issue as the SDK formats it: "<message> at <path>". */
const SDK_ISSUE_PATH = /^(.*) at ((?:[\w$-]+|\[\d+\])(?:\.[\w$-]+|\[\d+\])*|object root)$/;

/**
 * The MCP SDK reports invalid arguments and unknown tools with an English frame around the server's
 * (German) details. Participants and the model read these texts, so the frame is put into German;
 * the details stay as they are. Any other text is returned unchanged. Matched on text because the
 * SDK's McpServer turns its McpError (code -32602) into a tool result carrying only
 * `error.message` (server/mcp.js, createToolError): no code field reaches the client.
 */
export function germanSdkError(text: string): string {
  const invalid = SDK_INVALID_ARGUMENTS.exec(text);
  if (invalid) {
    const issues = invalid[2]!.split("\n").map((line) => {
      const m = SDK_ISSUE_PATH.exec(line);
      if (!m) return line;
      return m[2] === "object root" ? m[1]! : `${m[1]} (Feld ${m[2]})`;
    });
    return `Ungültige Argumente für das Tool ${invalid[1]}: ${issues.join("\n")}`;
  }
  const unknown = SDK_UNKNOWN_TOOL.exec(text);
  if (unknown) return `Ein Tool "${unknown[1]}" gibt es auf diesem Server nicht.`;
  return text;
}

/**
 * structuredContent preferred; otherwise the text, parsed as JSON when it is JSON. Error texts from the
 * MCP SDK itself (invalid arguments, unknown tool) come back in German (see germanSdkError).
 */
export function normalizeToolResult(result: CallToolResult): ToolCallResult {
  const joined = (result.content ?? [])
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  const text = result.isError === true ? germanSdkError(joined) : joined;
  let data: unknown = text;
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    data = result.structuredContent;
  } else {
    const trimmed = text.trim();
    if (/^[[{]/.test(trimmed)) {
      try {
        data = JSON.parse(trimmed);
      } catch {
        data = text;
      }
    }
  }
  return { isError: result.isError === true, data, text };
}
