// The `rechne` tool's core: parse a small arithmetic expression with jsep (a real expression parser,
// never eval) and evaluate the tree with the exact arithmetic of exact.ts. Bounded: every value's digits
// (exact.ts) and the whole call's work (MAX_WORK), checked before each operation runs.
// Grammar: numbers, + − * / and ^ (power, right-associative, binds tighter than * and /), unary
// minus and plus, parentheses. Everything else jsep knows (names, calls, comparisons …) is refused.
import jsep from "jsep";
import { MathError } from "./errors.js";
import {
  add,
  digits,
  divide,
  DIVISION_DIGITS,
  log10Abs,
  MAX_DIGITS,
  multiply,
  parseOperand,
  power,
  sizeOf,
  subtract,
  type Outcome,
  type Value,
} from "./exact.js";

export const MAX_EXPRESSION_CHARS = 500;
/**
 * Most work per `rechne` call, in digit products (a × of an m- and an n-digit number costs m·n). With
 * every value at most MAX_DIGITS digits this keeps each accepted expression to well under 0.1 s, so
 * one call cannot hold up the other sessions on this single-threaded server for long.
 */
export const MAX_WORK = 2e8;

// jsep is configured once per process; this server is its only user.
jsep.removeAllBinaryOps();
jsep.addBinaryOp("+", 9);
jsep.addBinaryOp("-", 9);
jsep.addBinaryOp("*", 10);
jsep.addBinaryOp("/", 10);
jsep.addBinaryOp("^", 11, true);
jsep.removeAllUnaryOps();
jsep.addUnaryOp("-");
jsep.addUnaryOp("+");
jsep.removeAllLiterals();

const ALLOWED = 'Erlaubt sind Zahlen, + - * / ^ und Klammern, z. B. "58952 * 21448" oder "(2,5 + 1) ^ 2".';

/** A sign at the start or after an operator or "(", then a number or a flat group, then ^. */
const UNARY_BEFORE_POWER = /(?:^|[-+*/^(])\s*[-+]\s*(?:[\d.]+(?:e[-+]?\d+)?|\([^()]*\))\s*\^/i;

/** Usual ways of writing arithmetic by hand, turned into the parser's operators. */
export function normalizeExpression(text: string): string {
  return text
    .replace(/[×·⋅]/g, "*")
    .replace(/[÷:]/g, "/")
    .replace(/\u2212/g, "-")
    .replace(/\*\*/g, "^")
    .replace(/(\d),(\d)/g, "$1.$2"); // German decimal comma
}

function parse(text: string): jsep.Expression {
  try {
    return jsep(text);
  } catch (error) {
    const detail = (error as { description?: string }).description ?? (error as Error).message;
    throw new MathError(
      "invalid_expression",
      `Der Ausdruck "${text}" lässt sich nicht lesen (${detail}). ${ALLOWED}`,
      text,
    );
  }
}

interface State {
  exact: boolean;
  /** Digit products spent so far (MAX_WORK). */
  work: number;
}

/** What an operation costs, estimated from its operands' sizes before it runs. */
function workOf(operator: string, left: Value, right: Value): number {
  const [m, n] = [digits(sizeOf(left)), digits(sizeOf(right))];
  if (operator === "*") return m * n;
  if (operator === "/") return (m + n) * DIVISION_DIGITS;
  if (operator !== "^" || typeof right !== "bigint") return m + n;
  // About the result's digits squared; beyond MAX_DIGITS power() refuses it itself, without computing.
  const times = Math.abs(Number(right));
  const result = Math.min(Math.max(times * log10Abs(left), 0) + sizeOf(left).dp * times + 1, MAX_DIGITS);
  return result * result;
}

function spend(state: State, work: number, source: string): void {
  state.work += work;
  if (state.work > MAX_WORK) {
    throw new MathError(
      "out_of_range",
      `Der Ausdruck ist zu aufwendig: zu viele Rechnungen mit sehr langen Zahlen in einem Aufruf. Teile ihn in kleinere Schritte auf.`,
      source,
    );
  }
}

function evaluate(node: jsep.Expression, source: string, state: State): Value {
  const apply = (outcome: Outcome): Value => {
    if (!outcome.exact) state.exact = false;
    return outcome.value;
  };
  switch (node.type) {
    case "Literal": {
      const raw = (node as jsep.Literal).raw;
      if (typeof (node as jsep.Literal).value !== "number")
        throw new MathError("invalid_expression", `${raw} ist keine Zahl. ${ALLOWED}`, source);
      return parseOperand("Die Zahl", raw).value;
    }
    case "UnaryExpression": {
      const unary = node as jsep.UnaryExpression;
      const value = evaluate(unary.argument, source, state);
      if (unary.operator !== "-") return value;
      return typeof value === "bigint" ? -value : value.neg(); // same digits, nothing to bound
    }
    case "BinaryExpression": {
      const binary = node as jsep.BinaryExpression;
      const left = evaluate(binary.left, source, state);
      const right = evaluate(binary.right, source, state);
      const op = { "+": add, "-": subtract, "*": multiply, "/": divide, "^": power }[binary.operator];
      if (!op)
        throw new MathError(
          "invalid_expression",
          `Der Operator ${binary.operator} wird nicht unterstützt. ${ALLOWED}`,
          source,
        );
      spend(state, workOf(binary.operator, left, right), source);
      return apply(op(left, right));
    }
    case "Identifier":
      throw new MathError(
        "invalid_expression",
        `"${(node as jsep.Identifier).name}" ist keine Zahl; Namen und Variablen kennt rechne nicht. ${ALLOWED}`,
        source,
      );
    case "CallExpression":
      throw new MathError("invalid_expression", `Funktionen wie sqrt(...) kennt rechne nicht. ${ALLOWED}`, source);
    case "Compound":
    case "SequenceExpression":
      throw new MathError(
        "invalid_expression",
        `Bitte genau einen Ausdruck angeben (ein Komma trennt hier zwei Ausdrücke). ${ALLOWED}`,
        source,
      );
    default:
      throw new MathError(
        "invalid_expression",
        `Dieser Teil des Ausdrucks wird nicht unterstützt (${node.type}). ${ALLOWED}`,
        source,
      );
  }
}

/** Evaluates `text` exactly; `normalized` is what was parsed (after replacing × ÷ and decimal commas). */
export function evaluateExpression(text: string): Outcome & { normalized: string } {
  const trimmed = text.trim();
  if (trimmed === "") throw new MathError("invalid_expression", `Der Ausdruck ist leer. ${ALLOWED}`, text);
  if (trimmed.length > MAX_EXPRESSION_CHARS) {
    throw new MathError(
      "out_of_range",
      `Der Ausdruck ist zu lang (höchstens ${MAX_EXPRESSION_CHARS} Zeichen).`,
      `${trimmed.slice(0, 40)}…`,
    );
  }
  const normalized = normalizeExpression(trimmed);
  if (UNARY_BEFORE_POWER.test(normalized)) {
    // jsep binds a sign to its number ((-2)^2 = 4), the usual convention binds ^ first (-(2^2) = -4).
    throw new MathError(
      "invalid_expression",
      `"${trimmed}" ist mehrdeutig: ein Vorzeichen direkt vor einer Potenz. Schreibe (-2)^2 oder -(2^2).`,
      text,
    );
  }
  const state: State = { exact: true, work: 0 };
  const value = evaluate(parse(normalized), trimmed, state);
  return { value, exact: state.exact, normalized };
}
