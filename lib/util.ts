// Small helpers used across the parts; one copy each. Imports nothing, so the pure plan core may use it.

/** A plain `{…}` object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own property check that also works on objects without a prototype. */
export function hasOwn(target: object, key: PropertyKey): boolean {
  return Object.prototype.hasOwnProperty.call(target, key);
}

/** The value of `target`'s own property `key` (undefined when it is missing or only inherited). */
export function ownValue(target: Readonly<Record<string, unknown>>, key: string): unknown {
  return hasOwn(target, key) ? target[key] : undefined;
}

/**
 * The text of a thrown value: an Error's message, anything else as String(value). With `withName`,
 * an Error reads "TypeError: …" (for logs and model feedback where the class helps).
 */
export function errorText(error: unknown, options: { withName?: boolean } = {}): string {
  if (!(error instanceof Error)) return String(error);
  return options.withName ? `${error.name}: ${error.message}` : error.message;
}

/** A count with its German noun in the right number: "1 Stimme", "2 Stimmen", "1.234 Sätze". */
export function countText(n: number, singular: string, plural: string): string {
  return `${germanNumber(n, { upTo: 6 })} ${n === 1 ? singular : plural}`;
}

/**
 * A `.catch` handler for a failure that does not matter, named with the reason:
 * `await client.close().catch(ignore("closing a client that is already gone"))`. The promise then
 * resolves with undefined. With KIT_DEBUG=1 each ignored error is printed to stderr with its reason.
 */
export function ignore(reason: string): (error: unknown) => undefined {
  return (error) => {
    if (typeof process !== "undefined" && process.env?.KIT_DEBUG === "1")
      console.error(`ignored (${reason}): ${errorText(error)}`);
    return undefined;
  };
}

/** JSON.stringify that never throws (cycles, BigInt) and always returns a string. */
export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when `signal` aborts first. */
/**
 * `text` shortened to at most `max` characters, ending in "…": cut after a whole word where one ends in
 * the last 40 % (a reader never sees "fehlg…"); a single long token is cut where it must.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, Math.max(0, max - 1));
  const wordEnd = /\s/u.test(text[head.length] ?? "") ? head.length : head.search(/\s\S*$/u);
  return `${(wordEnd >= max * 0.6 ? head.slice(0, wordEnd) : head).trimEnd()}…`;
}

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("abgebrochen"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("abgebrochen"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as `signal` aborts, so work that
 * ignores the signal (a stuck server, a model still generating) cannot hold the caller. `onAbort` runs
 * when the abort ends the wait (e.g. to release a shared call).
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  onAbort?: () => void,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(ignore("the caller gave up on this promise; its later failure has no one to tell"));
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort?.();
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/** Seeded PRNG (mulberry32): same seed → same sequence of values in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whether a process with this id exists (one that belongs to another user counts too). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * A number with German separators, for what participants read. `digits`: exactly that many decimals,
 * where English code would write `x.toFixed(digits)`: 0.735 → "0,735" (with 3), 1.6 → "1,6" (with 1),
 * 2558 → "2.558" (default 0). `{ upTo: n }`: as many decimals as the value has, at most n, for values
 * shown as they are (a self-check's expected value): 0.25 → "0,25", 1234.5 → "1.234,5".
 */
export function germanNumber(value: number, digits: number | { upTo: number } = 0): string {
  const [min, max] = typeof digits === "number" ? [digits, digits] : [0, digits.upTo];
  return value.toLocaleString("de-DE", { minimumFractionDigits: min, maximumFractionDigits: max });
}
