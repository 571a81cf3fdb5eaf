// A server that is starting: its address is polled until it answers as wanted, or its process gave up.
import { delay } from "../../lib/util.js";

export interface WaitForAnswerOptions {
  timeoutMs: number;
  intervalMs?: number;
  headers?: Record<string, string>;
  /** "manual": a redirect is an answer of its own (a login page must answer 200, not send elsewhere). */
  redirect?: "follow" | "manual";
  /** Which status counts as up (default: any 2xx). */
  accepts?: (status: number) => boolean;
  /** Stop waiting early, e.g. when the server's process has exited. */
  gaveUp?: () => boolean;
}

/** Polls `url` until it answers; true when it did, false when `gaveUp()` turned true or the time ran out. */
export async function waitForAnswer(url: string, options: WaitForAnswerOptions): Promise<boolean> {
  const accepts = options.accepts ?? ((status) => status >= 200 && status < 300);
  const until = Date.now() + options.timeoutMs;
  while (Date.now() < until) {
    if (options.gaveUp?.()) return false;
    try {
      const init = { headers: options.headers, redirect: options.redirect, signal: AbortSignal.timeout(2000) };
      const response = await fetch(url, init);
      await response.body?.cancel();
      if (accepts(response.status)) return true;
    } catch {
      // not listening yet
    }
    await delay(options.intervalMs ?? 250);
  }
  return false;
}
