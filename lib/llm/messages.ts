// Validation of chat messages passed in by callers (notebook cells, agent code), and the two system
// messages every agent adds the same way: today's date and retrieved context. They live here, below
// rag, agent and half-agent, so the agents take context as text without reaching into lib/rag.
import { LlmInputError } from "./errors.js";
import type { ChatMessage } from "./types.js";

const ROLES = new Set(["system", "user", "assistant"]);

/** Throws LlmInputError unless `messages` is a non-empty list of {role, content} ending with a user turn. */
export function checkMessages(messages: ChatMessage[]): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new LlmInputError('Keine Nachrichten übergeben: chat([{ role: "user", content: "…" }]).');
  }
  messages.forEach((m, i) => {
    if (!m || typeof m !== "object" || !ROLES.has(m.role) || typeof m.content !== "string") {
      throw new LlmInputError(
        `Nachricht ${i} ist ungültig (${JSON.stringify(m)?.slice(0, 120)}): erwartet { role: "system" | "user" | "assistant", content: string }.`,
      );
    }
  });
  const last = messages[messages.length - 1];
  if (last?.role !== "user") {
    throw new LlmInputError(`Die letzte Nachricht muss vom Nutzer kommen (role "user"), nicht "${last?.role}".`);
  }
}

/**
 * Today's date as its own short system message, sent right after the long system prompt: the prompt's
 * saved KV state (prompt-state.ts) then stays the same every day, and the model still reads the date.
 */
export function todayMessage(today: string): ChatMessage {
  return { role: "system", content: `Heutiges Datum: ${today}.` };
}

/**
 * Retrieved context (RAG) as its own system message for the agents (planner and half-agent): marked as
 * added by the system, not written by the user, and to be used only where it fits the question.
 */
export function contextMessage(context: string): ChatMessage {
  return {
    role: "system",
    content: `Auszüge aus der Wissensdatenbank – vom System beigefügt, nicht vom Nutzer geschrieben. Nutze sie, soweit sie zur Frage passen:\n\n${context}`,
  };
}
