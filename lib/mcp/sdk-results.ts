// What the MCP SDK hands back, turned into the kit's own shapes: tool descriptions (ToolInfo) and
// tool results (ToolCallResult), with the SDK's English error frames put into German. Kept apart from
// client.ts so that the client's public declarations do not pull in the SDK's types.
import { ErrorCode, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
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

/** McpError's frame around its message (`MCP error <code>: `, sdk/types.js) for InvalidParams. */
const INVALID_PARAMS_FRAME = `MCP error ${ErrorCode.InvalidParams}: `;
/** One zod issue as the SDK formats it: "<message> at <path>" (formatting of details, not a decision). */
const SDK_ISSUE_PATH = /^(.*) at ((?:[\w$-]+|\[\d+\])(?:\.[\w$-]+|\[\d+\])*|object root)$/;

/**
 * The MCP SDK reports invalid arguments and unknown tools as McpError(InvalidParams); its McpServer turns
 * that into a tool result carrying only the error's message (server/mcp.js, createToolError), so no code
 * field reaches the client — only McpError's frame `MCP error -32602: ` in the text. The code is read from
 * that frame; the SDK's two templates for the called tool (`Tool <name> not found`, `Input validation
 * error: Invalid arguments for tool <name>: …`) are compared exactly and get a German frame. Participants
 * and the model read these texts; the server's (German) details stay as they are. Any other text is
 * returned unchanged.
 */
export function germanSdkError(text: string, toolName: string): string {
  if (!text.startsWith(INVALID_PARAMS_FRAME)) return text;
  const detail = text.slice(INVALID_PARAMS_FRAME.length);
  if (detail === `Tool ${toolName} not found`) return `Ein Tool "${toolName}" gibt es auf diesem Server nicht.`;
  const invalid = `Input validation error: Invalid arguments for tool ${toolName}: `;
  if (!detail.startsWith(invalid)) return text;
  const issues = detail
    .slice(invalid.length)
    .split("\n")
    .map((line) => {
      const m = SDK_ISSUE_PATH.exec(line);
      if (!m) return line;
      return m[2] === "object root" ? m[1]! : `${m[1]} (Feld ${m[2]})`;
    });
  return `Ungültige Argumente für das Tool ${toolName}: ${issues.join("\n")}`;
}

/**
 * structuredContent preferred; otherwise the text, parsed as JSON when it is JSON. With `toolName` (the
 * tool that was called), error texts of the MCP SDK itself come back in German (see germanSdkError).
 */
export function normalizeToolResult(result: CallToolResult, toolName?: string): ToolCallResult {
  const joined = (result.content ?? [])
    .filter((c): c is { type: "text"; text: string } => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  const text = result.isError === true && toolName !== undefined ? germanSdkError(joined, toolName) : joined;
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
