// Teil 3 — public names of lib/mcp.
export type { ToolCallResult, ToolClient, ToolInfo } from "./types.js";
export { startTravelServer, startMathServer, type StartTravelServerOptions, type StartMathServerOptions, type TravelServerHandle, type ServerHandle } from "./server-process.js";
export { McpToolClient, connectTravelClient, connectTravelClientStdio, connectMathClientStdio, normalizeToolResult, germanSdkError, type McpClientOptions } from "./client.js";
export { formatToolsForPrompt, type CatalogOptions } from "./catalog.js";
export { McpConnectionError, McpToolTimeoutError, TravelServerStartError, MathServerStartError } from "./errors.js";
