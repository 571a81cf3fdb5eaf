// The board's request limits, shared with the Klassenraum-Hub's login (scripts/apps/hub/login-check.ts): token
// buckets, the address a limit counts, and the join-code gate — a right code always passes; wrong codes
// are limited per address and for everyone together (join-code.ts says why the code's length, not these
// limits, keeps guessers out).
import { createHash, timingSafeEqual } from "node:crypto";

/** Wrong join codes from one address: this many, then one per WRONG_CODE_REFILL_MS. */
export const WRONG_CODE_BURST = 10;
export const WRONG_CODE_REFILL_MS = 6000;
/** Wrong join codes from all addresses together: this many, then one per GLOBAL_WRONG_CODE_REFILL_MS. */
export const GLOBAL_WRONG_CODE_BURST = 60;
export const GLOBAL_WRONG_CODE_REFILL_MS = 1000;

/** Token buckets by key; full buckets are forgotten when the map grows large. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly refillMs: number,
  ) {}

  private refreshed(key: string, now: number): { tokens: number; at: number } {
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    b.tokens = Math.min(this.burst, b.tokens + (now - b.at) / this.refillMs);
    b.at = now;
    this.buckets.set(key, b);
    if (this.buckets.size > 5000) for (const [k, v] of this.buckets) if (v.tokens >= this.burst) this.buckets.delete(k);
    return b;
  }

  /** True when `key` has a token now (none is used up). */
  available(key: string, now: number): boolean {
    return this.refreshed(key, now).tokens >= 1;
  }

  /** True when `key` may go ahead now (and uses up one token). */
  take(key: string, now: number): boolean {
    const b = this.refreshed(key, now);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

/** Constant-time comparison of a given code with the join code (equal-length digests). */
export function codeMatches(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The address a limit counts: IPv4 as it is, IPv6 by its /64 (one machine can use a whole /64). */
export function addressKey(remoteAddress: string | undefined): string {
  const address = (remoteAddress ?? "?").replace(/^::ffff:(?=\d+\.)/, "").replace(/%.*$/, "");
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.split("::");
  const first = head ? head.split(":") : [];
  const last = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? first
      : [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill("0"), ...last];
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** What the gate says about one given code. */
export type CodeVerdict = "right" | "wrong" | "too-many-wrong";

/**
 * The join-code rule of the board and the hub: a right code is never refused (not even from an address
 * that sent many wrong ones: a whole room can share one address); a wrong one uses up a token of its
 * address and of everyone, and beyond either limit it is "too-many-wrong" instead of "wrong".
 */
export class JoinCodeGate {
  private readonly perAddress = new TokenBuckets(WRONG_CODE_BURST, WRONG_CODE_REFILL_MS);
  private readonly everyone = new TokenBuckets(GLOBAL_WRONG_CODE_BURST, GLOBAL_WRONG_CODE_REFILL_MS);
  private warnedAt = -Infinity;

  /** `log` gets one WARNUNG a minute at most while everyone's limit is used up (someone guessing?). */
  constructor(private readonly log: (line: string) => void) {}

  check(given: unknown, expected: string, remoteAddress: string | undefined, now: number): CodeVerdict {
    if (typeof given === "string" && codeMatches(given.trim(), expected)) return "right";
    const ownOk = this.perAddress.take(addressKey(remoteAddress), now);
    const allOk = this.everyone.take("*", now);
    if (!allOk && now - this.warnedAt > 60_000) {
      this.warnedAt = now;
      this.log(
        `WARNUNG: Sehr viele falsche Beitrittscodes (über ${GLOBAL_WRONG_CODE_BURST} in kurzer Zeit) – rät jemand? Richtige Codes kommen weiter durch.`,
      );
    }
    return ownOk && allOk ? "wrong" : "too-many-wrong";
  }

  /** A wrong try of another kind (the hub's PINs) counts in the same limits as a wrong code. */
  countWrong(remoteAddress: string | undefined, now: number): void {
    this.perAddress.take(addressKey(remoteAddress), now);
    this.everyone.take("*", now);
  }
}
