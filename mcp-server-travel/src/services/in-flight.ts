// Merges identical concurrent requests: the first caller starts the work, later ones with the same key
// share its result. The shared work is aborted only when every caller has left (aborted its signal).
import { untilAborted } from "../../../lib/util.js";

interface Shared<T> {
  promise: Promise<T>;
  controller: AbortController;
  users: number;
}

export class InFlight<T> {
  private readonly calls = new Map<string, Shared<T>>();

  /** Number of distinct requests running now. */
  get size(): number {
    return this.calls.size;
  }

  run(key: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let shared = this.calls.get(key);
    if (!shared) {
      const controller = new AbortController();
      const entry: Shared<T> = {
        promise: Promise.resolve().then(() => start(controller.signal)),
        controller,
        users: 0,
      };
      entry.promise.then(
        () => this.forget(key, entry),
        () => this.forget(key, entry),
      );
      this.calls.set(key, entry);
      shared = entry;
    }
    const call = shared;
    call.users++;
    if (!signal) return call.promise;
    // The shared work is aborted once every caller has left.
    return untilAborted(call.promise, signal, () => {
      call.users--;
      if (call.users === 0) {
        this.forget(key, call);
        call.controller.abort(signal.reason);
      }
    });
  }

  private forget(key: string, entry: Shared<T>): void {
    if (this.calls.get(key) === entry) this.calls.delete(key);
  }
}
