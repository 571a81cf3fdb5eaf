// Token counts for any backend: exact with the in-process model's tokenizer, estimated for an HTTP
// server (OpenAI-compatible servers do not share a standard tokenize endpoint).
import type { Llm } from "./types.js";

/** Characters per token for the estimate: a rough average for German text with Llama-style tokenizers. */
export const CHARS_PER_TOKEN_ESTIMATE = 4;

export interface TokenCounter {
  /** Tokens of `text` (plain text, no chat template). */
  count(text: string): number;
  /** True when `count` uses the model's own tokenizer, false for the estimate. */
  exact: boolean;
  /** "123 Tokens", or "≈ 123 Tokens (geschätzt)" for the estimate. */
  describe(text: string): string;
  /** Where the numbers come from, in German (for set-up output). */
  source: string;
}

/** A token counter for `llm`: its own `countTokens` when it has one (in-process backend), else an estimate. */
export function tokenCounter(llm: Llm): TokenCounter {
  const own = (llm as Partial<{ countTokens: (text: string) => number }>).countTokens;
  const exact = typeof own === "function";
  const count = exact
    ? (text: string) => own.call(llm, text)
    : (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN_ESTIMATE);
  return {
    count,
    exact,
    describe: (text) => (exact ? `${count(text)} Tokens` : `≈ ${count(text)} Tokens (geschätzt)`),
    source: exact
      ? "der Tokenizer des geladenen Modells"
      : `Schätzung (Zeichen / ${CHARS_PER_TOKEN_ESTIMATE}) – der Server verrät seinen Tokenizer nicht`,
  };
}
