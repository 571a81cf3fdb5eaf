// Typed errors of the travel server. Messages are German: they reach the model and the participant.
import { KitError } from "../../lib/errors.js";

/** Base class: every error the tools report carries a machine-readable code and the offending input. */
export class TravelError extends KitError {
  override name = "TravelError";
  readonly code: string;
  readonly input: unknown;
  constructor(code: string, message: string, input?: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.input = input;
  }
}

/** Arguments that pass the schema but make no sense (end before start, radius too large …). */
export class InvalidArgumentError extends TravelError {
  override name = "InvalidArgumentError";
  constructor(message: string, input?: unknown) {
    super("invalid_argument", message, input);
  }
}

/** The place or data does not exist (unknown city, no offline climate data nearby). */
export class NotFoundError extends TravelError {
  override name = "NotFoundError";
  constructor(message: string, input?: unknown) {
    super("not_found", message, input);
  }
}

/** The upstream service could not be reached or kept failing (network, timeout, 429/5xx after retries). */
export class UpstreamUnavailableError extends TravelError {
  override name = "UpstreamUnavailableError";
  readonly status: number | undefined;
  constructor(message: string, input: { url: string; status?: number }, options?: { cause?: unknown }) {
    super("upstream_unavailable", message, input, options);
    this.status = input.status;
  }
}

/** The upstream answered, but with something we cannot use (4xx, malformed or unexpected JSON). */
export class UpstreamResponseError extends TravelError {
  override name = "UpstreamResponseError";
  readonly status: number | undefined;
  constructor(message: string, input: { url: string; status?: number }, options?: { cause?: unknown }) {
    super("upstream_response", message, input, options);
    this.status = input.status;
  }
}

/** Bundled offline data is missing or malformed (a setup problem, not a user error). */
export class OfflineDataError extends TravelError {
  override name = "OfflineDataError";
  constructor(message: string, input?: unknown, options?: { cause?: unknown }) {
    super("offline_data", message, input, options);
  }
}
