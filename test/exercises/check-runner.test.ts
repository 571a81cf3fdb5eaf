// The self-check runner: verdict lines, thrown errors, timeouts, strict mode, input mutation, throws-cases.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { CheckFailedError, defineCheck, runChecks, sameData, type CheckSet } from "../../lib/exercises/index.js";

type Add = (a: number, b: number) => number | Promise<number>;

const addSet: CheckSet<Add> = {
  functionName: "add",
  title: "Addieren",
  cases: [
    { name: "1 + 2", args: [1, 2], expect: 3 },
    { name: "negative Zahlen", args: [-1, -2], expect: -3 },
  ],
};

function collect() {
  const lines: string[] = [];
  return { lines, log: (l: string) => lines.push(l) };
}

describe("runChecks", () => {
  test("a correct function: ✅ per case, summary line, ok report", async () => {
    const out = collect();
    const report = await runChecks(addSet, (a, b) => a + b, { log: out.log });
    assert.deepEqual([report.ok, report.total, report.passed, report.failed], [true, 2, 2, 0]);
    assert.equal(out.lines[0], "🔎 Selbsttest „add“ – Addieren (2 Fälle)");
    assert.deepEqual(out.lines.slice(1, 3), ["✅ 1. 1 + 2", "✅ 2. negative Zahlen"]);
    assert.equal(out.lines.at(-1), "Ergebnis: alle 2 Fälle bestanden. 🎉");
  });

  test("a wrong result: ❌ with input, expected and actual; no throw without strict", async () => {
    const out = collect();
    const report = await runChecks(addSet, (a, b) => a - b, { log: out.log });
    assert.equal(report.ok, false);
    assert.equal(report.failed, 2);
    const text = out.lines.join("\n");
    assert.match(text, /❌ 1\. 1 \+ 2\n {5}Eingabe: {2}add\(1, 2\)\n {5}Erwartet: 3\n {5}Bekommen: -1/u);
    assert.equal(out.lines.at(-1), "Ergebnis: 0 von 2 Fällen bestanden, 2 fehlgeschlagen – schau dir die ❌ oben an.");
  });

  test("a thrown error is a failed case with its message, and later cases still run", async () => {
    const out = collect();
    let calls = 0;
    const report = await runChecks(
      addSet,
      (a, b) => {
        calls++;
        if (a === 1) throw new TypeError("kaputt");
        return a + b;
      },
      { log: out.log },
    );
    assert.equal(calls, 2);
    assert.deepEqual(report.cases.map((c) => c.ok), [false, true]);
    assert.match(out.lines.join("\n"), /Bekommen: Fehler: TypeError: kaputt\n {5}Problem: {2}Deine Funktion hat einen Fehler geworfen\./u);
  });

  test("an async function that never settles fails after the time limit", async () => {
    const out = collect();
    const started = Date.now();
    const report = await runChecks(addSet, () => new Promise<number>(() => {}), { log: out.log, timeoutMs: 50 });
    assert.equal(report.failed, 2);
    assert.match(out.lines.join("\n"), /nach 50 ms nicht geantwortet/u);
    assert.ok(Date.now() - started < 5000, "bounded by the per-case time limit");
  });

  test("async functions are awaited", async () => {
    const report = await runChecks(addSet, async (a, b) => a + b, { log: () => {} });
    assert.equal(report.ok, true);
  });

  test("strict: prints the verdict, then throws CheckFailedError carrying the report", async () => {
    const out = collect();
    await assert.rejects(
      runChecks(addSet, () => 0, { log: out.log, strict: true }),
      (error: unknown) => {
        assert.ok(error instanceof CheckFailedError);
        assert.equal(error.report.failed, 2);
        assert.match(error.message, /add: 2 von 2 Fällen fehlgeschlagen \(„1 \+ 2“, „negative Zahlen“\)/u);
        return true;
      },
    );
    assert.ok(out.lines.some((l) => l.startsWith("❌ 1.")), "verdict printed before throwing");
    const ok = await runChecks(addSet, (a, b) => a + b, { log: () => {}, strict: true });
    assert.equal(ok.ok, true);
  });

  test("not a function: every case fails with a hint, no crash", async () => {
    const out = collect();
    const report = await runChecks(addSet, undefined as unknown as Add, { log: out.log });
    assert.equal(report.failed, 2);
    assert.match(out.lines.join("\n"), /Hast du die Zelle mit add schon ausgeführt\?/u);
  });

  test("unchangedInput catches a function that mutates its argument; cases get fresh copies", async () => {
    type Sort = (xs: number[]) => number[];
    const input = [3, 1, 2];
    const set: CheckSet<Sort> = {
      functionName: "sortiere",
      title: "Sortieren",
      cases: [
        { name: "sortiert", args: [input], expect: [1, 2, 3], unchangedInput: true },
        { name: "noch einmal", args: [input], expect: [1, 2, 3] },
      ],
    };
    const seen: number[][] = [];
    const mutating = await runChecks(set, (xs) => (seen.push([...xs]), xs.sort((a, b) => a - b)), { log: () => {} });
    assert.deepEqual(mutating.cases.map((c) => c.ok), [false, true]);
    assert.match(mutating.cases[0]?.problem ?? "", /Eingabe verändert/u);
    assert.deepEqual(seen, [[3, 1, 2], [3, 1, 2]], "the second case got an unsorted copy");
    assert.deepEqual(input, [3, 1, 2], "the case data itself is never touched");
    const pure = await runChecks(set, (xs) => [...xs].sort((a, b) => a - b), { log: () => {} });
    assert.equal(pure.ok, true);
  });

  test("throws-cases: pass on a matching error, fail on a vague error or no error", async () => {
    type Get = (key: string) => unknown;
    const set: CheckSet<Get> = {
      functionName: "hole",
      title: "Nachschlagen",
      cases: [{ name: "fehlender Schlüssel", args: ["geo.lat"], throws: { messageIncludes: ["geo.lat"] } }],
    };
    assert.equal((await runChecks(set, (k) => { throw new Error(`${k} fehlt`); }, { log: () => {} })).ok, true);
    const vague = await runChecks(set, () => { throw new Error("fehlt"); }, { log: () => {} });
    assert.match(vague.cases[0]?.problem ?? "", /nennt nicht „geo\.lat“/u);
    const none = await runChecks(set, () => 42, { log: () => {} });
    assert.match(none.cases[0]?.problem ?? "", /muss deine Funktion einen Fehler werfen/u);
  });

  test("verify and custom call: own checks and two calls in a row", async () => {
    type Counter = () => number;
    const set: CheckSet<Counter> = {
      functionName: "zaehler",
      title: "Zählen",
      cases: [
        { name: "positiv", args: [], verify: (v) => (typeof v === "number" && v > 0 ? undefined : "muss positiv sein"), expectation: "> 0" },
        { name: "zweimal gleich", call: (fn) => [fn(), fn()], expect: [1, 1] },
      ],
    };
    let n = 0;
    const report = await runChecks(set, () => ++n, { log: () => {} });
    assert.deepEqual(report.cases.map((c) => c.ok), [true, false]);
    const broken = await runChecks(set, () => -1, { log: () => {} });
    assert.equal(broken.cases[0]?.problem, "muss positiv sein");
    assert.equal(broken.cases[0]?.expected, "> 0");
  });

  test("defineCheck binds a set; the report shows as nothing in a notebook's last-expression display", async () => {
    const checkAdd = defineCheck(addSet);
    assert.equal(checkAdd.set, addSet);
    const report = await checkAdd((a, b) => a + b, { log: () => {} });
    assert.equal(inspect(report), "");
    assert.equal(JSON.parse(JSON.stringify(report)).passed, 2, "fields stay plain data");
  });

  test("sameData compares as JSON data: key order and undefined fields do not matter", () => {
    assert.ok(sameData({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
    assert.ok(sameData({ a: 1, b: undefined }, { a: 1 }));
    assert.ok(!sameData([1, 2], [2, 1]));
    assert.ok(!sameData(null, undefined));
    assert.ok(!sameData(1, "1"));
  });
});
