// What both in-process generation paths (plain chat in local-generate.ts, native function calling in
// local-tool-calling.ts) hand node-llama-cpp, and how they meter a call: one place, so they cannot drift.
import type { LLamaChatGenerateResponseOptions, LlamaContextSequence } from "node-llama-cpp";
import { CallClock } from "./meter.js";
import type { GenerationMeter, GenerationOptions } from "./types.js";

/** Meters one call on a context sequence: its clock and the sequence's token counts before the call. */
export class LocalCallMeter {
  private readonly before;
  private readonly clock = new CallClock();

  /** Start it before anything of the call is evaluated (a prefix loaded for it counts too). */
  constructor(private readonly sequence: LlamaContextSequence) {
    this.before = sequence.tokenMeter.getState();
  }

  /** Passes generated text on to `forward`, noting when the first piece arrived. */
  textChunks(forward?: (text: string) => void): (text: string) => void {
    return (text) => {
      this.clock.markFirstToken();
      forward?.(text);
    };
  }

  /** The call's meter; `promptTokensReused` = prompt tokens found in the KV cache. */
  finish(promptTokensReused: number): GenerationMeter {
    const after = this.sequence.tokenMeter.getState();
    return this.clock.finish({
      promptTokensEvaluated: after.usedInputTokens - this.before.usedInputTokens,
      promptTokensReused,
      generatedTokens: after.usedOutputTokens - this.before.usedOutputTokens,
    });
  }
}

/** node-llama-cpp's sampling options for a call: our GenerationOptions mapped, its text chunks metered. */
export function localSampling(options: GenerationOptions, meter: LocalCallMeter) {
  return {
    maxTokens: options.maxTokens,
    temperature: options.temperature,
    topK: options.topK,
    topP: options.topP,
    minP: options.minP,
    seed: options.seed,
    // Unset or 1 = off: node-llama-cpp then gets no penalty factor and its sampler applies none.
    repeatPenalty:
      options.repeatPenalty !== undefined && options.repeatPenalty !== 1
        ? { penalty: options.repeatPenalty }
        : undefined,
    signal: options.signal,
    onTextChunk: meter.textChunks(options.onTextChunk),
  } satisfies LLamaChatGenerateResponseOptions;
}
