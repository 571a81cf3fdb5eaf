// Teil 3 — public names of lib/mcp: start the travel server, connect one session, list and call tools.
export type { ToolCallResult, ToolClient, ToolInfo } from "./types.js";
export {
  startTravelServer,
  startMathServer,
  type StartTravelServerOptions,
  type StartMathServerOptions,
  type TravelServerHandle,
  type ServerHandle,
} from "./server-process.js";
export { McpToolClient, type McpClientOptions } from "./client.js";
export { toolResultValue } from "./result.js";
export { CompositeToolClient, combineToolClients, ToolClientSetupError, type ToolClients } from "./composite.js";
// The tool catalog text is formatted by the one schema-to-text formatter (lib/schema/text.ts).
export { formatToolsForPrompt, type CatalogOptions, type DescribedTool } from "../schema/text.js";
export {
  McpClientClosedError,
  McpConnectionError,
  ToolServerError,
  ToolTimeoutError,
  ServerStartError,
  TravelServerStartError,
  MathServerStartError,
} from "./errors.js";
// Types of the public signatures (options, results, event parts), for lib/index.ts and the API reference.
export type { ServerCommand } from "./server-command.js";
export type { ServerStartInput } from "./errors.js";
export type { ToolRoute } from "./composite.js";
