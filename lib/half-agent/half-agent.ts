// Teil 3 "half-agent": the model proposes at most one tool call per message, a person (or the
// notebook) runs it by hand, the result goes into a tool history, and a last round without tools
// produces the answer. These helpers keep that teaching flow small and explicit.
import * as z from "zod";
import { DEFAULT_TOOL_TIMEOUT_MS } from "../timeouts.js";
import type { ChatMessage, JsonSchema } from "../llm/types.js";
import { contextMessage, todayMessage } from "../llm/messages.js";
import { toolResultValue } from "../mcp/result.js";
import { combineToolClients, type ToolClients } from "../mcp/composite.js";
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import { dropNullOptionals, grammarArguments, toGrammarDialect } from "../schema/grammar.js";
import { extractJsonObject } from "../plan/json-extract.js";
import { sameJson } from "../plan/json.js";
import { NO_TOOLS_INSTRUCTION, toolHistoryMessage } from "./prompts.js";
import { errorText, isPlainObject, ownValue } from "../util.js";

export interface HalfAgentToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** What the model answered: one tool call, plain text, or something unusable (with the reason). */
export type HalfAgentReply =
  | { kind: "tool_call"; call: HalfAgentToolCall; json: string }
  | { kind: "text"; call: null; text: string }
  | { kind: "invalid"; call: null; reason: string };

function looksLikeToolCall(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    (ownValue(value, "tool") !== undefined ||
      (ownValue(value, "name") !== undefined &&
        (ownValue(value, "arguments") !== undefined || ownValue(value, "parameters") !== undefined)))
  );
}

/** Interprets a JSON value (e.g. from grammar generation) as a half-agent reply. */
export function halfAgentReplyFromJson(
  value: unknown,
  tools?: readonly ToolInfo[],
  json = JSON.stringify(value) ?? "",
): HalfAgentReply {
  if (isPlainObject(value) && typeof ownValue(value, "answer") === "string" && ownValue(value, "tool") === undefined) {
    return { kind: "text", call: null, text: ownValue(value, "answer") as string };
  }
  if (!looksLikeToolCall(value) || !isPlainObject(value)) {
    return {
      kind: "invalid",
      call: null,
      reason: 'JSON ohne Feld "tool": erwartet {"tool": "<Name>", "arguments": {…}}.',
    };
  }
  const tool = ownValue(value, "tool") ?? ownValue(value, "name");
  if (Array.isArray(tool) || Array.isArray(ownValue(value, "tools"))) {
    return {
      kind: "invalid",
      call: null,
      reason: "Mehrere Tools in einer Antwort; erlaubt ist höchstens ein Tool-Aufruf.",
    };
  }
  if (typeof tool !== "string" || tool.trim() === "")
    return { kind: "invalid", call: null, reason: '"tool" muss der Name eines Tools sein.' };
  const rawArgs = ownValue(value, "arguments") ?? ownValue(value, "parameters") ?? {};
  if (!isPlainObject(rawArgs))
    return { kind: "invalid", call: null, reason: '"arguments" muss ein Objekt sein, z. B. {"destination": "Rom"}.' };
  if (tools && !tools.some((t) => t.name === tool)) {
    return {
      kind: "invalid",
      call: null,
      reason: `Ein Tool "${tool}" gibt es nicht. Verfügbar: ${tools.map((t) => t.name).join(", ")}.`,
    };
  }
  const extra = Object.keys(value).filter((k) => !["tool", "name", "arguments", "parameters"].includes(k));
  if (extra.length > 0)
    return { kind: "invalid", call: null, reason: `Unerwartete Felder im Tool-Aufruf: ${extra.join(", ")}.` };
  return { kind: "tool_call", call: { tool, arguments: rawArgs }, json };
}

/**
 * Reads the model's reply: one tool call as plain JSON, in a ```json block or with text around it,
 * or a normal text answer. Two tool calls, unknown tools or broken JSON → kind "invalid" with reason.
 */
export function parseToolCall(text: unknown, tools?: readonly ToolInfo[]): HalfAgentReply {
  if (typeof text !== "string" || text.trim() === "")
    return { kind: "invalid", call: null, reason: "Die Antwort ist leer." };
  const found = extractJsonObject(text, { accept: looksLikeToolCall });
  if (found.ok) {
    const rest = text.replace(found.text, " ");
    if (extractJsonObject(rest, { accept: looksLikeToolCall }).ok) {
      return {
        kind: "invalid",
        call: null,
        reason: "Mehr als ein Tool-Aufruf in einer Antwort; erlaubt ist höchstens einer (keine Ketten).",
      };
    }
    return halfAgentReplyFromJson(found.value, tools, found.text);
  }
  if (found.kind === "rejected") {
    const reply = halfAgentReplyFromJson(found.value, tools, found.candidate);
    return reply.kind === "text"
      ? reply
      : { kind: "invalid", call: null, reason: `${found.reason} – erwartet {"tool": "<Name>", "arguments": {…}}.` };
  }
  if ((found.kind === "invalid_json" || found.kind === "truncated") && /"(tool|arguments)"\s*:/.test(text)) {
    return { kind: "invalid", call: null, reason: found.reason };
  }
  return { kind: "text", call: null, text: text.trim() };
}

