// JSON over HTTP for the upstream clients: User-Agent, per-attempt timeout, retries with exponential
// backoff on 429/5xx/network errors (honouring Retry-After), and zod validation of what comes back.
// Built for a classroom on flaky Wi-Fi:
// - a deadline bounds each request as a whole (queue wait, attempts, backoff), so the offline fallback
//   answers in time (see lib/timeouts.ts);
// - identical concurrent requests are merged into one;
// - a circuit breaker per upstream remembers a failure for a while: calls then fail at once (and the
//   fallback answers) instead of waiting for the same failure again;
// - rate limits and concurrency limits are per attempt; retries wait at the front of the queue.
import type { z } from "zod";
import { UpstreamResponseError, UpstreamUnavailableError } from "../errors.js";
import { errorText } from "../../../lib/util.js";
import { TRAVEL_UPSTREAM_DEADLINE_MS } from "../../../lib/timeouts.js";
import { untilAborted } from "../../../lib/util.js";
import { CircuitBreaker } from "./circuit-breaker.js";
import { InFlight } from "./in-flight.js";
import type { ConcurrencyLimit, CallSpacer } from "./rate-limit.js";

export interface HttpOptions {
  userAgent: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
  /** Longest time one request may take in all (default TRAVEL_UPSTREAM_DEADLINE_MS). */
  deadlineMs?: number;
  /** How long a failed upstream is skipped (default 30 s; 0 = no circuit breaker). */
  breakerOpenMs?: number;
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

export interface JsonRequest {
  /** Name shown in messages ("Nominatim", "Open-Meteo", "Overpass"). */
  service: string;
  url: string;
  method?: "GET" | "POST";
  body?: string;
  contentType?: string;
  signal?: AbortSignal;
  /** Every attempt (retries too) waits for its slot, so no retry reaches the upstream sooner than allowed. */
  rateLimit?: CallSpacer;
  /** Every attempt holds a place here while it runs. */
  concurrency?: ConcurrencyLimit;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function summarizeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(Wurzel)"}: ${i.message}`)
    .join("; ");
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export class HttpJsonClient {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly inFlight = new InFlight<unknown>();
  private readonly breakers = new Map<string, CircuitBreaker>();
  /** Requests that reached the upstream (attempts), for diagnostics and tests. */
  attempts = 0;

  constructor(private readonly options: HttpOptions) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  private get deadlineMs(): number {
    return this.options.deadlineMs ?? TRAVEL_UPSTREAM_DEADLINE_MS;
  }

  private backoff(attempt: number, retryAfter: number | undefined): number {
    const { backoffMs, maxBackoffMs } = this.options;
    if (retryAfter !== undefined) return Math.min(retryAfter, maxBackoffMs);
    const base = backoffMs * 2 ** attempt;
    return Math.min(maxBackoffMs, base * (0.75 + Math.random() * 0.5));
  }

  /** The breaker of one upstream (service name and origin), or undefined when disabled. */
  breaker(service: string, url: string): CircuitBreaker | undefined {
    const openMs = this.options.breakerOpenMs ?? 30_000;
    if (openMs <= 0) return undefined;
    const key = `${service} ${new URL(url).origin}`;
    let breaker = this.breakers.get(key);
    if (!breaker) this.breakers.set(key, (breaker = new CircuitBreaker(openMs)));
    return breaker;
  }

  /** Fetches JSON and validates it with `schema`; throws UpstreamUnavailableError / UpstreamResponseError. */
  json<S extends z.ZodType>(request: JsonRequest, schema: S): Promise<z.output<S>> {
    const key = `${request.method ?? "GET"} ${request.url}\n${request.body ?? ""}`;
    return this.inFlight.run(key, request.signal, (shared) =>
      this.guarded({ ...request, signal: shared }, schema),
    ) as Promise<z.output<S>>;
  }

  private async guarded<S extends z.ZodType>(
    request: JsonRequest & { signal: AbortSignal },
    schema: S,
  ): Promise<z.output<S>> {
    const { service, url } = request;
    const breaker = this.breaker(service, url);
    const entry = breaker?.enter() ?? { allowed: true };
    if (!entry.allowed) {
      throw new UpstreamUnavailableError(
        `${service} hat eben nicht geantwortet; der Reise-Server fragt dort erst in ${seconds(entry.retryInMs)} wieder nach. ` +
          `Prüfe die Internetverbindung oder starte den Reise-Server mit --offline.`,
        { url },
      );
    }
    const deadline = AbortSignal.timeout(this.deadlineMs);
    const trip = breaker?.tripped; // this round's signal: it aborts when another call opens the breaker
    const signal = AbortSignal.any(trip ? [request.signal, deadline, trip] : [request.signal, deadline]);
    try {
      const value = await this.attemptAll(request, schema, signal, Date.now() + this.deadlineMs);
      breaker?.success();
      return value;
    } catch (error) {
      if (request.signal.aborted) {
        breaker?.release();
        throw error;
      }
      const tripped = trip?.aborted === true && !deadline.aborted;
      if (!tripped && !deadline.aborted && error instanceof UpstreamResponseError) {
        breaker?.success(); // it answered, only not usefully
        throw error;
      }
      const unavailable =
        error instanceof UpstreamUnavailableError
          ? error
          : new UpstreamUnavailableError(
              deadline.aborted
                ? `${service} hat nicht innerhalb von ${seconds(this.deadlineMs)} geantwortet. Prüfe die Internetverbindung oder starte den Reise-Server mit --offline.`
                : `${service} ist eben ausgefallen (eine andere Anfrage dorthin ist gerade gescheitert). Prüfe die Internetverbindung oder starte den Reise-Server mit --offline.`,
              { url },
              { cause: error },
            );
      if (tripped)
        breaker?.release(); // opened by another call: no new verdict
      else breaker?.failure();
      throw unavailable;
    }
  }

  private async attemptAll<S extends z.ZodType>(
    request: JsonRequest,
    schema: S,
    signal: AbortSignal,
    deadlineAt: number,
  ): Promise<z.output<S>> {
    const { service, url } = request;
    const attempts = this.options.retries + 1;
    let lastProblem = "";
    let lastStatus: number | undefined;
    let made = 0;
    for (let attempt = 0; attempt < attempts; attempt++) {
      let retryAfter: number | undefined;
      await request.rateLimit?.acquire({ signal, priority: attempt > 0 });
      const release = await request.concurrency?.acquire({ signal, priority: attempt > 0 });
      signal.throwIfAborted();
      const timeoutMs = Math.max(1, Math.min(this.options.timeoutMs, deadlineAt - Date.now()));
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let text: string;
      made++;
      this.attempts++;
      try {
        response = await fetch(url, {
          method: request.method ?? "GET",
          body: request.body,
          signal: AbortSignal.any([timeout, signal]),
          headers: {
            "User-Agent": this.options.userAgent,
            Accept: "application/json",
            ...(request.contentType ? { "Content-Type": request.contentType } : {}),
          },
        });
        text = await response.text();
      } catch (error) {
        if (signal.aborted) throw error;
        lastStatus = undefined;
        lastProblem = timeout.aborted
          ? `keine Antwort innerhalb von ${timeoutMs} ms`
          : `Netzwerkfehler: ${errorText((error as { cause?: unknown }).cause ?? error)}`;
        if (!(await this.pause(attempt, attempts, undefined, signal, deadlineAt))) break;
        continue;
      } finally {
        release?.();
      }
      if (response.status === 429 || response.status >= 500) {
        lastStatus = response.status;
        lastProblem = `HTTP ${response.status}`;
        retryAfter = retryAfterMs(response.headers.get("retry-after"));
        if (!(await this.pause(attempt, attempts, retryAfter, signal, deadlineAt))) break;
        continue;
      }
      if (!response.ok) {
        throw new UpstreamResponseError(
          `${service} hat die Anfrage mit HTTP ${response.status} abgelehnt: ${text.slice(0, 200)}`,
          { url, status: response.status },
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new UpstreamResponseError(
          `${service} hat kein gültiges JSON geliefert (${errorText(error)}). Anfang der Antwort: ${JSON.stringify(text.slice(0, 80))}`,
          { url, status: response.status },
          { cause: error },
        );
      }
      const result = schema.safeParse(parsed);
      if (!result.success) {
        throw new UpstreamResponseError(
          `${service} hat unerwartet geformte Daten geliefert (${summarizeIssues(result.error)}).`,
          { url, status: response.status },
          { cause: result.error },
        );
      }
      return result.data;
    }
    throw new UpstreamUnavailableError(
      `${service} ist nicht erreichbar (${lastProblem}, ${made} ${made === 1 ? "Versuch" : "Versuche"}). ` +
        `Prüfe die Internetverbindung oder starte den Reise-Server mit --offline.`,
      { url, status: lastStatus },
    );
  }

  /** Waits before the next attempt; false when there is none or it could not start before the deadline. */
  private async pause(
    attempt: number,
    attempts: number,
    retryAfter: number | undefined,
    signal: AbortSignal,
    deadlineAt: number,
  ): Promise<boolean> {
    if (attempt + 1 >= attempts) return false;
    const ms = this.backoff(attempt, retryAfter);
    if (Date.now() + ms >= deadlineAt) return false;
    await untilAborted(this.sleep(ms), signal);
    return true;
  }
}
