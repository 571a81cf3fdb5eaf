// Gates in front of an upstream: CallSpacer spaces requests out (Nominatim: one per second),
// ConcurrencyLimit caps how many run at once (Overpass: two). A waiter whose signal aborts leaves the
// queue at once, so a cancelled call never holds a slot that a live one could use.

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  priority: boolean;
  cleanup: () => void;
}

/** `left`: called after a cancelled waiter has left the queue. */
function enqueue(
  queue: Waiter[],
  signal: AbortSignal | undefined,
  priority: boolean,
  wake: () => void,
  left: () => void = () => undefined,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const i = queue.indexOf(waiter);
      if (i >= 0) queue.splice(i, 1);
      reject(signal!.reason);
      left();
    };
    const waiter: Waiter = {
      priority,
      cleanup: () => signal?.removeEventListener("abort", onAbort),
      resolve: () => {
        waiter.cleanup();
        resolve();
      },
      reject,
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    // Priority waiters (retries) go behind earlier priority waiters but before every first attempt.
    const at = priority ? queue.findIndex((w) => !w.priority) : -1;
    if (at >= 0) queue.splice(at, 0, waiter);
    else queue.push(waiter);
    wake();
  });
}

export interface AcquireOptions {
  signal?: AbortSignal;
  /** A retry of a request that already waited its turn: served before first attempts. */
  priority?: boolean;
}

/** Waits `ms`, or less when `signal` aborts (no timer is left behind). */
function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** Spaces out calls so that two of them never start closer than `intervalMs`. */
export class CallSpacer {
  private next = 0;
  private readonly queue: Waiter[] = [];
  private pumping = false;
  /** Ends the pump's current wait: the last waiter has left, nobody waits for the slot any more. */
  private wait?: AbortController;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void> = sleepUnlessAborted,
  ) {}

  /** Resolves when the caller's slot has come (in call order, retries first); then go at once. */
  acquire(options: AcquireOptions = {}): Promise<void> {
    // The pump starts a microtask later, so the caller's then() is attached before its slot resolves.
    return enqueue(
      this.queue,
      options.signal,
      options.priority ?? false,
      () => queueMicrotask(() => void this.pump()),
      () => this.queue.length === 0 && this.wait?.abort(),
    );
  }

  /** Runs `task` once its slot has come. */
  schedule<T>(task: () => Promise<T>): Promise<T> {
    return this.acquire().then(task);
  }

  /** Waiters still queued (for tests and diagnostics). */
  get waiting(): number {
    return this.queue.length;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const wait = this.next - this.now();
        if (wait > 0) {
          // The queue may change meanwhile (cancelled waiters leave, retries jump ahead); when it empties, the
          // wait ends (a pending timer of up to a minute would keep a finished program running).
          this.wait = new AbortController();
          await this.sleep(wait, this.wait.signal);
          continue;
        }
        const waiter = this.queue.shift()!;
        this.next = this.now() + this.intervalMs;
        waiter.resolve();
        await null; // let the waiter start before the clock moves on
      }
    } finally {
      this.pumping = false;
    }
  }
}

/** At most `max` holders at once; acquire() resolves with the function that gives the place back. */
export class ConcurrencyLimit {
  private active = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly max: number) {}

  async acquire(options: AcquireOptions = {}): Promise<() => void> {
    if (this.active < this.max && this.queue.length === 0 && !options.signal?.aborted) {
      this.active++;
    } else {
      await enqueue(this.queue, options.signal, options.priority ?? false, () => undefined);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next)
        next.resolve(); // the place passes on directly
      else this.active--;
    };
  }

  get running(): number {
    return this.active;
  }
}
