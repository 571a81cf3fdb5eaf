// Reading numbers out of model answers for Teil 1's arithmetic hook, compared exactly.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkArithmetic, describeArithmetic, numbersInText } from "../../lib/llm/number-check.js";

describe("numbersInText / checkArithmetic", () => {
  test("German and English digit grouping, decimal comma and point", () => {
    assert.deepEqual(numbersInText("Das Ergebnis ist 1.264.402.496."), ["1264402496"]);
    assert.deepEqual(numbersInText("58952 × 21448 = 1,264,402,496"), ["58952", "21448", "1264402496"]);
    assert.deepEqual(numbersInText("ungefähr 1 264 402 496"), ["1264402496"]);
    assert.deepEqual(numbersInText("12,75 mal 3,4 ergibt 43,35"), ["12.75", "3.4", "43.35"]);
    assert.deepEqual(numbersInText("1.234,5 und 1,234.5"), ["1234.5"]);
    assert.deepEqual(numbersInText("1.264 ist mehrdeutig"), ["1264", "1.264"]);
    assert.deepEqual(numbersInText("keine Zahl"), []);
  });

  test("exact comparison without float error, beyond 2^53", () => {
    assert.equal(checkArithmetic("= 1.264.402.496", 58952n * 21448n).correct, true);
    assert.equal(checkArithmetic("0,3", "0.30").correct, true);
    assert.equal(checkArithmetic("9007199254740993", 2n ** 53n + 1n).correct, true);
    assert.equal(checkArithmetic("9007199254740992", 2n ** 53n + 1n).correct, false);
    const wrong = checkArithmetic("Das sind etwa 1.264.412.496.", 1264402496);
    assert.deepEqual([wrong.correct, wrong.closest, wrong.difference], [false, "1264412496", "10000"]);
    assert.match(describeArithmetic(wrong), /daneben um 10\.000/);
    assert.match(describeArithmetic(checkArithmetic("weiß nicht", 5)), /Keine Zahl/);
  });
});

test("the verdict writes numbers as Germans do: 43,35 and 1.264.402.496", async () => {
  const { germanDecimal } = await import("../../lib/llm/number-check.js");
  assert.equal(
    describeArithmetic(checkArithmetic("Das sind 43,35.", "43.35")),
    "✅ Das exakte Ergebnis 43,35 steht in der Antwort.",
  );
  assert.match(
    describeArithmetic(checkArithmetic("1.264.402.000", 1264402496n)),
    /Nächste Zahl in der Antwort: 1\.264\.402\.000; exakt: 1\.264\.402\.496 \(daneben um -496\)/,
  );
  assert.deepEqual(["0", "-12.5", "1234", "12345", "-1234567.125"].map(germanDecimal), [
    "0",
    "-12,5",
    "1234",
    "12.345",
    "-1.234.567,125",
  ]);
});
