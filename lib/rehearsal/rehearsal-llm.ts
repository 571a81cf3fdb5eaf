// The rehearsal model: a ScriptedLlm whose one reply function reads the request (which question, which
// kind of request: plan, half-agent call, answer round, answer writer, chat) and answers from SCRIPT —
// or, for a Modell-Check task, from the task's oracle plan. Plans are re-sent until every call has an
// outcome in the conversation, then `final` is written from the real results — so tools, servers,
// approval and diagrams run as with a good model. Every text it writes starts with SCRIPTED_MARK, so a
// scripted answer is marked wherever a notebook, slide or terminal shows it.
import { ANSWER_WRITER_PROMPT } from "../agent/answer-writer.js";
import { NO_TOOLS_INSTRUCTION } from "../half-agent/prompts.js";
import { PROBE_NOTICE, SCRIPTED_MARK } from "../config.js";
import type { TaskOracle } from "../eval/tasks.js";
import type { ChatMessage, GenerationMeter } from "../llm/types.js";
import type { ToolCallingLlm, ToolChatHistory, ToolChatRound } from "../llm/native-tools.js";
import { fillAnswer } from "../testing/eval-oracle.js";
import { ScriptedLlm, type ScriptedRequest } from "../testing/scripted-llm.js";
import { evalOracleFor } from "./eval-tasks.js";
import {
  dateIn,
  NOT_SCRIPTED,
  scriptFor,
  todayIn,
  weatherLine,
  type ScriptContext,
  type ScriptEntry,
} from "./script.js";

/** A scripted text as shown: with the rehearsal mark in front. */
export function marked(text: string): string {
  return `${SCRIPTED_MARK} ${text}`;
}

/** How the scripted planner describes a step by its tools. */
const STEP_WORDS: Record<string, string> = {
  geocode: "Koordinaten bestimmen",
  get_weather: "Wetter abrufen",
  rank_spots: "Orte zum Joggen bewerten",
};

/** Messages the loop or the half-agent adds after the question (never the question itself). */
const NOT_A_QUESTION = /^(Tool-Ergebnisse:|Tool-Historie|Dein Plan wurde nicht)/;

/** The variant of a scripted wording: temperature 0 always gives the first, else the seed picks one. */
function variantOf(request: ScriptedRequest): number {
  const { seed, temperature } = request.sampling ?? {};
  return temperature === 0 ? 0 : Math.abs(Math.trunc(seed ?? 0));
}

function context(request: ScriptedRequest): {
  ctx: ScriptContext;
  entry: ScriptEntry | undefined;
  oracle: TaskOracle | undefined;
} {
  const { messages } = request;
  const users = messages.filter((m) => m.role === "user" && !NOT_A_QUESTION.test(m.content));
  const oracle = evalOracleFor(users.at(-1)?.content ?? "", messages);
  const asked = (oracle ? undefined : [...users].reverse().find((m) => scriptFor(m.content))) ?? users.at(-1);
  const question = asked?.content ?? "";
  const system = messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
  const today = todayIn(system);
  const ctx: ScriptContext = {
    question,
    system,
    seen: messages
      .filter((m) => m !== asked)
      .map((m) => m.content)
      .join("\n"),
    today,
    date: dateIn(question, today),
    variant: variantOf(request),
  };
  return { ctx, entry: oracle ? undefined : scriptFor(question), oracle };
}

/** Outcomes the loop sent back ("Tool-Ergebnisse:" lines, one JSON object per call): results, and every id that settled (result or error). */
function outcomesIn(messages: readonly ChatMessage[]): { results: Map<string, unknown>; settled: Set<string> } {
  const results = new Map<string, unknown>();
  const settled = new Set<string>();
  for (const m of messages) {
    if (!m.content.startsWith("Tool-Ergebnisse:")) continue;
    for (const line of m.content.split("\n")) {
      try {
        const entry = JSON.parse(line) as { id?: string; result?: unknown; error?: unknown };
        if (typeof entry.id !== "string") continue;
        if (entry.result !== undefined) results.set(entry.id, entry.result);
        if (entry.result !== undefined || entry.error !== undefined) settled.add(entry.id);
      } catch {
        // not a result line
      }
    }
  }
  return { results, settled };
}

/** Answer-writer facts ("- id: {json}") as results; a shortened value stays the text the writer was shown. */
function writerFacts(text: string): Map<string, unknown> {
  const facts = new Map<string, unknown>();
  for (const m of text.matchAll(/^- ([\w.-]+): (.*)$/gm)) {
    try {
      facts.set(m[1]!, JSON.parse(m[2]!));
    } catch {
      facts.set(m[1]!, m[2]!);
    }
  }
  return facts;
}

