// Metering helpers shared by the backends.
import { SCRIPTED_MARK } from "../config.js";
import type { GenerationMeter } from "./types.js";
import { ignore } from "../util.js";

/** Measures one call: time to first token, total time, tokens/s. */
export class CallClock {
  private readonly started = performance.now();
  private firstTokenAt: number | undefined;

  /** Call when the first piece of generated text arrives. */
  markFirstToken(): void {
    this.firstTokenAt ??= performance.now();
  }

  finish(counts: {
    promptTokensEvaluated: number;
    promptTokensReused: number;
    generatedTokens: number;
  }): GenerationMeter {
    const end = performance.now();
    const totalMs = end - this.started;
    const ttft = (this.firstTokenAt ?? end) - this.started;
    const genMs = end - (this.firstTokenAt ?? end);
    return {
      ...counts,
      timeToFirstTokenMs: Math.round(ttft),
      totalMs: Math.round(totalMs),
      tokensPerSecond:
        counts.generatedTokens > 1 && genMs > 0 ? Math.round(((counts.generatedTokens - 1) / genMs) * 10000) / 10 : 0,
    };
  }
}

/** Keeps a number and its unit on one line when a notebook wraps the text (lib/notebook/wrap.ts). */
const NBSP = "\u00a0";

/** A number as German text with at most one decimal ("8.539,3"): the meter line is read by participants. */
const decimal = (n: number) => n.toLocaleString("de-DE", { maximumFractionDigits: 1 });

/**
 * One readable line, e.g. for notebooks: "Prompt: 12 neu berechnet / 340 aus dem KV-Cache · Antwort: 25 Tokens ·
 * 31 Tokens/s · erste Antwort nach 120 ms". A scripted meter (rehearsal, tests) shows its estimated counts
 * with "≈" and says that no speed was measured: a script's tokens/s would be impossible numbers.
 */
export function formatMeter(m: GenerationMeter): string {
  const about = m.scripted ? "≈" : "";
  const counts =
    `Prompt: ${about}${m.promptTokensEvaluated} neu berechnet / ${about}${m.promptTokensReused} aus dem KV-Cache · ` +
    `Antwort: ${about}${m.generatedTokens}${NBSP}Tokens · `;
  if (m.scripted) return `${counts}${SCRIPTED_MARK}${NBSP}Tempo nicht gemessen`;
  return `${counts}${decimal(m.tokensPerSecond)}${NBSP}Tokens/s · erste Antwort nach ${decimal(Math.round(m.timeToFirstTokenMs))}${NBSP}ms`;
}

/** Serializes async calls (one context sequence can run one generation at a time). */
export class CallQueue {
  private tail: Promise<unknown> = Promise.resolve();

  private closedError?: () => Error;

  /** Every later call, and every call still waiting, rejects with `error()` instead of running. */
  close(error: () => Error): void {
    this.closedError = error;
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    const guarded = () => (this.closedError ? Promise.reject(this.closedError()) : fn());
    const next = this.tail.then(guarded, guarded);
    this.tail = next.catch(ignore("the caller gets this call's failure; the queue goes on"));
    return next;
  }
}
