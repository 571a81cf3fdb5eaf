// tools/call with `arguments` that is not a JSON object (an array, null, a string …) fails the SDK's
// request schema before any tool runs, and the SDK answers −32603 with raw zod JSON. This guard answers
// such calls with −32602 (invalid params) and a German message instead; the SDK keeps doing the rest.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

type Handler = (request: { params?: { name?: unknown; arguments?: unknown } }, extra: unknown) => Promise<unknown>;

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "eine Liste";
  return typeof value === "string"
    ? "ein Text"
    : typeof value === "number"
      ? "eine Zahl"
      : typeof value === "boolean"
        ? "ein Wahrheitswert"
        : typeof value;
}

/**
 * Installs the guard; call after the tools are registered (the SDK installs tools/call lazily).
 * `example` is an arguments object of this server's tools, shown in the message.
 */
export function guardToolArguments(server: McpServer, example = '{"destination": "Rom"}'): void {
  // The SDK keeps request handlers in a protected map; wrapping the installed one keeps its behaviour.
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const original = handlers?.get("tools/call");
  if (!handlers || !original)
    throw new Error("tools/call handler not found: SDK internals changed (see arguments-guard.ts)");
  handlers.set("tools/call", (request, extra) => {
    const args = request.params?.arguments;
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
      const tool = typeof request.params?.name === "string" ? ` für "${request.params.name}"` : "";
      throw new McpError(
        ErrorCode.InvalidParams,
        `Ungültige Argumente${tool}: "arguments" muss ein JSON-Objekt mit Namen und Werten sein, z. B. ${example}, nicht ${kindOf(args)}.`,
      );
    }
    return original(request, extra);
  });
}
