// The answer writer: a second model call that writes the final answer from the question, the
// context and the tool results only — no tools, no plan, no earlier drafts. It separates "find the
// facts" (planner) from "say them" (writer), so the answer cannot lean on what the planner imagined.
import type { ChatMessage, GenerationOptions, Llm } from "../llm/types.js";
import { compactJson } from "../plan/json.js";

export interface AnswerWriterInput {
  question: string;
  context?: string;
  /** Successful tool results by id. */
  toolResults: Record<string, unknown>;
  today?: string;
  /** Longest rendering of one tool result in characters (default 1500). */
  maxResultChars?: number;
}

export const ANSWER_WRITER_PROMPT =
  "Du schreibst die Antwort eines Reiseassistenten. Du bekommst die Frage, Hintergrundwissen und die Ergebnisse " +
  "der Werkzeuge. Nutze nur Zahlen, Daten und Orte, die dort stehen; erfinde nichts. Fehlt eine Angabe, sag " +
  "ehrlich, was fehlt. Antworte auf Deutsch in wenigen Sätzen, ohne JSON.";

/** The answer writer's messages: its prompt, then date, context, tool results and question in one user message. */
export function buildAnswerWriterMessages(input: AnswerWriterInput): ChatMessage[] {
  const max = input.maxResultChars ?? 1500;
  const results = Object.entries(input.toolResults).map(([id, value]) => `- ${id}: ${compactJson(value, max)}`);
  const parts = [
    input.today ? `Heute ist ${input.today}.` : "",
    input.context ? `Hintergrundwissen:\n${input.context}` : "",
    `Werkzeug-Ergebnisse:\n${results.length > 0 ? results.join("\n") : "(keine)"}`,
    `Frage: ${input.question}`,
  ].filter((p) => p !== "");
  return [
    { role: "system", content: ANSWER_WRITER_PROMPT },
    { role: "user", content: parts.join("\n\n") },
  ];
}

/** Writes the answer with `llm.chat` (default at most 400 new tokens). */
export async function writeAnswer(
  llm: Llm,
  input: AnswerWriterInput,
  generation: GenerationOptions = {},
): Promise<string> {
  const reply = await llm.chat(buildAnswerWriterMessages(input), { maxTokens: 400, ...generation });
  return reply.text.trim();
}
