// Exact arithmetic and the expression evaluator of the math server (pure functions).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MathError } from "../../mcp-server-math/src/errors.js";
import {
  add,
  divide,
  DIVISION_DIGITS,
  jsonValue,
  multiply,
  parseOperand,
  power,
  render,
  subtract,
  type Outcome,
} from "../../mcp-server-math/src/exact.js";
import { evaluateExpression } from "../../mcp-server-math/src/expression.js";

const v = (x: number | string) => parseOperand("a", x).value;
const out = (o: Outcome) => ({ json: jsonValue(o.value), text: render(o.value), exact: o.exact });
const rejects = (fn: () => unknown, code: string, message: RegExp) =>
  assert.throws(fn, (e: unknown) => e instanceof MathError && e.code === code && message.test(e.message));

describe("exact arithmetic", () => {
  it("multiplies the Teil 1 hook's numbers exactly", () => {
    // 58952 × 21448 = 1 264 402 496 (a double would also get this one right; the model does not).
    assert.deepEqual(out(multiply(v(58952), v(21448))), { json: 1264402496, text: "1264402496", exact: true });
    assert.equal(BigInt(render(multiply(v(58952), v(21448)).value)), 58952n * 21448n);
  });

  it("keeps integers beyond 2^53 exact and returns them as text", () => {
    const big = "9007199254740993"; // 2^53 + 1: no double has this value
    assert.deepEqual(out(add(v(big), v(1))), { json: "9007199254740994", text: "9007199254740994", exact: true });
    assert.deepEqual(out(multiply(v("123456789012345678901234567890"), v("987654321098765432109876543210"))), {
      json: "121932631137021795226185032733622923332237463801111263526900",
      text: "121932631137021795226185032733622923332237463801111263526900",
      exact: true,
    });
    assert.deepEqual(out(subtract(v(big), v("9007199254740992"))), { json: 1, text: "1", exact: true });
    // the largest safe integer is still a number, one more is text
    assert.equal(jsonValue(v(String(Number.MAX_SAFE_INTEGER))), Number.MAX_SAFE_INTEGER);
    assert.equal(jsonValue(v("-9007199254740992")), "-9007199254740992");
  });

  it("adds decimals without binary rounding errors", () => {
    assert.deepEqual(out(add(v(0.1), v(0.2))), { json: 0.3, text: "0.3", exact: true });
    assert.deepEqual(out(subtract(v("1e-30"), v(1))), {
      json: "-0.999999999999999999999999999999",
      text: "-0.999999999999999999999999999999",
      exact: true,
    });
    assert.deepEqual(out(multiply(v("2,5"), v("-0.4"))), { json: -1, text: "-1", exact: true });
    assert.deepEqual(out(multiply(v(1.1), v(1.1))), { json: 1.21, text: "1.21", exact: true });
  });

  it("divides exactly when the quotient terminates, otherwise rounds to the stated precision", () => {
    assert.deepEqual(out(divide(v(10), v(4))), { json: 2.5, text: "2.5", exact: true });
    assert.deepEqual(out(divide(v("7.5"), v("2,5"))), { json: 3, text: "3", exact: true });
    assert.deepEqual(out(divide(v("1264402496"), v(21448))), { json: 58952, text: "58952", exact: true });
    const third = out(divide(v(1), v(3)));
    assert.equal(third.exact, false);
    assert.equal(third.text, `0.${"3".repeat(DIVISION_DIGITS)}`);
    assert.equal(third.json, third.text); // no JSON number carries 34 digits
    assert.equal(out(divide(v(-2), v(3))).text, `-0.${"6".repeat(DIVISION_DIGITS - 1)}7`); // half to even
  });

  it("reports division by zero with a German message", () => {
    rejects(() => divide(v(1), v("0.0")), "division_by_zero", /Division durch 0 ist nicht definiert/);
  });

  it("reads numbers and numeric text, and refuses everything else with a German hint", () => {
    assert.equal(render(v(" -3.5 ")), render(v("-3,5")));
    assert.equal(render(v("-3,5")), "-3.5");
    assert.equal(render(v("1.5e3")), "1500");
    assert.equal(typeof v("1.5e3"), "bigint");
    assert.equal(render(v("\u22124")), "-4");
    for (const bad of ["abc", "0x10", "Infinity", "NaN", "1.000,5", "1,000,000", "2*3"])
      rejects(() => v(bad), "not_a_number", /ist keine Zahl/);
    rejects(() => v(""), "not_a_number", /ist leer/);
    rejects(() => v("1e5000"), "out_of_range", /zu groß oder zu klein/);
    rejects(() => v("1".repeat(1001)), "out_of_range", /zu lang/);
  });

  it("notes a JSON number beyond 2^53 that may have been rounded on its way", () => {
    const parsed = parseOperand("b", 2 ** 60);
    assert.equal(parsed.value, 2n ** 60n);
    assert.match(parsed.note ?? "", /b kam als JSON-Zahl über 2\^53 an/);
    assert.equal(parseOperand("b", 2 ** 52).note, undefined);
  });

  it("raises to integer powers exactly and refuses huge ones", () => {
    assert.equal(render(power(2n, 64n).value), "18446744073709551616");
    assert.equal(render(power(v("1.5"), 2n).value), "2.25");
    assert.deepEqual(out(power(2n, -2n)), { json: 0.25, text: "0.25", exact: true });
    rejects(() => power(2n, 100_000n), "out_of_range", /mehr als 10000 Stellen/);
    rejects(() => power(2n, v("0.5")), "invalid_expression", /ganze Zahlen/);
    rejects(() => power(0n, -1n), "division_by_zero", /negative Zahl/);
  });
});

