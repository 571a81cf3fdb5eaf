// Teil 3 — public names of lib/mcp: start the travel server, connect one session, list and call tools.
export type { ToolCallResult, ToolClient, ToolInfo } from "./types.js";
export { startTravelServer, type StartTravelServerOptions, type TravelServerHandle } from "./server-process.js";
export { McpToolClient, connectTravelClient, connectTravelClientStdio, type McpClientOptions } from "./client.js";
export { formatToolsForPrompt, type CatalogOptions } from "./catalog.js";
export { McpConnectionError, ToolTimeoutError, TravelServerStartError } from "./errors.js";
