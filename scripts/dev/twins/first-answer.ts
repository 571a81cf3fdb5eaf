// Teil 4's first planning call, as the agent makes it: the planner's system prompt with the travel
// catalog (lib's own builder, tools listed by the real travel server, offline data), a short question,
// and the plan grammar. Token counts use the real Llama 3 tokenizer (llama3-tokenizer-js).
import {
  buildPlanJsonSchema,
  buildPlannerSystemPrompt,
  McpToolClient,
  startTravelServer,
  todayMessage,
} from "../../../lib/index.js";
import type { ChatMessage, JsonSchema } from "../../../lib/index.js";
import { llama3ReferenceIds } from "../tiny-models/llama3-vocab.js";

export const FIRST_QUESTION = "Wie wird das Wetter morgen in Barcelona?";
export const TODAY = "2026-06-15";

/** A plan as the planner writes it for FIRST_QUESTION (geocode, then the weather with $refs). */
export const SAMPLE_PLAN = JSON.stringify({
  steps: [
    { description: "Barcelona finden", tools: [{ id: "geo", name: "geocode", arguments: { name: "Barcelona" } }] },
    {
      description: "Wetter für morgen abfragen",
      tools: [
        {
          id: "wetter",
          name: "get_weather",
          arguments: { latitude: { $ref: "geo.latitude" }, longitude: { $ref: "geo.longitude" }, date: "2026-06-16" },
        },
      ],
    },
  ],
  final: null,
});

export interface PlannerCall {
  messages: ChatMessage[];
  schema: JsonSchema;
  /** Prompt tokens with the Llama 3.1 chat template. */
  promptTokens: number;
  planTokens: number;
}

/** Tokens the Llama 3.1 template adds around two system messages and a user message (BOS, headers, cut-off line, end marks). */
function templateTokens(): number {
  const cutOff = llama3ReferenceIds("Cutting Knowledge Date: December 2023\n\n").length;
  const header = 3 + llama3ReferenceIds("\n\n").length; // <|start_header_id|> role <|end_header_id|> "\n\n"
  return 1 + 4 * header + cutOff + 3; // BOS, system/date/user/assistant headers, three <|eot_id|>
}

/** Starts the travel server (offline data) for its tool list, builds the call, stops the server. */
export async function plannerCall(): Promise<PlannerCall> {
  const server = await startTravelServer({ offline: true });
  try {
    const client = await McpToolClient.connect(server.url);
    const tools = await client.listTools();
    await client.close();
    const system = buildPlannerSystemPrompt(tools);
    const today = todayMessage(TODAY);
    return {
      messages: [{ role: "system", content: system }, today, { role: "user", content: FIRST_QUESTION }],
      schema: buildPlanJsonSchema(tools),
      promptTokens:
        templateTokens() +
        [system, today.content, FIRST_QUESTION].reduce((n, text) => n + llama3ReferenceIds(text).length, 0),
      planTokens: llama3ReferenceIds(SAMPLE_PLAN).length + 1,
    };
  } finally {
    await server.stop();
  }
}
