// Statistics of the agent evaluation: pass@1 and pass^k per task and averaged, and the Wilson score
// interval of a binomial rate. Pure.

/** Binomial coefficient C(n, k) as a float (exact for the small n used here). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** pass@1 of one task: the share of its runs that passed. */
export function passAt1(passes: number, runs: number): number {
  return runs === 0 ? 0 : passes / runs;
}

/**
 * pass^k of one task (τ-bench): the chance that k runs drawn from its n runs all pass, C(c, k) / C(n, k).
 * With n = k: 1 when every run passed, else 0.
 */
export function passHatK(passes: number, runs: number, k: number): number {
  if (runs < k || k < 1) return 0;
  return choose(passes, k) / choose(runs, k);
}

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval of `successes` out of `n` (z = 1.96: 95 %). */
export function wilsonInterval(successes: number, n: number, z = 1.96): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Fewer tasks than this are too few to decide on: the pages show the 95 % interval and how many it takes. */
export const DECISION_MIN_TASKS = 10;

/**
 * How many tasks it takes until two rates as observed (`a`, `b`) have 95 % intervals that no longer
 * overlap; for one rate (`b` undefined), until its interval is at most ±10 points wide. undefined when
 * not within `max` tasks (the rates are about equal).
 */
export function tasksToDecide(a: number, b?: number, max = 500): number | undefined {
  for (let n = 1; n <= max; n++) {
    const ia = wilsonInterval(a * n, n);
    if (
      b === undefined
        ? (ia.high - ia.low) / 2 <= 0.1
        : (() => {
            const ib = wilsonInterval(b * n, n);
            return ia.high < ib.low || ib.high < ia.low;
          })()
    )
      return n;
  }
  return undefined;
}

export const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