function planReply(
  entry: ScriptEntry | undefined,
  ctx: ScriptContext,
  outcomes: ReturnType<typeof outcomesIn>,
): Record<string, unknown> {
  if (!entry?.plan || !entry.final) return { steps: [], final: marked(NOT_SCRIPTED) };
  const steps = entry.plan(ctx);
  const done = steps.flat().every((call) => outcomes.settled.has(call.id));
  const described = steps.map((tools) => ({
    description: [...new Set(tools.map((t) => STEP_WORDS[t.name] ?? t.name))].join(" und "),
    tools,
  }));
  return done ? { steps: [], final: marked(entry.final(outcomes.results, ctx)) } : { steps: described, final: null };
}

/** A Modell-Check task: its oracle plan until every call has settled, then the oracle's answer from the results. */
function oracleReply(oracle: TaskOracle, outcomes: ReturnType<typeof outcomesIn>): Record<string, unknown> {
  const done = oracle.steps.every((step) => step.tools.every((call) => outcomes.settled.has(call.id)));
  return done
    ? { steps: [], final: marked(fillAnswer(oracle.answer, outcomes.results)) }
    : { steps: oracle.steps, final: null };
}

function halfAgentReply(entry: ScriptEntry | undefined, ctx: ScriptContext): Record<string, unknown> {
  return entry?.call ? entry.call(ctx) : { answer: marked(NOT_SCRIPTED) };
}

function chatReply(
  entry: ScriptEntry | undefined,
  oracle: TaskOracle | undefined,
  ctx: ScriptContext,
  messages: readonly ChatMessage[],
): string {
  if (messages.some((m) => m.content.includes(NO_TOOLS_INSTRUCTION)))
    return marked(entry?.answer?.(ctx) ?? NOT_SCRIPTED);
  if (messages[0]?.content === ANSWER_WRITER_PROMPT) {
    const facts = writerFacts(ctx.question + "\n" + ctx.seen);
    return marked((oracle ? fillAnswer(oracle.answer, facts) : entry?.final?.(facts, ctx)) ?? NOT_SCRIPTED);
  }
  if (entry?.chat) return marked(typeof entry.chat === "string" ? entry.chat : entry.chat(ctx));
  if (entry?.call) return marked(JSON.stringify(entry.call(ctx))); // the half-agent without grammar: the mark, then its tool call
  return marked(NOT_SCRIPTED);
}

/** One reply of the rehearsal model for a recorded request. */
export function rehearsalReply(request: ScriptedRequest): string | Record<string, unknown> {
  const { ctx, entry, oracle } = context(request);
  if (request.method === "chat") return chatReply(entry, oracle, ctx, request.messages);
  const isPlan =
    typeof request.schema === "object" &&
    request.schema !== null &&
    "steps" in ((request.schema as { properties?: object }).properties ?? {});
  if (!isPlan) return halfAgentReply(entry, ctx);
  const outcomes = outcomesIn(request.messages);
  return oracle ? oracleReply(oracle, outcomes) : planReply(entry, ctx, outcomes);
}

/** Native function calling in rehearsal: geocode, then get_weather with its coordinates, then the answer. */
class RehearsalToolCaller implements ToolCallingLlm {
  readonly toolCallFormat = "vorgespielt";

  respondWithTools(history: ToolChatHistory): Promise<ToolChatRound> {
    const meter: GenerationMeter = {
      promptTokensEvaluated: 0,
      promptTokensReused: 0,
      generatedTokens: 0,
      timeToFirstTokenMs: 0,
      totalMs: 0,
      tokensPerSecond: 0,
      scripted: true,
    };
    const entry = scriptFor(history.question);
    const date = dateIn(history.question);
    const round = history.rounds.length;
    const last = history.rounds.at(-1)?.calls[0]?.result as { lat?: number; lon?: number } | undefined;
    const call = (name: string, params: Record<string, unknown>) =>
      Promise.resolve({ text: "", calls: [{ id: `call_${round + 1}`, name, params }], meter });
    const city = /in (\w+)\?/.exec(history.question)?.[1];
    if (!entry?.plan || !city) return Promise.resolve({ text: marked(NOT_SCRIPTED), calls: [], meter });
    if (round === 0) return call("geocode", { destination: city });
    if (round === 1) return call("get_weather", { lat: last?.lat, lon: last?.lon, start_date: date, end_date: date });
    const weather = history.rounds.at(-1)?.calls[0]?.result;
    return Promise.resolve({
      text: marked(`Heute (${date}) – ${entry.final ? weatherLine(city, weather) : NOT_SCRIPTED}.`),
      calls: [],
      meter,
    });
  }
}

/** The scripted model of rehearsal mode, behind the same Llm interface as a real one. */
export function createRehearsalLlm(): ScriptedLlm {
  const llm = new ScriptedLlm([rehearsalReply], { whenExhausted: "repeat-last" });
  Object.assign(llm.info, { notes: [`${PROBE_NOTICE} – kein Modell; Antworten aus dem Drehbuch der Notebooks.`] });
  return Object.assign(llm, { createToolCaller: () => Promise.resolve(new RehearsalToolCaller()) });
}
