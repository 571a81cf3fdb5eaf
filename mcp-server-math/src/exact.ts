// Exact arithmetic (pure). Integers are BigInt: any size, always exact, no precision setting to get
// wrong. Every other value is a decimal.js Decimal in a configuration whose precision (10^9 significant
// digits) never rounds +, − or × of the bounded operands below, so those stay exact too. Only a division
// whose quotient does not terminate is rounded: to DIVISION_DIGITS significant digits, half to even.
// Every operation checks the size of its result (MAX_DIGITS) from its operands' sizes before it runs.
import { Decimal } from "decimal.js";
import { MathError } from "./errors.js";

/** Significant digits of a rounded quotient (as IEEE 754 decimal128). */
export const DIVISION_DIGITS = 34;
/** Longest accepted operand text. */
export const MAX_OPERAND_CHARS = 1000;
/** Largest |decimal exponent| of an operand: keeps every result to a few thousand digits. */
export const MAX_OPERAND_EXPONENT = 1000;
/** Most digits of any value, integer part and decimal places together (operands, intermediate results, results). */
export const MAX_DIGITS = 10_000;

const ExactDecimal = Decimal.clone({
  precision: 1e9,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
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

/** How many digits a value's text has: integer digits (0 for |v| < 1) and decimal places; what every bound uses. */
export interface Size {
  int: number;
  dp: number;
}

/** log10 |v| to about 12 significant digits, from the leading digits (no slow base-10 conversion of a long integer). */
export function log10Abs(v: Value): number {
  if (typeof v === "bigint") {
    const hex = (v < 0n ? -v : v).toString(16);
    return Math.log10(parseInt(hex.slice(0, 13), 16)) + Math.max(hex.length - 13, 0) * 4 * Math.LOG10E * Math.LN2;
  }
  const [mantissa, exponent] = v.abs().toExponential(14).split("e");
  return Math.log10(Number(mantissa)) + Number(exponent);
}

/** Integer digits of |v| (0 below 1), at most one too many. */
const integerDigits = (log10: number) => (log10 < 0 ? 0 : Math.floor(log10 + 1e-9) + 1);

/** The size of a value. */
export function sizeOf(v: Value): Size {
  if (typeof v === "bigint") return { int: v === 0n ? 0 : integerDigits(log10Abs(v)), dp: 0 };
  return { int: v.e >= 0 ? v.e + 1 : 0, dp: v.dp() };
}

/** All digits of a value's text: "0.05" has 3 (the integer part "0" counts once). */
export const digits = (size: Size) => Math.max(size.int, 1) + size.dp;

/** Refuses an operation whose result could have more than MAX_DIGITS digits, before it is computed. */
function checkSize(size: Size, what: string): void {
  if (digits(size) > MAX_DIGITS) {
    throw new MathError(
      "out_of_range",
      `${what} hätte bis zu ${digits(size)} Stellen; mehr als ${MAX_DIGITS} Stellen rechnet dieser Server nicht. Kleinere Zahlen oder weniger Dezimalstellen verwenden.`,
      digits(size),
    );
  }
}

/** An integer result within MAX_DIGITS (a sum's carry digit is only known afterwards). */
function bounded(v: bigint): bigint {
  if (digits(sizeOf(v)) > MAX_DIGITS) {
    throw new MathError(
      "out_of_range",
      `Das Ergebnis hat mehr als ${MAX_DIGITS} Stellen; so große oder so genaue Zahlen rechnet dieser Server nicht.`,
      MAX_DIGITS,
    );
  }
  return v;
}

/** Integers become BigInt, so integer results look and behave the same however they were reached. */
function normalize(d: Decimal): Value {
  if (!d.isFinite()) throw new MathError("out_of_range", "Das Ergebnis ist keine endliche Zahl.", d.toString());
  if (!d.isZero() && digits(sizeOf(d)) > MAX_DIGITS) {
    throw new MathError(
      "out_of_range",
      `Das Ergebnis hat mehr als ${MAX_DIGITS} Stellen; so große oder so genaue Zahlen rechnet dieser Server nicht.`,
      d.e,
    );
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
  if (text === "")
    throw new MathError("not_a_number", `${name} ist leer; gib eine Zahl an, z. B. 42 oder "3.5".`, input);
  if (text.length > MAX_OPERAND_CHARS) {
    throw new MathError(
      "out_of_range",
      `${name} ist zu lang (höchstens ${MAX_OPERAND_CHARS} Zeichen).`,
      `${text.slice(0, 40)}…`,
    );
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
  return { value: checkedOperand(name, new ExactDecimal(plain), input, /[1-9]/.test(plain.replace(/e.*$/i, ""))) };
}

/** `nonZero`: the text has a non-zero digit, so a zero here means the exponent was beyond decimal.js's range. */
function checkedOperand(name: string, d: Decimal, input: unknown, nonZero = !d.isZero()): Value {
  if (nonZero && (!d.isFinite() || d.isZero() || Math.abs(d.e) > MAX_OPERAND_EXPONENT)) {
    throw new MathError(
      "out_of_range",
      `${name} ist zu groß oder zu klein (Zehnerexponent höchstens ±${MAX_OPERAND_EXPONENT}).`,
      input,
    );
  }
  return normalize(d);
}

/** A result's size from its operands' sizes, checked before it is computed. */
/** Without the carry digit: checked on the result (an integer's by `bounded`, a decimal's by `normalize`). */
const sumSize = (a: Size, b: Size): Size => ({ int: Math.max(a.int, b.int), dp: Math.max(a.dp, b.dp) });
const productSize = (a: Size, b: Size): Size => ({ int: a.int + b.int, dp: a.dp + b.dp });

export function add(a: Value, b: Value): Outcome {
  checkSize(sumSize(sizeOf(a), sizeOf(b)), "Die Summe");
  if (typeof a === "bigint" && typeof b === "bigint") return { value: bounded(a + b), exact: true };
  return { value: normalize(toDecimal(a).plus(toDecimal(b))), exact: true };
}

export function subtract(a: Value, b: Value): Outcome {
  checkSize(sumSize(sizeOf(a), sizeOf(b)), "Die Differenz");
  if (typeof a === "bigint" && typeof b === "bigint") return { value: bounded(a - b), exact: true };
  return { value: normalize(toDecimal(a).minus(toDecimal(b))), exact: true };
}

export function multiply(a: Value, b: Value): Outcome {
  checkSize(productSize(sizeOf(a), sizeOf(b)), "Das Produkt");
  if (typeof a === "bigint" && typeof b === "bigint") return { value: a * b, exact: true };
  return { value: normalize(toDecimal(a).times(toDecimal(b))), exact: true };
}

export function divide(a: Value, b: Value): Outcome {
  if (isZero(b)) {
    throw new MathError(
      "division_by_zero",
      "Division durch 0 ist nicht definiert: der Divisor b ist 0. Wähle einen Divisor ungleich 0.",
      { a: render(a), b: 0 },
    );
  }
  if (typeof a === "bigint" && typeof b === "bigint" && a % b === 0n) return { value: a / b, exact: true };
  const [x, y] = [toDecimal(a), toDecimal(b)];
  const quotient = new RoundedDecimal(x).div(new RoundedDecimal(y));
  // Exact when the rounded quotient times the divisor gives the dividend back.
  const exact = new ExactDecimal(quotient).times(y).eq(x);
  return { value: normalize(new ExactDecimal(quotient)), exact };
}

/** Largest |n| of a power a^n (2^33000 still fits into MAX_DIGITS). */
const MAX_EXPONENT = 100_000n;

/** a^n for an integer n whose result has at most MAX_DIGITS digits (negative n: 1 / a^|n|). */
export function power(a: Value, n: Value): Outcome {
  if (typeof n !== "bigint")
    throw new MathError("invalid_expression", `Hochzahlen müssen ganze Zahlen sein, nicht ${render(n)}.`, render(n));
  const magnitude = n < 0n ? -n : n;
  if (magnitude > MAX_EXPONENT) {
    throw new MathError(
      "out_of_range",
      `Hochzahlen über ${MAX_EXPONENT} rechnet dieser Server nicht (hier ${n}).`,
      render(n),
    );
  }
  // |a^n| = 10^(n·log10|a|), with exactly n times a's decimal places.
  const times = Number(magnitude);
  if (!isZero(a)) checkSize({ int: integerDigits(times * log10Abs(a)), dp: sizeOf(a).dp * times }, `${render(a)}^${n}`);
  if (n < 0n && isZero(a))
    throw new MathError(
      "division_by_zero",
      "0 hoch eine negative Zahl ist nicht definiert (Division durch 0).",
      render(n),
    );
  const up =
    typeof a === "bigint"
      ? { value: a ** magnitude, exact: true }
      : { value: normalize(a.pow(Number(magnitude))), exact: true };
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
  if (typeof v === "bigint")
    return v >= BigInt(-Number.MAX_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : text;
  const n = Number(text);
  return Number.isFinite(n) && new ExactDecimal(n).eq(v) ? n : text;
}
