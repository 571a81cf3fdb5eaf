// The self-check runner: verdict lines, thrown errors, timeouts, strict mode, input mutation, throws-cases.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { CheckFailedError, NotSolvedError } from "../../lib/exercises/index.js";
import { checkHitAtK, checkSmallestK } from "../../lib/exercises/part2.js";
import { checkCoordinatesFromHistory, checkMissingArguments } from "../../lib/exercises/part3.js";
import { checkReadyCalls, checkResolveRefs } from "../../lib/exercises/part4.js";
import {
  defineCheck,
  runChecks,
  sameData,
  type AnyFunction,
  type CheckFunction,
  type CheckSet,
} from "../../lib/exercises/check-runner.js";
import { showValue } from "../../lib/exercises/show.js";

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

  test("an unsolved skeleton (throws „Noch nicht gelöst“): one ❌ line and the summary, every case failed", async () => {
    const out = collect();
    const report = await runChecks(
      addSet,
      () => {
        throw new NotSolvedError();
      },
      { log: out.log },
    );
    assert.deepEqual([report.passed, report.failed], [0, 2]);
    assert.deepEqual(out.lines, [
      "🔎 Selbsttest „add“ – Addieren (2 Fälle)",
      "❌ Noch nicht gelöst: Ersetze in der Zelle mit add die Zeile mit throw durch deinen Code.",
      "Ergebnis: 0 von 2 Fällen bestanden, 2 fehlgeschlagen – schau dir die ❌ oben an.",
    ]);
  });

  test("not solved is decided by the error's class: an Error with the same words is an ordinary failure", async () => {
    const out = collect();
    await runChecks(
      addSet,
      () => {
        throw new Error("Noch nicht gelöst");
      },
      { log: out.log },
    );
    assert.ok(!out.lines.some((line) => line.startsWith("❌ Noch nicht gelöst:")), out.lines.join("\n"));
  });

  test("numbers in Erwartet/Bekommen are written the German way (0,25), inputs stay code", async () => {
    const out = collect();
    const half: CheckSet<(x: number) => number> = {
      functionName: "half",
      title: "Hälfte",
      cases: [{ name: "0,5", args: [0.5], expect: 0.25 }],
    };
    await runChecks(half, (x) => x * 0.3, { log: out.log });
    const text = out.lines.join("\n");
    assert.match(text, /Eingabe: {2}half\(0\.5\)\n {5}Erwartet: 0,25\n {5}Bekommen: 0,15/u);
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
    assert.deepEqual(
      report.cases.map((c) => c.ok),
      [false, true],
    );
    assert.match(
      out.lines.join("\n"),
      /Bekommen: Fehler: TypeError: kaputt\n {5}Problem: {2}Deine Funktion hat einen Fehler geworfen\./u,
    );
  });

  test("an async function that never settles fails after the time limit", async () => {
    const out = collect();
    const started = Date.now();
    const report = await runChecks(addSet, () => new Promise<number>(() => {}), { log: out.log, timeoutMs: 50 });
    assert.equal(report.failed, 2);
    assert.match(out.lines.join("\n"), /nach 50 ms nicht geantwortet/u);
    assert.ok(Date.now() - started < 5000, "bounded by the per-case time limit");
  });

  test("without a log option the whole verdict goes out in one console.log call (tslab sends each call as one message)", async (t) => {
    const calls: unknown[][] = [];
    t.mock.method(console, "log", (...args: unknown[]) => void calls.push(args));
    await runChecks(addSet, (a, b) => a - b);
    assert.equal(calls.length, 1);
    const text = String(calls[0]?.[0]);
    assert.match(text, /^🔎 Selbsttest „add“/u);
    assert.match(text, /\n❌ 2\. negative Zahlen\n/u);
    assert.match(text, /\nErgebnis: 0 von 2 Fällen bestanden/u);
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
    assert.ok(
      out.lines.some((l) => l.startsWith("❌ 1.")),
      "verdict printed before throwing",
    );
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
    assert.deepEqual(
      mutating.cases.map((c) => c.ok),
      [false, true],
    );
    assert.match(mutating.cases[0]?.problem ?? "", /Eingabe verändert/u);
    assert.deepEqual(
      seen,
      [
        [3, 1, 2],
        [3, 1, 2],
      ],
      "the second case got an unsorted copy",
    );
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
    assert.equal(
      (
        await runChecks(
          set,
          (k) => {
            throw new Error(`${k} fehlt`);
          },
          { log: () => {} },
        )
      ).ok,
      true,
    );
    const vague = await runChecks(
      set,
      () => {
        throw new Error("fehlt");
      },
      { log: () => {} },
    );
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
        {
          name: "positiv",
          args: [],
          verify: (v) => (typeof v === "number" && v > 0 ? undefined : "muss positiv sein"),
          expectation: "> 0",
        },
        { name: "zweimal gleich", call: (fn) => [fn(), fn()], expect: [1, 1] },
      ],
    };
    let n = 0;
    const report = await runChecks(set, () => ++n, { log: () => {} });
    assert.deepEqual(
      report.cases.map((c) => c.ok),
      [true, false],
    );
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

  test("sameData: key order and undefined object fields do not matter", () => {
    assert.ok(sameData({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }));
    assert.ok(sameData({ a: 1, b: undefined }, { a: 1 }));
    assert.ok(sameData(NaN, NaN));
    assert.ok(sameData(0, -0));
    assert.ok(!sameData([1, 2], [2, 1]));
    assert.ok(!sameData(null, undefined));
    assert.ok(!sameData(1, "1"));
    assert.ok(!sameData({ a: 1 }, [1]));
  });

  test("sameData keeps apart what JSON blurs: Infinity/NaN vs null, undefined vs null in arrays", () => {
    assert.ok(!sameData(Infinity, null));
    assert.ok(!sameData(-Infinity, null));
    assert.ok(!sameData(NaN, null));
    assert.ok(!sameData({ k: Infinity }, { k: null }));
    assert.ok(!sameData([undefined], [null]));
    assert.ok(!sameData({ werte: [null, undefined] }, { werte: [null, null] }));
    assert.ok(!sameData([undefined], []), "an undefined array element still counts");
    assert.ok(!sameData({ a: null }, { a: undefined }), "null is a value, undefined a missing field");
  });

  test("a function returning Infinity where null is expected fails, and the verdict says Infinity", async () => {
    type Find = (xs: number[]) => number | null;
    const set: CheckSet<Find> = {
      functionName: "finde",
      title: "Finden",
      cases: [{ name: "nichts da → null", args: [[]], expect: null }],
    };
    const out = collect();
    const report = await runChecks(set, () => Infinity, { log: out.log });
    assert.equal(report.ok, false);
    assert.match(out.lines.join("\n"), /Erwartet: null\n {5}Bekommen: Infinity/u);
    const listSet: CheckSet<(xs: number[]) => unknown[]> = {
      functionName: "liste",
      title: "Liste",
      cases: [{ name: "Liste mit null", args: [[1]], expect: [null] }],
    };
    const nested = await runChecks(listSet, () => [undefined], { log: () => {} });
    assert.equal(nested.ok, false);
    assert.equal(nested.cases[0]?.actual, "[undefined]");
  });

  test("showValue shows undefined, Infinity and NaN inside data as they are (not as null or a string)", () => {
    assert.equal(
      showValue([undefined, null, Infinity, -Infinity, NaN, "x"]),
      '[undefined,null,Infinity,-Infinity,NaN,"x"]',
    );
    assert.equal(showValue({ a: undefined, b: NaN }), '{"a":undefined,"b":NaN}');
    assert.equal(showValue(Infinity), "Infinity");
    assert.equal(showValue({ f: function rechne() {} }), '{"f":‹Funktion rechne›}');
    assert.equal(showValue("Infinity"), '"Infinity"', "a text stays quoted");
  });

  test("context lines are printed once, above the cases, only when a case fails", async () => {
    const set: CheckSet<Add> = { ...addSet, context: ["R = [1, 2, 3]"] };
    const passing = collect();
    await runChecks(set, (a, b) => a + b, { log: passing.log });
    assert.ok(!passing.lines.some((l) => l.includes("R = [1, 2, 3]")), "nothing extra when all pass");
    const failing = collect();
    await runChecks(set, () => 0, { log: failing.log });
    assert.equal(failing.lines.filter((l) => l.includes("R = [1, 2, 3]")).length, 1, "once per check, not per case");
    const at = failing.lines.findIndex((l) => l.includes("R = [1, 2, 3]"));
    const firstCase = failing.lines.findIndex((l) => l.startsWith("❌ 1."));
    assert.ok(at > 0 && at < firstCase, "between the header and the first case");
  });
});

