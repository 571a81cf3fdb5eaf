// Spaces out calls so that two of them never start closer than `intervalMs` (Nominatim: 1 per second).

export class RateLimiter {
  private next = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Resolves when the caller's slot has come (slots are handed out in call order); then go at once. */
  acquire(): Promise<void> {
    const slot = this.tail.then(async () => {
      const wait = this.next - this.now();
      if (wait > 0) await this.sleep(wait);
      this.next = this.now() + this.intervalMs;
    });
    this.tail = slot.catch(() => undefined);
    return slot;
  }

  /** Runs `task` once its slot has come. */
  schedule<T>(task: () => Promise<T>): Promise<T> {
    return this.acquire().then(task);
  }
}
