// Remembers an upstream that just failed: for `openMs` calls go straight to the fallback instead of
// waiting for the same failure again. Afterwards one call probes the upstream (half-open); its result
// closes the breaker or opens it for another round.

export type BreakerEntry = { allowed: true } | { allowed: false; retryInMs: number };

export class CircuitBreaker {
  private openUntil = 0;
  private probing = false;
  private trip = new AbortController();

  constructor(
    readonly openMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether a call may go to the upstream now; while half-open only one (the probe) may. */
  enter(): BreakerEntry {
    if (this.openUntil === 0) return { allowed: true };
    const left = this.openUntil - this.now();
    if (left > 0) return { allowed: false, retryInMs: left };
    if (this.probing) return { allowed: false, retryInMs: 0 };
    this.probing = true;
    return { allowed: true };
  }

  /** Aborts when the breaker opens: calls still waiting for the same upstream give up at once. */
  get tripped(): AbortSignal {
    return this.trip.signal;
  }

  get isOpen(): boolean {
    return this.openUntil !== 0;
  }

  /** The upstream answered (even with a 4xx: it is alive). */
  success(): void {
    this.openUntil = 0;
    this.probing = false;
  }

  /** The upstream failed (down, 5xx or no answer after all attempts). */
  failure(): void {
    this.openUntil = this.now() + this.openMs;
    this.probing = false;
    const trip = this.trip;
    this.trip = new AbortController();
    trip.abort(new Error("circuit open"));
  }

  /** A call ended without a verdict (cancelled by its caller). */
  release(): void {
    this.probing = false;
  }
}