describe("exercise verdicts stay readable", () => {
  // A wrong function fails most cases; the shared data (results/user, schemas, R, plans, history entries)
  // must show once, not per case.
  const wrong: [string, CheckFunction<AnyFunction>, AnyFunction, RegExp][] = [
    [
      "resolveRefs",
      checkResolveRefs as CheckFunction<AnyFunction>,
      (v: unknown) => v,
      /^resolveRefs\(\{"lat":\{"\$ref":"geo_rom\.lat"\}\}, results, user\)$/u,
    ],
    [
      "missingArguments",
      checkMissingArguments as CheckFunction<AnyFunction>,
      () => [],
      /^missingArguments\(\{"start_date":"2025-06-01"\}, wetterSchema\)$/u,
    ],
    ["hitAtK", checkHitAtK as CheckFunction<AnyFunction>, () => 0, /^hitAtK\(R, 3\)$/u],
    ["smallestK", checkSmallestK as CheckFunction<AnyFunction>, () => 99, /^smallestK\(R, 0\.5\)$/u],
    [
      "readyCalls",
      checkReadyCalls as CheckFunction<AnyFunction>,
      () => [],
      /^readyCalls\(zweiStaedte, \["geo_a"\]\)$/u,
    ],
    [
      "coordinatesFromHistory",
      checkCoordinatesFromHistory as CheckFunction<AnyFunction>,
      () => null,
      /^coordinatesFromHistory\(\[barcelonaAlt, wetter, barcelona\], "Barcelona"\)$/u,
    ],
  ];
  for (const [name, check, fn, sampleInput] of wrong) {
    test(`${name}: shared data printed once, failing inputs name it and stay short`, async () => {
      const out = collect();
      const report = await check(fn, { log: out.log });
      assert.ok(report.failed >= 3);
      const context = check.set.context ?? [];
      assert.ok(context.length > 0, "the check has context lines");
      for (const line of context)
        assert.equal(out.lines.filter((l) => l.includes(line)).length, 1, `printed once: ${line.slice(0, 40)}`);
      const inputs = report.cases.filter((c) => !c.ok).map((c) => c.input);
      assert.ok(
        inputs.some((i) => sampleInput.test(i)),
        `an input like ${sampleInput}; got ${inputs.join(" | ")}`,
      );
      for (const i of inputs) assert.ok(i.length <= 200, `input short: ${i}`);
      const longest = context.reduce((a, b) => (a.length > b.length ? a : b));
      const body = out.lines.filter((l) => !context.some((c) => l.includes(c))).join("\n");
      assert.ok(
        !body.includes(longest.slice(longest.indexOf("=") + 2)),
        "the largest shared object is not repeated per case",
      );
    });
  }
});
