// Exact arithmetic (pure). Integers are BigInt: any size, always exact, no precision setting to get
// wrong. Every other value is a decimal.js Decimal in a configuration whose precision (10^9 significant
// digits) never rounds +, − or × of the bounded operands below, so those stay exact too. Only a division
// whose quotient does not terminate is rounded: to DIVISION_DIGITS significant digits, half to even.
import { Decimal } from "decimal.js";
import { MathError } from "./errors.js";

/** Significant digits of a rounded quotient (as IEEE 754 decimal128). */
export const DIVISION_DIGITS = 34;
/** Longest accepted operand text. */
export const MAX_OPERAND_CHARS = 1000;
/** Largest |decimal exponent| of an operand: keeps every result to a few thousand digits. */
export const MAX_OPERAND_EXPONENT = 1000;
/** Largest |decimal exponent| of any result (reached only by powers in `rechne`). */
export const MAX_RESULT_EXPONENT = 10_000;

const ExactDecimal = Decimal.clone({ precision: 1e9, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -9e15, toExpPos: 9e15 });
const RoundedDecimal = ExactDecimal.clone({ precision: DIVISION_DIGITS });

/** An exact value: a BigInt when it is an integer, otherwise a Decimal. */
export type Value = bigint | Decimal;

export interface Outcome {
  value: Value;
  /** False only when a division had to be rounded. */
  exact: boolean;
}

const NUMBER_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

function toDecimal(v: Value): Decimal {
  return typeof v === "bigint" ? new ExactDecimal(v.toString()) : v;
}

/** Integers become BigInt, so integer results look and behave the same however they were reached. */
function normalize(d: Decimal): Value {
  if (!d.isFinite()) throw new MathError("out_of_range", "Das Ergebnis ist keine endliche Zahl.", d.toString());
  if (!d.isZero() && Math.abs(d.e) > MAX_RESULT_EXPONENT) {
    throw new MathError("out_of_range", `Das Ergebnis hat mehr als ${MAX_RESULT_EXPONENT} Stellen; so große oder kleine Zahlen rechnet dieser Server nicht.`, d.e);
  }
  return d.isInteger() ? BigInt(d.toFixed(0)) : d;
}

export function isZero(v: Value): boolean {
  return typeof v === "bigint" ? v === 0n : v.isZero();
}

/**
 * Reads an operand: a JSON number or a numeric text ("12345678901234567890", "-3.5", "2,75", "1.5e3").
 * `note` is set when a JSON number was already beyond 2^53 and may have lost digits on its way here.
 */
export function parseOperand(name: string, input: number | string): { value: Value; note?: string } {
  if (typeof input === "number") {
    if (!Number.isFinite(input)) throw new MathError("not_a_number", `${name} ist keine endliche Zahl.`, input);
    if (Number.isInteger(input)) {
      const note = Number.isSafeInteger(input)
        ? undefined
        : `${name} kam als JSON-Zahl über 2^53 an und war dabei vielleicht schon gerundet; so große ganze Zahlen besser als Text übergeben, z. B. "${BigInt(input)}".`;
      return { value: BigInt(input), ...(note ? { note } : {}) };
    }
    return { value: checkedOperand(name, new ExactDecimal(input), input) };
  }
  const text = input.trim().replace(/\u2212/g, "-");
  if (text === "") throw new MathError("not_a_number", `${name} ist leer; gib eine Zahl an, z. B. 42 oder "3.5".`, input);
  if (text.length > MAX_OPERAND_CHARS) {
    throw new MathError("out_of_range", `${name} ist zu lang (höchstens ${MAX_OPERAND_CHARS} Zeichen).`, `${text.slice(0, 40)}…`);
  }
  // German decimal comma ("2,75"), but only when there is no dot as well (no thousands separators).
  const plain = !text.includes(".") && (text.match(/,/g) ?? []).length === 1 ? text.replace(",", ".") : text;
  if (!NUMBER_TEXT.test(plain)) {
    throw new MathError(
      "not_a_number",
      `${name} ist keine Zahl: "${text}". Erlaubt sind Zahlen wie 42, -3.5, "2,75" oder "1.5e3"; ` +
        `große ganze Zahlen als Text, z. B. "12345678901234567890". Für Ausdrücke wie "2*(3+4)" gibt es das Werkzeug rechne.`,
      input,
    );
  }
  return { value: checkedOperand(name, new ExactDecimal(plain), input) };
}