describe("expression evaluation (jsep, never eval)", () => {
  const calc = (text: string) => {
    const r = evaluateExpression(text);
    return { json: jsonValue(r.value), exact: r.exact, normalized: r.normalized };
  };

  it("evaluates with the usual precedence, exactly", () => {
    assert.deepEqual(calc("58952 × 21448"), { json: 1264402496, exact: true, normalized: "58952 * 21448" });
    assert.equal(calc("2 + 3 * 4").json, 14);
    assert.equal(calc("(2 + 3) * 4").json, 20);
    assert.equal(calc("2^3^2").json, 512); // right-associative
    assert.equal(calc("(2,5 + 1) ^ 2").json, 12.25);
    assert.equal(calc("10 : 4").json, 2.5);
    assert.equal(calc("2 ** 64").json, "18446744073709551616");
    assert.equal(calc("9007199254740993 - 1").json, "9007199254740992");
    assert.equal(calc("(-2)^2").json, 4);
    assert.equal(calc("-(2^2)").json, -4);
    assert.equal(calc("3 - 2^2").json, -1);
    assert.deepEqual(calc("1/3*3"), {
      json: "0.9999999999999999999999999999999999",
      exact: false,
      normalized: "1/3*3",
    });
  });

  it("refuses what is not arithmetic, with German messages", () => {
    const bad: [string, RegExp][] = [
      ["abc + 1", /"abc" ist keine Zahl/],
      ["sqrt(2)", /Funktionen/],
      ["1, 2", /genau einen Ausdruck/],
      ["2 > 1", /lässt sich nicht lesen/],
      ["process.exit(1)", /nicht unterstützt|Funktionen/],
      ["'a'", /keine Zahl/],
      ["", /leer/],
      ["-2^2", /mehrdeutig/],
    ];
    for (const [text, message] of bad)
      assert.throws(
        () => evaluateExpression(text),
        (e: unknown) => e instanceof MathError && message.test(e.message),
        text,
      );
    assert.throws(
      () => evaluateExpression("1/(2-2)"),
      (e: unknown) => e instanceof MathError && e.code === "division_by_zero",
    );
  });
});

describe("bounded cost: every operation's digits checked before it runs, the whole call's work too", () => {
  /** `term` joined with `op` as often as fits into 489 characters (the expressions). */
  const chain = (term: string, op = "*") =>
    Array.from({ length: 200 }, () => term)
      .join(op)
      .slice(0, 489)
      .replace(/[-+*/]?[^-+*/]*$/, "");
  const timed = (fn: () => unknown) => {
    const started = performance.now();
    try {
      fn();
    } catch {
      // only the time counts here
    }
    return performance.now() - started;
  };

  it("integer +, − and × refuse results beyond the digit limit before computing them", () => {
    const big = power(9n, 5000n).value; // 4772 digits
    const bigger = multiply(big, big).value; // 9543 digits: still allowed
    rejects(() => multiply(bigger, big), "out_of_range", /mehr als 10000 Stellen/);
    const top = power(10n, 9999n).value; // 10000 digits, the most allowed
    assert.equal(render(add(top, top).value).length, 10_000);
    rejects(() => add(multiply(top, 9n).value, top), "out_of_range", /mehr als 10000 Stellen/); // the carry: 10^10000
    rejects(() => evaluateExpression(chain("9^5000")), "out_of_range", /mehr als 10000 Stellen/);
  });

  it("decimal products are bounded by their digits, not only by their exponent", () => {
    // 1.1^3000 has 125 integer and 3000 decimal places; the 489-character chain of them ran 9.1 s.
    const expression = chain("1.1^3000");
    assert.ok(timed(() => evaluateExpression(expression)) < 500);
    rejects(() => evaluateExpression(expression), "out_of_range", /mehr als 10000 Stellen/);
  });

  it("every accepted expression of at most 500 characters stays cheap", () => {
    const heavy = [
      chain("(1.1^3000*1.1^3000*1.1^3000)", "+"),
      chain("(7^3000*7^3000*7^3000)", "-"),
      chain("(3^9000/7^3000)", "+"),
      chain("0.9^3200*0.9^3200", "+"),
    ];
    for (const expression of heavy)
      assert.ok(timed(() => evaluateExpression(expression)) < 250, expression.slice(0, 40));
  });

  it("an exponent beyond the range is an error, not 0 or infinity with exact: true", () => {
    rejects(() => parseOperand("a", "1e-99999999999999999999"), "out_of_range", /a ist zu groß oder zu klein/);
    rejects(() => parseOperand("b", "5e99999999999999999999"), "out_of_range", /b ist zu groß oder zu klein/);
    rejects(() => evaluateExpression("1e-99999999999999999999"), "out_of_range", /zu groß oder zu klein/);
    assert.equal(render(parseOperand("a", "0e-99999999999999999999").value), "0"); // zero stays zero
  });
});