// ---------------------------------------------------------------------------------------------
// Checking a proposal before anyone runs it: did the model take every value from the evidence?

/** One argument value that appears nowhere in the evidence. */
export interface UnsupportedArgument {
  /** Where the value sits in the arguments: "lat", "stops[1].name". */
  path: string;
  value: string | number | boolean;
}

/** Numbers as written in a text: "41.39", "-9.14", German "41,39"; the "-" in "2025-07-01" is no sign. */
const NUMBER_IN_TEXT = /(?<!\d)-?\d+(?:[.,]\d+)?/g;

/**
 * Every number in `text`. A comma is ambiguous ("41,39" is a German decimal, "[1,2]" a list), so
 * "a,b" counts as a,b and also as the two integers a and b.
 */
function numbersIn(text: string): Set<number> {
  const out = new Set<number>();
  for (const n of text.match(NUMBER_IN_TEXT) ?? []) {
    out.add(Number(n.replace(",", ".")));
    if (n.includes(",")) for (const part of n.split(",")) out.add(Number(part));
  }
  return out;
}

/**
 * The argument values of `call` that the evidence (question, tool history, RAG context …) does not
 * contain – probably guessed. Rules, deliberately simple so they can be explained in one breath:
 * a string must occur in the evidence (ignoring case), a number must occur as a number (41.39, 41,39),
 * a boolean as the word true or false; objects and arrays are checked value by value; null counts as
 * "left out". With `inputSchema`, a top-level value equal to the property's declared default is fine
 * (the tool would use it anyway).
 */
export function findUnsupportedArguments(
  call: HalfAgentToolCall,
  evidence: string | readonly string[],
  options: { inputSchema?: Record<string, unknown> } = {},
): UnsupportedArgument[] {
  const text = (typeof evidence === "string" ? evidence : evidence.join("\n")).toLowerCase();
  const numbers = numbersIn(text);
  const declaredProperties = options.inputSchema?.properties;
  const properties = isPlainObject(declaredProperties) ? declaredProperties : {};
  const found: UnsupportedArgument[] = [];
  const visit = (value: unknown, path: string): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, `${path}[${i}]`));
      return;
    }
    if (isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) visit(v, `${path}.${k}`);
      return;
    }
    const supported =
      typeof value === "string"
        ? text.includes(value.toLowerCase())
        : typeof value === "number"
          ? numbers.has(value)
          : typeof value === "boolean"
            ? new RegExp(`\\b${value}\\b`).test(text)
            : false;
    if (!supported)
      found.push({ path, value: typeof value === "number" || typeof value === "boolean" ? value : String(value) });
  };
  for (const [name, value] of Object.entries(call.arguments)) {
    const declared = ownValue(properties, name);
    if (isPlainObject(declared) && "default" in declared && sameJson(declared.default, value)) continue;
    visit(value, name);
  }
  return found;
}

/**
 * Why a reply must not be run as a tool call – or null when nothing speaks against it: a text instead of
 * a call, an unusable reply, another tool than `expectedTool`, or arguments the evidence does not contain
 * (see findUnsupportedArguments). The reasons are German: the notebook shows them as they are.
 */
export function reviewToolProposal(
  reply: HalfAgentReply,
  evidence: string | readonly string[],
  options: { expectedTool?: string; tools?: readonly ToolInfo[] } = {},
): string | null {
  if (reply.kind === "text") return "Das Modell hat Text geschrieben statt eines Tool-Aufrufs.";
  if (reply.kind === "invalid") return reply.reason;
  if (options.expectedTool !== undefined && reply.call.tool !== options.expectedTool) {
    return `Falsches Tool: ${reply.call.tool} statt ${options.expectedTool}.`;
  }
  const inputSchema = options.tools?.find((t) => t.name === reply.call.tool)?.inputSchema;
  const unsupported = findUnsupportedArguments(reply.call, evidence, { inputSchema });
  if (unsupported.length === 0) return null;
  return `Geratene Argumente (stehen in keiner Quelle): ${unsupported.map((u) => `${u.path} = ${JSON.stringify(u.value)}`).join(", ")}`;
}

// ---------------------------------------------------------------------------------------------
// Tool history and the manual execution

