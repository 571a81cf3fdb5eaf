// Three tool-calling styles on one question, measured the same way: the half-agent (one manual
// call, then an answer round), the $ref plan (runAgent), and native function calling.
import type { ToolClient, ToolInfo } from "../mcp/types.js";
import type { GenerationMeter, GenerationOptions, Llm } from "../llm/types.js";
import type { AgentRunResult } from "../agent/loop.js";
import type { NativeToolChatResult } from "./native-tools.js";
import {
  buildFinalAnswerMessages,
  buildHalfAgentJsonSchema,
  buildHalfAgentMessages,
  executeToolCall,
  halfAgentReplyFromJson,
  type ToolHistoryEntry,
} from "../half-agent/half-agent.js";
import { buildHalfAgentSystemPrompt } from "../half-agent/prompts.js";
import { escapeMarkdown, mathSafeMarkdown } from "../notebook/math-safe.js";

export type ToolCallingStyle = "half-agent" | "ref-plan" | "native";

export interface StyleRow {
  style: ToolCallingStyle;
  /** German name for the table. */
  label: string;
  /** Model generations. */
  rounds: number;
  promptTokensEvaluated: number;
  /** Tool calls that ran. */
  toolCalls: number;
  /** Most tool calls in one round (a plan step, or one native response). */
  parallelCalls: number;
  /** What the model is shown about the tools and results (German). */
  modelSees: string;
  answer: string;
}

const sumEvaluated = (meters: readonly (GenerationMeter | undefined)[]) =>
  meters.reduce((n, m) => n + (m?.promptTokensEvaluated ?? 0), 0);

export interface HalfAgentRun {
  answer: string;
  toolHistory: ToolHistoryEntry[];
  meters: GenerationMeter[];
}

/** The half-agent once: one JSON reply (tool call or answer), the call by hand, one answer round. */
export async function runHalfAgentOnce(options: {
  llm: Llm;
  tools: ToolClient;
  question: string;
  catalog?: ToolInfo[];
  today?: string;
  /** Default: the travel half-agent prompt (buildHalfAgentSystemPrompt). */
  systemPrompt?: string;
  generation?: GenerationOptions;
}): Promise<HalfAgentRun> {
  const catalog = options.catalog ?? (await options.tools.listTools());
  const systemPrompt = options.systemPrompt ?? buildHalfAgentSystemPrompt(catalog);
  const meters: GenerationMeter[] = [];
  const onMeter = (m: GenerationMeter) => meters.push(m);
  const gen = { ...options.generation, onMeter };
  const value = await options.llm.generateJson(
    buildHalfAgentJsonSchema(catalog),
    buildHalfAgentMessages({ systemPrompt, question: options.question, today: options.today }),
    gen,
  );
  const reply = halfAgentReplyFromJson(value, catalog);
  if (reply.kind !== "tool_call") {
    return { answer: reply.kind === "text" ? reply.text : reply.reason, toolHistory: [], meters };
  }
  const toolHistory = [await executeToolCall(options.tools, reply.call, { tools: catalog })];
  const final = await options.llm.chat(
    buildFinalAnswerMessages({ systemPrompt, question: options.question, today: options.today, toolHistory }),
    gen,
  );
  return { answer: final.text, toolHistory, meters };
}

/** The style comparison's row of a half-agent run (runHalfAgentOnce). */
export function halfAgentRow(run: HalfAgentRun): StyleRow {
  return {
    style: "half-agent",
    label: "Halb-Agent (ein Aufruf von Hand)",
    rounds: run.meters.length,
    promptTokensEvaluated: sumEvaluated(run.meters),
    toolCalls: run.toolHistory.length,
    parallelCalls: Math.min(1, run.toolHistory.length),
    modelSees: "Werkzeugkatalog als Text, Regeln, JSON-Grammatik; Ergebnis als Tool-Historie",
    answer: run.answer,
  };
}

/** `meters`: every generation of the run (pass `generation: { onMeter }` to runAgent), retries included. */
export function refPlanRow(result: AgentRunResult, meters?: readonly GenerationMeter[]): StyleRow {
  const events = result.trace.events;
  const perStep = new Map<string, number>();
  for (const e of events) {
    if (e.type !== "tool_call" || e.attempt !== 1) continue;
    const key = `${e.iteration}/${e.stepIndex}`;
    perStep.set(key, (perStep.get(key) ?? 0) + 1);
  }
  const planMeters = meters ?? events.map((e) => (e.type === "plan" || e.type === "plan_error" ? e.meter : undefined));
  return {
    style: "ref-plan",
    label: "$ref-Plan (runAgent)",
    rounds: meters ? meters.length : events.filter((e) => e.type === "llm_request").length,
    promptTokensEvaluated: sumEvaluated(planMeters),
    toolCalls: [...perStep.values()].reduce((a, b) => a + b, 0),
    parallelCalls: Math.max(0, ...perStep.values()),
    modelSees: "Katalog als Text, Plan-Grammatik; Ergebnisse als JSON, Verweise per $ref",
    answer: result.final,
  };
}

/** The style comparison's row of a native function-calling run (runNativeToolChat). */
export function nativeRow(result: NativeToolChatResult): StyleRow {
  return {
    style: "native",
    label: `Natives Function Calling (${result.format})`,
    rounds: result.rounds,
    promptTokensEvaluated: result.promptTokensEvaluated,
    toolCalls: result.calls.filter((c) => c.executed).length,
    parallelCalls: result.maxParallelCalls,
    modelSees: "Funktionen im Format des Modells; Ergebnisse als Funktionsantworten im Verlauf",
    answer: result.answer,
  };
}

/** A Markdown table of the rows (German headings), safe against the front ends' MathJax ("$ref"). */
export function styleTableMarkdown(rows: readonly StyleRow[]): string {
  const esc = escapeMarkdown;
  return mathSafeMarkdown(
    [
      "| Stil | Runden | Prompt-Tokens berechnet | Werkzeugaufrufe | parallel | Was das Modell sieht |",
      "|:---|---:|---:|---:|---:|:---|",
      ...rows.map(
        (r) =>
          `| ${esc(r.label)} | ${r.rounds} | ${r.promptTokensEvaluated} | ${r.toolCalls} | ${r.parallelCalls} | ${esc(r.modelSees)} |`,
      ),
    ].join("\n"),
  );
}
