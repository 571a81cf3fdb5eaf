// ask_user: a tool the planner may call when a required fact is missing („Für welche Stadt?").
// It never reaches an MCP server: the executor asks the injected callback (notebook input, the
// CLI's terminal). Without a callback the call fails with a clear German message and the model
// has to answer without the fact.
import type { ToolInfo } from "../mcp/types.js";
import { errorText } from "../util.js";

export const ASK_USER_TOOL_NAME = "ask_user";

/** Receives the model's question, returns the person's answer. */
export type AskUserFn = (question: string, signal?: AbortSignal) => string | Promise<string>;

export const ASK_USER_TOOL: ToolInfo = {
  name: ASK_USER_TOOL_NAME,
  description:
    "Stellt dem Menschen eine Rückfrage, wenn eine nötige Angabe fehlt (z. B. die Stadt oder das Datum). " +
    "Nur benutzen, wenn die Frage ohne diese Angabe nicht zu beantworten ist.",
  inputSchema: {
    type: "object",
    properties: {
      question: { type: "string", minLength: 1, description: 'Die Rückfrage auf Deutsch, z. B. "Für welche Stadt?"' },
    },
    required: ["question"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { question: { type: "string" }, answer: { type: "string" } },
    required: ["question", "answer"],
  },
  annotations: {
    title: "Rückfrage an den Menschen",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
};

/** The `ask_user` result when no `askUser` answerer was given: the planner is told to answer without. */
export const ASK_USER_UNAVAILABLE =
  "Rückfrage nicht möglich: hier kann niemand antworten. Beantworte die Frage ohne diese Angabe und sage dabei, was fehlt.";

// Both branches name both fields: tslab's non-strict TypeScript does not narrow on `ok` alone.
export type AskUserOutcome =
  | { ok: true; result: { question: string; answer: string }; message?: undefined }
  | { ok: false; message: string; result?: undefined };

/** Asks via the callback; never throws (no callback, an empty answer or an error become a failed outcome). */
export async function askUser(
  question: string,
  callback: AskUserFn | undefined,
  signal?: AbortSignal,
): Promise<AskUserOutcome> {
  if (!callback) return { ok: false, message: ASK_USER_UNAVAILABLE };
  try {
    const answer = (await callback(question, signal)).trim();
    if (answer === "")
      return {
        ok: false,
        message: "Der Mensch hat keine Antwort gegeben. Beantworte die Frage ohne diese Angabe und sage, was fehlt.",
      };
    return { ok: true, result: { question, answer } };
  } catch (error) {
    return {
      ok: false,
      message: `Rückfrage fehlgeschlagen (${errorText(error)}). Beantworte die Frage ohne diese Angabe.`,
    };
  }
}