function checkedOperand(name: string, d: Decimal, input: unknown): Value {
  if (!d.isZero() && Math.abs(d.e) > MAX_OPERAND_EXPONENT) {
    throw new MathError("out_of_range", `${name} ist zu groß oder zu klein (Zehnerexponent höchstens ±${MAX_OPERAND_EXPONENT}).`, input);
  }
  return normalize(d);
}

export function add(a: Value, b: Value): Outcome {
  if (typeof a === "bigint" && typeof b === "bigint") return { value: a + b, exact: true };
  return { value: normalize(toDecimal(a).plus(toDecimal(b))), exact: true };
}

export function subtract(a: Value, b: Value): Outcome {
  if (typeof a === "bigint" && typeof b === "bigint") return { value: a - b, exact: true };
  return { value: normalize(toDecimal(a).minus(toDecimal(b))), exact: true };
}

export function multiply(a: Value, b: Value): Outcome {
  if (typeof a === "bigint" && typeof b === "bigint") return { value: a * b, exact: true };
  return { value: normalize(toDecimal(a).times(toDecimal(b))), exact: true };
}

export function divide(a: Value, b: Value): Outcome {
  if (isZero(b)) {
    throw new MathError("division_by_zero", "Division durch 0 ist nicht definiert: der Divisor b ist 0. Wähle einen Divisor ungleich 0.", { a: render(a), b: 0 });
  }
  if (typeof a === "bigint" && typeof b === "bigint" && a % b === 0n) return { value: a / b, exact: true };
  const [x, y] = [toDecimal(a), toDecimal(b)];
  const quotient = new RoundedDecimal(x).div(new RoundedDecimal(y));
  // Exact when the rounded quotient times the divisor gives the dividend back.
  const exact = new ExactDecimal(quotient).times(y).eq(x);
  return { value: normalize(new ExactDecimal(quotient)), exact };
}

/** a^n for an integer n with |n| ≤ 10 000 (negative n: 1 / a^|n|). */
export function power(a: Value, n: Value): Outcome {
  if (typeof n !== "bigint") throw new MathError("invalid_expression", `Hochzahlen müssen ganze Zahlen sein, nicht ${render(n)}.`, render(n));
  const magnitude = n < 0n ? -n : n;
  const base = toDecimal(a);
  const digits = base.sd() + Math.abs(base.e) + 1;
  if (magnitude > 10_000n || digits * Number(magnitude) > MAX_RESULT_EXPONENT) {
    throw new MathError("out_of_range", `${render(a)}^${n} hätte mehr als ${MAX_RESULT_EXPONENT} Stellen; so große Potenzen rechnet dieser Server nicht.`, render(n));
  }
  if (n < 0n && isZero(a)) throw new MathError("division_by_zero", "0 hoch eine negative Zahl ist nicht definiert (Division durch 0).", render(n));
  const up = typeof a === "bigint" ? { value: a ** magnitude, exact: true } : { value: normalize(a.pow(Number(magnitude))), exact: true };
  return n < 0n ? divide(1n, up.value) : up;
}

/** The full decimal text of a value, never in exponent notation ("-0" as "0"). */
export function render(v: Value): string {
  return typeof v === "bigint" ? v.toString() : v.toFixed();
}

/**
 * The value for JSON: a number when a JSON number carries it exactly (safe integers up to 2^53 − 1;
 * decimals whose shortest double text is the same decimal), otherwise the text with all digits.
 */
export function jsonValue(v: Value): number | string {
  const text = render(v);
  if (typeof v === "bigint") return v >= BigInt(-Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : text;
  const n = Number(text);
  return Number.isFinite(n) && new ExactDecimal(n).eq(v) ? n : text;
}
