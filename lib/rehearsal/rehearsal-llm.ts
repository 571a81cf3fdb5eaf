// The rehearsal model: a ScriptedLlm whose one reply function reads the request (which question, which
// kind of request: plan, half-agent call, answer round, answer writer, chat) and answers from SCRIPT.
// Plans are re-sent until every call has a result in the conversation, then `final` is written from
// those real results — so tools, servers, approval and diagrams run as with a good model.
import { ANSWER_WRITER_PROMPT } from "../agent/answer-writer.js";
import { NO_TOOLS_INSTRUCTION } from "../half-agent/prompts.js";
import { PROBE_NOTICE } from "../config.js";
import type { ChatMessage } from "../llm/types.js";
import type { ToolCallingLlm, ToolChatHistory, ToolChatRound } from "../llm/native-tools.js";
import { ScriptedLlm, type ScriptedRequest } from "../testing/scripted-llm.js";
import { dateIn, NOT_SCRIPTED, scriptFor, weatherLine, type ScriptContext, type ScriptEntry } from "./script.js";

/** How the scripted planner describes a step by its tools. */
const STEP_WORDS: Record<string, string> = {
  geocode: "Koordinaten bestimmen", get_weather: "Wetter abrufen", rank_spots: "Orte zum Joggen bewerten",
};

/** Messages the loop or the half-agent adds after the question (never the question itself). */
const NOT_A_QUESTION = /^(Tool-Ergebnisse:|Tool-Historie|Dein Plan wurde nicht)/;

function context(messages: readonly ChatMessage[]): { ctx: ScriptContext; entry: ScriptEntry | undefined } {
  const users = messages.filter((m) => m.role === "user" && !NOT_A_QUESTION.test(m.content));
  const asked = [...users].reverse().find((m) => scriptFor(m.content)) ?? users.at(-1);
  const question = asked?.content ?? "";
  const ctx: ScriptContext = {
    question,
    system: messages.filter((m) => m.role === "system").map((m) => m.content).join("\n"),
    seen: messages.filter((m) => m !== asked).map((m) => m.content).join("\n"),
    date: dateIn(question),
  };
  return { ctx, entry: scriptFor(question) };
}

/** Tool results the loop sent back ("Tool-Ergebnisse:" lines, one JSON object per call). */
function resultsIn(messages: readonly ChatMessage[]): Map<string, unknown> {
  const results = new Map<string, unknown>();
  for (const m of messages) {
    if (!m.content.startsWith("Tool-Ergebnisse:")) continue;
    for (const line of m.content.split("\n")) {
      try {
        const entry = JSON.parse(line) as { id?: string; result?: unknown };
        if (typeof entry.id === "string" && entry.result !== undefined) results.set(entry.id, entry.result);
      } catch {
        // not a result line
      }
    }
  }
  return results;
}

/** Answer-writer facts ("- id: {json}") as results. */
function writerFacts(text: string): Map<string, unknown> {
  const facts = new Map<string, unknown>();
  for (const m of text.matchAll(/^- ([\w.-]+): (.*)$/gm)) {
    try {
      facts.set(m[1]!, JSON.parse(m[2]!));
    } catch {
      // shortened value
    }
  }
  return facts;
}

function planReply(entry: ScriptEntry | undefined, ctx: ScriptContext, results: Map<string, unknown>): Record<string, unknown> {
  if (!entry?.plan || !entry.final) return { steps: [], final: NOT_SCRIPTED };
  const steps = entry.plan(ctx);
  const done = steps.flat().every((call) => results.has(call.id));
  const described = steps.map((tools) => ({ description: [...new Set(tools.map((t) => STEP_WORDS[t.name] ?? t.name))].join(" und "), tools }));
  return done ? { steps: [], final: entry.final(results, ctx) } : { steps: described, final: null };
}

function halfAgentReply(entry: ScriptEntry | undefined, ctx: ScriptContext): Record<string, unknown> {
  return entry?.call ? entry.call(ctx) : { answer: NOT_SCRIPTED };
}

function chatReply(entry: ScriptEntry | undefined, ctx: ScriptContext, messages: readonly ChatMessage[]): string {
  if (messages.some((m) => m.content.includes(NO_TOOLS_INSTRUCTION))) return entry?.answer?.(ctx) ?? NOT_SCRIPTED;
  if (messages[0]?.content === ANSWER_WRITER_PROMPT) {
    const final = entry?.final?.(writerFacts(ctx.question + "\n" + ctx.seen), ctx);
    return final ?? NOT_SCRIPTED;
  }
  if (entry?.chat) return typeof entry.chat === "string" ? entry.chat : entry.chat(ctx);
  if (entry?.call) return JSON.stringify(entry.call(ctx)); // the half-agent without grammar
  return NOT_SCRIPTED;
}

/** One reply of the rehearsal model for a recorded request. */
export function rehearsalReply(request: ScriptedRequest): string | Record<string, unknown> {
  const { ctx, entry } = context(request.messages);
  if (request.method === "chat") return chatReply(entry, ctx, request.messages);
  const isPlan = typeof request.schema === "object" && request.schema !== null && "steps" in ((request.schema as { properties?: object }).properties ?? {});
  return isPlan ? planReply(entry, ctx, resultsIn(request.messages)) : halfAgentReply(entry, ctx);
}

/** Native function calling in rehearsal: geocode, then get_weather with its coordinates, then the answer. */
class RehearsalToolCaller implements ToolCallingLlm {
  readonly toolCallFormat = "vorgespielt";

  respondWithTools(history: ToolChatHistory): Promise<ToolChatRound> {
    const meter = { promptTokensEvaluated: 0, promptTokensReused: 0, generatedTokens: 0, timeToFirstTokenMs: 0, totalMs: 0, tokensPerSecond: 0 };
    const entry = scriptFor(history.question);
    const date = dateIn(history.question);
    const round = history.rounds.length;
    const last = history.rounds.at(-1)?.calls[0]?.result as { lat?: number; lon?: number } | undefined;
    const call = (name: string, params: Record<string, unknown>) =>
      Promise.resolve({ text: "", calls: [{ id: `call_${round + 1}`, name, params }], meter });
    const city = /in (\w+)\?/.exec(history.question)?.[1];
    if (!entry?.plan || !city) return Promise.resolve({ text: NOT_SCRIPTED, calls: [], meter });
    if (round === 0) return call("geocode", { destination: city });
    if (round === 1) return call("get_weather", { lat: last?.lat, lon: last?.lon, start_date: date, end_date: date });
    const weather = history.rounds.at(-1)?.calls[0]?.result;
    return Promise.resolve({ text: `Heute (${date}) – ${entry.final ? weatherLine(city, weather) : NOT_SCRIPTED}.`, calls: [], meter });
  }
}

/** The scripted model of rehearsal mode, behind the same Llm interface as a real one. */
export function createRehearsalLlm(): ScriptedLlm {
  const llm = new ScriptedLlm([rehearsalReply], { whenExhausted: "repeat-last" });
  Object.assign(llm.info, { notes: [`${PROBE_NOTICE} – kein Modell; Antworten aus dem Drehbuch der Notebooks.`] });
  return Object.assign(llm, { createToolCaller: () => Promise.resolve(new RehearsalToolCaller()) });
}
