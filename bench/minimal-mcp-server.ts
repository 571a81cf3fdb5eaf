// The MCP SDK's floor for bench/mcp-session.bench.ts: McpServer + StreamableHTTPServerTransport (JSON
// responses, sessions) on plain node:http with one trivial tool — no Express, no Host checks, no data.
// Prints its port on stdout. Run: node --import tsx bench/minimal-mcp-server.ts
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const inputSchema = z.object({ destination: z.string() });
const sessions = new Map<string, StreamableHTTPServerTransport>();

function newSession(): StreamableHTTPServerTransport {
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    enableJsonResponse: true,
    onsessioninitialized: (id) => {
      sessions.set(id, transport);
    },
  });
  const server = new McpServer({ name: "minimal", version: "1.0.0" });
  server.registerTool("geocode", { description: "Fixed coordinates", inputSchema }, async () => ({
    content: [{ type: "text", text: JSON.stringify({ lat: 41.39, lon: 2.17, name: "Barcelona" }) }],
  }));
  void server.connect(transport);
  return transport;
}

const http = createServer((req, res) => {
  const id = req.headers["mcp-session-id"];
  const transport = (typeof id === "string" ? sessions.get(id) : undefined) ?? newSession();
  void transport.handleRequest(req, res);
});
http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  console.log(typeof address === "object" && address ? address.port : 0);
});
