// stdio transport (MCP Inspector, Claude Desktop): JSON-RPC on stdin/stdout, logs only on stderr.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ignore } from "../../../lib/util.js";

/** Serves one session on stdin/stdout; resolves when the client closes stdin. */
export async function serveStdio(server: McpServer): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(ignore("closing a server that is already gone"));
}
