// Small JSON helpers: key-order independent comparison and bounded rendering for prompts and tables.

/** JSON with object keys sorted, so equal values give equal strings. Never throws. */
export function stableStringify(value: unknown): string {
  const seen = new WeakSet<object>();
  const normalize = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null) return typeof v === "bigint" ? v.toString() : v;
    if (seen.has(v)) return "[zirkulär]";
    seen.add(v);
    const out = Array.isArray(v)
      ? v.map(normalize)
      : Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, normalize((v as Record<string, unknown>)[k])]),
        );
    seen.delete(v);
    return out;
  };
  try {
    return JSON.stringify(normalize(value)) ?? "null";
  } catch {
    return String(value);
  }
}

export function sameJson(a: unknown, b: unknown): boolean {
  return stableStringify(a) === stableStringify(b);
}

/** Compact JSON, cut to `max` characters with a marker. Never throws. */
export function compactJson(value: unknown, max = Infinity): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 12))}… (gekürzt)`;
}

/**
 * Nesting depth of a JSON-like value (a scalar is 0, `{}` and `[]` are 1), counted without recursion
 * and only up to `limit + 1`: enough to tell "too deep" without walking a hostile value to its end.
 */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const here = depth + 1;
    if (here > max) max = here;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, here]);
    }
  }
  return max;
}
