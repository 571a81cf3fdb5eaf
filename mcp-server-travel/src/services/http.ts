// JSON over HTTP for the upstream clients: User-Agent, per-attempt timeout, retries with exponential
// backoff on 429/5xx/network errors (honouring Retry-After), and zod validation of what comes back.
import type { z } from "zod";
import { UpstreamResponseError, UpstreamUnavailableError, errorMessage } from "../errors.js";

export interface HttpOptions {
  userAgent: string;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  maxBackoffMs: number;
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
  /**
   * Awaited before every attempt, retries included (e.g. a rate limiter's slot), so that a retry never
   * reaches the upstream sooner than its usage policy allows. The attempt's timeout starts after it.
   */
  beforeAttempt?: () => Promise<void>;
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

export class HttpJsonClient {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: HttpOptions) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  private backoff(attempt: number, retryAfter: number | undefined): number {
    const { backoffMs, maxBackoffMs } = this.options;
    if (retryAfter !== undefined) return Math.min(retryAfter, maxBackoffMs);
    const base = backoffMs * 2 ** attempt;
    return Math.min(maxBackoffMs, base * (0.75 + Math.random() * 0.5));
  }

  /** Fetches JSON and validates it with `schema`; throws UpstreamUnavailableError / UpstreamResponseError. */
  async json<S extends z.ZodType>(request: JsonRequest, schema: S): Promise<z.output<S>> {
    const { service, url } = request;
    const attempts = this.options.retries + 1;
    let lastProblem = "";
    let lastStatus: number | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      let retryAfter: number | undefined;
      if (request.beforeAttempt) await request.beforeAttempt();
      request.signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
      let response: Response;
      let text: string;
      try {
        response = await fetch(url, {
          method: request.method ?? "GET",
          body: request.body,
          signal,
          headers: {
            "User-Agent": this.options.userAgent,
            Accept: "application/json",
            ...(request.contentType ? { "Content-Type": request.contentType } : {}),
          },
        });
        text = await response.text();
      } catch (error) {
        if (request.signal?.aborted) throw error;
        lastStatus = undefined;
        lastProblem = timeout.aborted
          ? `keine Antwort innerhalb von ${this.options.timeoutMs} ms`
          : `Netzwerkfehler: ${errorMessage((error as { cause?: unknown }).cause ?? error)}`;
        if (attempt + 1 < attempts) await this.sleep(this.backoff(attempt, undefined));
        continue;
      }
      if (response.status === 429 || response.status >= 500) {
        lastStatus = response.status;
        lastProblem = `HTTP ${response.status}`;
        retryAfter = retryAfterMs(response.headers.get("retry-after"));
        if (attempt + 1 < attempts) await this.sleep(this.backoff(attempt, retryAfter));
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
          `${service} hat kein gültiges JSON geliefert (${errorMessage(error)}). Anfang der Antwort: ${JSON.stringify(text.slice(0, 80))}`,
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
      `${service} ist nicht erreichbar (${lastProblem}, ${attempts} Versuche). ` +
        `Prüfe die Internetverbindung oder starte den Reise-Server mit --offline.`,
      { url, status: lastStatus },
    );
  }
}
