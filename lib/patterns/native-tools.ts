// The third tool-calling style: native function calling. The MCP catalog becomes the model's
// function list; the model emits calls in its own format, we validate every call's params against
// the tool's JSON schema before calling the MCP tool, and send results (or German errors) back.
// Bounded by maxCalls (tool calls run) and maxRounds (generations).
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import type { GenerationMeter, GenerationOptions } from "../llm/types.js";
import type { AnsweredFunctionCall, NativeFunction, ToolCallingLlm, ToolChatHistory } from "../llm/native-tools.js";
import { checkArguments, type ArgumentIssue } from "../plan/arguments.js";
import { dropNullOptionals, toGrammarSchema } from "../schema/grammar.js";
import { executeToolCall } from "../half-agent/half-agent.js";
import { FALLBACK_ANSWER } from "../agent/prompts.js";

export interface NativeToolChatOptions {
  /** A model with native function calling (`await llm.createToolCaller()`). Required. */
  llm: ToolCallingLlm;
  /** Where the calls run. Required. */
  tools: ToolClient;
  /** The user's question. Required. */
  question: string;
  /** Tool list (default: tools.listTools()). */
  catalog?: ToolInfo[];
  /** System prompt; the backend adds the function documentation itself. Default: none. */
  system?: string;
  /** Tool calls that may run (default 4). Further calls get an error result. */
  maxCalls?: number;
  /** Generations (default maxCalls + 2). */
  maxRounds?: number;
  /** Sampling options for every generation (default: the model's own). */
  generation?: GenerationOptions;
  /** Ends the chat and the call in flight. */
  signal?: AbortSignal;
}

export interface NativeCallRecord {
  round: number;
  id: string;
  name: string;
  /** Params exactly as the model wrote them. */
  params: unknown;
  /** Verdict of the schema check (false: the tool was not called). */
  valid: boolean;
  issues: ArgumentIssue[];
  /** Whether the MCP tool was actually called. */
  executed: boolean;
  result?: unknown;
  error?: string;
}

export type NativeRunStatus = "answered" | "max_rounds";

export interface NativeToolChatResult {
  answer: string;
  status: NativeRunStatus;
  calls: NativeCallRecord[];
  /** Generations used. */
  rounds: number;
  /** Prompt tokens evaluated, summed over all rounds. */
  promptTokensEvaluated: number;
  /** Most calls the model made in one round. */
  maxParallelCalls: number;
  meters: GenerationMeter[];
  /** The backend's tool-call format, e.g. "Llama 3.1". */
  format: string;
}

/** MCP tools → native functions (schema for validation plus its grammar dialect). */
export function toNativeFunctions(catalog: readonly ToolInfo[]): NativeFunction[] {
  return catalog.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    grammarParameters: toGrammarSchema(tool.inputSchema),
  }));
}

/** The messages already name the field (lib/schema/validate.ts), so they are joined as they are. */
function issuesText(issues: ArgumentIssue[]): string {
  return issues.map((i) => i.message).join(" ");
}

async function answerCall(
  record: NativeCallRecord,
  catalog: readonly ToolInfo[],
  tools: ToolClient,
  budgetLeft: boolean,
  signal?: AbortSignal,
): Promise<unknown> {
  const tool = catalog.find((t) => t.name === record.name);
  if (!tool) {
    record.issues = [{ path: "", message: `Unbekanntes Werkzeug „${record.name}“.` }];
    return { fehler: `Unbekanntes Werkzeug „${record.name}“. Verfügbar: ${catalog.map((t) => t.name).join(", ")}.` };
  }
  const args = dropNullOptionals(record.params, tool.inputSchema);
  const check = checkArguments(tool, args);
  record.valid = check.ok;
  record.issues = check.issues;
  if (!check.ok)
    return { fehler: `Ungültige Argumente für ${tool.name}: ${issuesText(check.issues)} Bitte korrigieren.` };
  if (!budgetLeft) return { fehler: "Keine weiteren Werkzeugaufrufe erlaubt. Antworte jetzt mit dem, was du weißt." };
  const entry = await executeToolCall(
    tools,
    { tool: tool.name, arguments: args as Record<string, unknown> },
    { tools: catalog, signal },
  );
  record.executed = true;
  if (entry.error !== undefined) {
    record.error = entry.error;
    return { fehler: entry.error };
  }
  record.result = entry.result;
  return entry.result;
}

/** Runs a native tool chat until the model answers without calls, or maxRounds is reached. */
export async function runNativeToolChat(options: NativeToolChatOptions): Promise<NativeToolChatResult> {
  const catalog = options.catalog ?? (await options.tools.listTools());
  const maxCalls = options.maxCalls ?? 4;
  const maxRounds = options.maxRounds ?? maxCalls + 2;
  const functions = toNativeFunctions(catalog);
  const history: ToolChatHistory = { system: options.system, question: options.question, rounds: [] };
  const calls: NativeCallRecord[] = [];
  const meters: GenerationMeter[] = [];
  let maxParallelCalls = 0;
  let lastText = "";
  for (let round = 1; round <= maxRounds; round++) {
    const reply = await options.llm.respondWithTools(history, functions, {
      ...options.generation,
      signal: options.signal,
    });
    meters.push(reply.meter);
    lastText = reply.text.trim();
    if (reply.calls.length === 0) return finish("answered", lastText || FALLBACK_ANSWER);
    maxParallelCalls = Math.max(maxParallelCalls, reply.calls.length);
    const answered: AnsweredFunctionCall[] = [];
    for (const call of reply.calls) {
      const record: NativeCallRecord = {
        round,
        id: call.id,
        name: call.name,
        params: call.params,
        valid: false,
        issues: [],
        executed: false,
      };
      calls.push(record);
      const executed = calls.filter((c) => c.executed).length;
      const result = await answerCall(record, catalog, options.tools, executed < maxCalls, options.signal);
      answered.push({ ...call, result });
    }
    history.rounds.push({ text: reply.text, calls: answered });
  }
  return finish("max_rounds", lastText || FALLBACK_ANSWER);

  function finish(status: NativeRunStatus, answer: string): NativeToolChatResult {
    return {
      answer,
      status,
      calls,
      rounds: meters.length,
      promptTokensEvaluated: meters.reduce((n, m) => n + m.promptTokensEvaluated, 0),
      maxParallelCalls,
      meters,
      format: options.llm.toolCallFormat,
    };
  }
}
