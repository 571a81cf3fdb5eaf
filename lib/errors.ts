// The one root of the kit's own errors. Every error class the kit exports extends KitError (directly or
// through its folder's base: LlmError, RagError, ToolServerError, TravelError, …), so a caller tells "an
// expected problem with a German message that says what to do" from a bug by one instanceof, and retry logic
// reads one flag, `retryable` (checked by test/architecture/errors.test.ts).
// Imports nothing, so the pure plan core may use it (test/architecture/layers.test.ts).

export interface KitErrorOptions {
  /** The error this one explains (kept for logs and debugging). Default: none. */
  cause?: unknown;
  /** True when the same call may succeed if tried again (a busy server, a dropped connection). Default: false. */
  retryable?: boolean;
}

/**
 * An expected problem: its message is German and says what to do. `retryable` says whether trying the same
 * thing again may help (default false); `cause` keeps the original error.
 */
export class KitError extends Error {
  override name = "KitError";
  readonly retryable: boolean;

  constructor(message: string, options: KitErrorOptions = {}) {
    super(message);
    this.retryable = options.retryable ?? false;
    // Set by hand: tslab compiles lib against an older lib where Error takes no options argument.
    if ("cause" in options)
      Object.defineProperty(this, "cause", { value: options.cause, configurable: true, writable: true });
  }
}
