// What the MCP sessions of one server process share. Over HTTP every session gets its own McpServer
// (the SDK binds a server to one transport), so whatever createTravelMcpServer/createMathMcpServer build
// is built once per session and lives as long as the session (up to the session cap, 50 by default).
// Measured (issue 15; heap used after N sessions, --expose-gc): the SDK's default JSON Schema validator,
// a fresh Ajv instance with all formats, was ~19 KB retained and ~90 KB allocated per session; tool
// schemas passed as raw zod shapes were wrapped into a new z.object per session and tool (~12 KB more).
// A travel session was ~52 KB of heap, now ~14 KB. Both are built here once per process instead; each
// session keeps its own SDK Server and transport.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { z } from "zod";

let validator: AjvJsonSchemaValidator | undefined;

/**
 * The one JSON Schema validator of this process, for `new McpServer(info, { jsonSchemaValidator })`.
 * A server uses it only to check a client's answer to an elicitation request, which the kit's servers
 * never send; it is created on first use. (Ajv keeps every schema it compiled: should a server ever ask
 * for elicitation with a new schema per call, that would grow with the number of calls, not sessions.)
 */
export const sharedJsonSchemaValidator: jsonSchemaValidator = {
  getValidator(schema) {
    validator ??= new AjvJsonSchemaValidator();
    return validator.getValidator(schema);
  },
};

/**
 * A tool's input or output shape as one z.object, built at module load and shared by every session's
 * registerTool (the SDK would otherwise wrap a raw shape into a new object for each session). Same
 * parsing and the same JSON Schema in tools/list as the raw shape.
 */
export function toolSchema<Shape extends z.ZodRawShape>(shape: Shape): z.ZodObject<Shape> {
  return z.object(shape);
}

/** One session's McpServer: `instructions` for the model, the process's shared JSON Schema validator. */
export function sessionServer(info: { name: string; version: string }, instructions: string): McpServer {
  return new McpServer(info, { instructions, jsonSchemaValidator: sharedJsonSchemaValidator });
}
