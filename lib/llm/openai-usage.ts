// Token counts of an OpenAI-compatible response, shared by chat (streamed) and native tool calling.
// Internal: its zod types stay out of the public declarations (see docs/architecture.md).
import { z } from "zod";

/** Token counts as OpenAI (`usage`) and llama.cpp's server (`timings`) report them; in both response kinds. */
export const UsageFields = {
  usage: z
    .object({
      prompt_tokens: z.number().optional(),
      completion_tokens: z.number().optional(),
      prompt_tokens_details: z.object({ cached_tokens: z.number().optional() }).nullish(),
    })
    .nullish(),
  timings: z.object({ prompt_n: z.number().optional(), cache_n: z.number().optional() }).partial().nullish(),
};
type Usage = z.infer<z.ZodObject<typeof UsageFields>>;

/** Evaluated / reused / generated tokens from whichever counts the server sent. */
export function tokenCounts({ usage, timings }: Usage): {
  promptTokensEvaluated: number;
  promptTokensReused: number;
  generatedTokens: number;
} {
  const promptTokens = usage?.prompt_tokens ?? 0;
  const reused = usage?.prompt_tokens_details?.cached_tokens ?? timings?.cache_n ?? 0;
  return {
    promptTokensEvaluated: timings?.prompt_n ?? Math.max(0, promptTokens - reused),
    promptTokensReused: reused,
    generatedTokens: usage?.completion_tokens ?? 0,
  };
}
