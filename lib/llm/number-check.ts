// Teil 1's hook "Kann ein Sprachmodell rechnen?": reads the numbers out of a model's answer (German
// and English digit grouping) and compares them with an exact result, with decimal.js (no float error).
import { Decimal } from "decimal.js";

// Space-grouped ("1 264 402 496") first, then digits with dots and commas ("1.264.402,5").
const NUMBER = /-?\d{1,3}(?:['\u00a0\u202f ]\d{3}(?!\d))+(?:[.,]\d+)?|-?\d+(?:[.,]\d+)*/gu;

/** The readings of one written number: "1.264" may be 1264 (German grouping) or 1.264. */
function readings(token: string): string[] {
  const t = token.replace(/['\u00a0\u202f ]/gu, "");
  const dots = (t.match(/\./gu) ?? []).length;
  const commas = (t.match(/,/gu) ?? []).length;
  const grouped = (sep: string) => new RegExp(`^-?\\d{1,3}([${sep}]\\d{3})+$`, "u");
  const out = new Set<string>();
  if (dots === 0 && commas === 0) out.add(t);
  else if (dots > 0 && commas > 0) {
    const decimal = t.lastIndexOf(",") > t.lastIndexOf(".") ? "," : ".";
    const group = decimal === "," ? "." : ",";
    out.add(t.split(group).join("").replace(decimal, "."));
  } else {
    const sep = dots > 0 ? "." : ",";
    if (grouped(sep).test(t)) out.add(t.split(sep).join(""));
    if (dots + commas === 1) out.add(t.replace(",", "."));
  }
  return [...out].filter((s) => /^-?\d+(\.\d+)?$/u.test(s)).map((s) => new Decimal(s).toFixed());
}

/** Every number in `text`, normalized ("1.264.402.496" → "1264402496", "43,35" → "43.35"). */
export function numbersInText(text: string): string[] {
  return [...new Set((text.match(NUMBER) ?? []).flatMap(readings))];
}

export interface ArithmeticVerdict {
  /** The exact result, normalized. */
  exact: string;
  /** Numbers found in the answer. */
  numbers: string[];
  correct: boolean;
  /** The found number closest to the exact one, and how far off it is (absent when none was found). */
  closest?: string;
  difference?: string;
}

/** Is the exact result among the numbers of `answer`? */
export function checkArithmetic(answer: string, exact: string | number | bigint): ArithmeticVerdict {
  const want = new Decimal(exact.toString());
  const numbers = numbersInText(answer);
  const verdict: ArithmeticVerdict = { exact: want.toFixed(), numbers, correct: numbers.some((n) => want.eq(n)) };
  let best: Decimal | undefined;
  for (const n of numbers) {
    const d = new Decimal(n);
    if (!best || d.minus(want).abs().lt(best.minus(want).abs())) best = d;
  }
  if (best) {
    verdict.closest = best.toFixed();
    verdict.difference = best.minus(want).toFixed();
  }
  return verdict;
}

/** One German line for the notebook: "✅ 1264402496 stimmt" / "❌ … daneben um …". */
export function describeArithmetic(v: ArithmeticVerdict): string {
  const de = germanDecimal;
  if (v.correct) return `✅ Das exakte Ergebnis ${de(v.exact)} steht in der Antwort.`;
  if (v.closest === undefined) return `❌ Keine Zahl in der Antwort; exakt wäre ${de(v.exact)}.`;
  return `❌ Nächste Zahl in der Antwort: ${de(v.closest)}; exakt: ${de(v.exact)} (daneben um ${de(v.difference ?? "0")}).`;
}

/** A normalized decimal ("1264402496", "43.35") as Germans write it: "1.264.402.496", "43,35" (any length, exact). */
export function germanDecimal(normalized: string): string {
  const [whole = "", fraction] = normalized.split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = whole.replace(/^-/u, "");
  const grouped = digits.length > 4 ? digits.replace(/\B(?=(\d{3})+$)/gu, ".") : digits;
  return `${sign}${grouped}${fraction === undefined ? "" : `,${fraction}`}`;
}
