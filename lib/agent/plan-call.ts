// One planning call: the model's next plan, or a typed reason why there is none. Never throws, except
// when the run is aborted.
//
// Plan output: with "auto" (default) plans come from `llm.generateJson` with the plan grammar
// (buildPlanJsonSchema), so they always parse. If generateJson throws an error that says the backend
// cannot do it (JsonNotSupportedError), the call switches to `llm.chat` + parsePlan, emits an
// `output_fallback` event and answers `via: "text"`, which the loop keeps for the rest of the run.
// "grammar" never falls back; "text" always uses chat + parsePlan. Any other generation error becomes a
// `generation` reply (`retryable: false` when more rounds cannot fix it, as the LlmError says); the loop decides what follows.
import { JsonNotSupportedError, LlmError } from "../llm/errors.js";
import type { ChatMessage, GenerationOptions, JsonSchema, Llm } from "../llm/types.js";
import { parsePlan, parsePlanValue, type Plan, type PlanParseError } from "../plan/plan.js";
import { untilAborted, errorText } from "../util.js";
import type { ExecutorEvent } from "./executor.js";
import type { PlanOutput } from "./run-options.js";
import type { PlanVia } from "./trace.js";

export type ReplyError =
  Pick<PlanParseError, "kind" | "message"> | { kind: "generation"; message: string; retryable: boolean };

/** `via`: how this plan was generated, and how the next one will be. */
export type PlanReply =
  | { ok: true; plan: Plan; raw: string; via: PlanVia; error?: undefined }
  | { ok: false; error: ReplyError; raw: string; via: PlanVia; plan?: undefined };

export interface PlanRequest {
  llm: Llm;
  messages: ChatMessage[];
  /** The grammar: a plan, or (in a final round) an answer only. */
  schema: JsonSchema;
  forceFinal: boolean;
  planOutput: PlanOutput;
  /** "grammar" until the backend said it cannot; then "text". */
  via: PlanVia;
  generation: GenerationOptions;
  emit: (event: ExecutorEvent) => void;
}

/** A generation error as a reply; not retryable when another round cannot fix it (the prompt only grows, the server stays down). */
function generationError(error: unknown, via: PlanVia): PlanReply {
  return {
    ok: false,
    error: {
      kind: "generation",
      message: errorText(error, { withName: true }),
      retryable: !(error instanceof LlmError && !error.retryable),
    },
    raw: "",
    via,
  };
}

export async function requestPlan(request: PlanRequest): Promise<PlanReply> {
  const { llm, messages, generation } = request;
  const signal = generation.signal;
  let via = request.via;
  request.emit({ type: "llm_request", via, forceFinal: request.forceFinal, messageCount: messages.length });
  if (via === "grammar") {
    try {
      const value = await untilAborted(llm.generateJson(request.schema, messages, generation), signal);
      const raw = JSON.stringify(value) ?? "";
      const parsed = parsePlanValue(value, raw);
      return parsed.ok ? { ok: true, plan: parsed.plan, raw, via } : { ok: false, error: parsed.error, raw, via };
    } catch (error) {
      if (signal?.aborted) throw error;
      if (request.planOutput === "grammar" || !(error instanceof JsonNotSupportedError))
        return generationError(error, via);
      via = "text";
      request.emit({
        type: "output_fallback",
        message: `generateJson wird nicht unterstützt (${errorText(error, { withName: true })}); weiter mit chat() und parsePlan.`,
      });
    }
  }
  let text: string;
  try {
    text = (await untilAborted(llm.chat(messages, generation), signal)).text;
  } catch (error) {
    if (signal?.aborted) throw error;
    return generationError(error, via);
  }
  const parsed = parsePlan(text);
  return parsed.ok
    ? { ok: true, plan: parsed.plan, raw: text, via }
    : { ok: false, error: parsed.error, raw: text, via };
}