export interface ToolHistoryEntry {
  tool: string;
  arguments: Record<string, unknown>;
  /** The normalized result (structured data preferred); absent on error. */
  result?: unknown;
  error?: string;
}

export type ToolHistory = ToolHistoryEntry[];

/** An earlier entry with the same tool and arguments (the model should reuse it instead of calling again). */
export function findInToolHistory(
  history: readonly ToolHistoryEntry[],
  call: HalfAgentToolCall,
): ToolHistoryEntry | undefined {
  return history.find((e) => e.tool === call.tool && sameJson(e.arguments, call.arguments));
}

/** Runs one tool call by hand and returns the history entry (tool errors become `error`, never throws). */
export async function executeToolCall(
  client: ToolClient | ToolClients,
  call: HalfAgentToolCall,
  /** `timeoutMs`: per call (default DEFAULT_TOOL_TIMEOUT_MS, lib/timeouts.ts), also when a `signal` is given. */
  options: { tools?: readonly ToolInfo[]; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ToolHistoryEntry> {
  const info = options.tools?.find((t) => t.name === call.tool);
  const args = (info ? dropNullOptionals(call.arguments, info.inputSchema) : call.arguments) as Record<string, unknown>;
  if (info?.annotations?.readOnlyHint === false) {
    // No approval step in Teil 3: tools that change something run only in the Teil 4 agent.
    return {
      tool: call.tool,
      arguments: args,
      error: `"${call.tool}" verändert etwas und braucht eine Freigabe; hier laufen nur lesende Tools.`,
    };
  }
  try {
    const result = await combineToolClients(client).callTool(call.tool, args, {
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    });
    if (result.isError)
      return { tool: call.tool, arguments: args, error: result.text || "Das Tool meldete einen Fehler." };
    return { tool: call.tool, arguments: args, result: toolResultValue(result) };
  } catch (error) {
    return { tool: call.tool, arguments: args, error: errorText(error) };
  }
}

/** The tool history as the model sees it: indented JSON, one entry per call. */
export function formatToolHistory(history: readonly ToolHistoryEntry[]): string {
  return JSON.stringify(history, null, 1);
}

export interface HalfAgentMessagesOptions {
  /** The system prompt, e.g. from buildHalfAgentSystemPrompt. Required. */
  systemPrompt: string;
  /** The user's question. Required. */
  question: string;
  /** Earlier conversation (user/assistant turns). Default: none. */
  history?: ChatMessage[];
  /** Tool calls of this question so far with their results (default: none, the first round). */
  toolHistory?: readonly ToolHistoryEntry[];
  /** Retrieved context (RAG). Default: none. */
  context?: string;
  /** Today's date (YYYY-MM-DD): its own message after the system prompt (todayMessage). Default: none. */
  today?: string;
  /** False in the answer round: the model is told not to call tools (default true). */
  allowTools?: boolean;
}

/** Messages for one half-agent round: system, [date], context, history, tool history, [no tools], question. */
export function buildHalfAgentMessages(options: HalfAgentMessagesOptions): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: "system", content: options.systemPrompt }];
  if (options.today) messages.push(todayMessage(options.today));
  if (options.context) messages.push(contextMessage(options.context));
  messages.push(...(options.history ?? []));
  if (options.toolHistory && options.toolHistory.length > 0) {
    messages.push({ role: "system", content: toolHistoryMessage(formatToolHistory(options.toolHistory)) });
  }
  if (options.allowTools === false) messages.push({ role: "system", content: NO_TOOLS_INSTRUCTION });
  messages.push({ role: "user", content: options.question });
  return messages;
}

/** The answer round: same messages with tools disallowed. */
export function buildFinalAnswerMessages(options: Omit<HalfAgentMessagesOptions, "allowTools">): ChatMessage[] {
  return buildHalfAgentMessages({ ...options, allowTools: false });
}

/**
 * Grammar for "either a text answer or exactly one tool call":
 * {"answer": "<Text>"} or {"tool": "<Name>", "arguments": {…declared types…}} (optional arguments may be null).
 */
export function buildHalfAgentJsonSchema(tools: readonly ToolInfo[]): JsonSchema {
  const registry = z.registry<Record<string, unknown>>();
  const answer = z.object({ answer: z.string() }).strict();
  const calls = tools.map((tool) => {
    const args = grammarArguments(tool.inputSchema, registry);
    return z.object({ tool: z.literal(tool.name), arguments: z.object(args).strict() }).strict();
  });
  const schema = calls.length === 0 ? answer : z.union([answer, ...calls]);
  return toGrammarDialect(z.toJSONSchema(schema, { metadata: registry, unrepresentable: "any" })) as JsonSchema;
}
