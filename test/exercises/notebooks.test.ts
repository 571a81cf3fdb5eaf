// The exercise notebooks and their solutions: every self-check passes on the solution cells taken from
// loesung-N, fails (at least one ❌ per task) on the skeleton cells of aufgabe-N, and the two notebooks
// differ only in the marked cells and the strict flag of the checks. So "aufgabe-N with the solutions
// filled in" is exactly loesung-N, which CI executes under tslab (`npx tsx scripts/dev/run-notebooks.ts loesung`).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { type CheckReport } from "../../lib/exercises/index.js";
import { EXERCISE_CHECKS } from "../../lib/exercises/tasks.js";
import { releaseTransferResources } from "../../lib/exercises/transfer-resources.js";
import { checkCalls, loadMarkedFunctions, markerOf, notebookPairs, type Notebook } from "./notebook-cells.js";

const pairs = notebookPairs();
// The transfer checks open an index over the second text and a math server session on first use.
after(() => releaseTransferResources());
const quiet = { log: () => {} };

function failingCases(report: CheckReport): string {
  return report.cases
    .filter((c) => !c.ok)
    .map(
      (c) =>
        `  ✗ ${c.name}\n    ${c.input}\n    erwartet ${c.expected ?? "–"} / bekommen ${c.actual ?? "–"} / ${c.problem ?? ""}`,
    )
    .join("\n");
}

function name(nb: Notebook): string {
  return nb.file.split("/").pop() ?? nb.file;
}

for (const { part, exercise, solution } of pairs) {
  const checks = EXERCISE_CHECKS[part];
  const functionNames = checks.map((c) => c.set.functionName);

  describe(`Teil ${part}: ${name(exercise)} / ${name(solution)}`, () => {
    test("every self-check passes on the solution cells of the Lösung notebook", async () => {
      const fns = await loadMarkedFunctions(solution, "solution", functionNames);
      for (const check of checks) {
        const fn = fns[check.set.functionName];
        assert.equal(typeof fn, "function", `${name(solution)} defines ${check.set.functionName} in a // LÖSUNG cell`);
        const report = await check(fn as never, quiet);
        assert.ok(report.total >= 4, `${check.set.functionName} has at least 4 cases`);
        assert.equal(report.failed, 0, `${check.set.functionName} fails on the solution:\n${failingCases(report)}`);
      }
    });

    test("every self-check reports at least one ❌ on the empty skeletons of the Aufgabe notebook", async () => {
      const fns = await loadMarkedFunctions(exercise, "task", functionNames);
      for (const check of checks) {
        const fn = fns[check.set.functionName];
        assert.equal(
          typeof fn,
          "function",
          `${name(exercise)} defines a skeleton ${check.set.functionName} in a // AUFGABE cell`,
        );
        const lines: string[] = [];
        const report = await check(fn as never, { log: (l) => lines.push(l) });
        assert.ok(report.failed >= 1, `${check.set.functionName}: the skeleton must not pass every case`);
        assert.ok(
          lines.some((l) => l.startsWith("❌")),
          "the verdict shows ❌ lines",
        );
        assert.match(lines.at(-1) ?? "", /^Ergebnis: \d+ von \d+ Fällen bestanden/u);
      }
    });

    test("the two notebooks differ only in marked cells and in { strict: true }", () => {
      assert.equal(exercise.cells.length, solution.cells.length, "same number of cells");
      let marked = 0;
      exercise.cells.forEach((ex, i) => {
        const sol = solution.cells[i];
        assert.ok(sol, `cell ${i + 1} exists in both`);
        assert.equal(sol.type, ex.type, `cell ${i + 1}: same cell type`);
        const exMarker = markerOf(ex);
        const solMarker = markerOf(sol);
        if (exMarker !== undefined || solMarker !== undefined) {
          assert.equal(exMarker, "task", `cell ${i + 1}: marked AUFGABE in ${name(exercise)}`);
          assert.equal(solMarker, "solution", `cell ${i + 1}: marked LÖSUNG in ${name(solution)}`);
          marked++;
          return;
        }
        assert.ok(!ex.source.includes("strict: true"), `cell ${i + 1}: exercise checks only print (no strict)`);
        assert.equal(
          sol.source.replaceAll(", { strict: true })", ")"),
          ex.source,
          `cell ${i + 1}: identical apart from { strict: true }`,
        );
      });
      assert.ok(marked >= functionNames.length, "one marked cell per task at least");
    });

    test("each task has a skeleton, a solution and one check cell, in notebook order", () => {
      const exCalls = checkCalls(exercise);
      const solCalls = checkCalls(solution);
      assert.deepEqual(
        exCalls.map((c) => c.fn),
        functionNames,
        "check cells call the part's checks in order, each with the participant's function",
      );
      for (const [i, check] of checks.entries()) {
        const fn = check.set.functionName;
        assert.equal(exCalls[i]?.check, `check${fn[0]?.toUpperCase()}${fn.slice(1)}`);
        assert.equal(exCalls[i]?.strict, false, `${fn}: the exercise only prints`);
        assert.equal(solCalls[i]?.strict, true, `${fn}: the solution checks strictly`);
        const defines = (nb: Notebook, marker: "task" | "solution") =>
          nb.cells.some((c) => markerOf(c) === marker && new RegExp(`function ${fn}\\(`, "u").test(c.source));
        assert.ok(defines(exercise, "task"), `${fn}: skeleton in a // AUFGABE cell`);
        assert.ok(defines(solution, "solution"), `${fn}: solution in a // LÖSUNG cell`);
      }
    });

    test("one set-up cell with one lib call; committed without outputs; tslab kernel", () => {
      for (const nb of [exercise, solution]) {
        assert.equal(nb.kernel, "tslab");
        const code = nb.cells.filter((c) => c.type === "code");
        const setup = code[0]?.source ?? "";
        assert.match(
          setup,
          new RegExp(`^const kit = await setupPart${part}\\(\\);$`, "mu"),
          "first code cell: const kit = await setupPartN()",
        );
        assert.equal(setup.match(/\bawait\b/gu)?.length, 1, "the set-up cell makes exactly one (awaited) lib call");
        assert.equal(code.filter((c) => /setupPart\d\(/u.test(c.source)).length, 1, "only one set-up cell");
        for (const c of code) {
          assert.deepEqual(c.outputs, [], "no outputs committed");
          assert.equal(c.executionCount, null, "no execution counts committed");
        }
        assert.match(code.at(-1)?.source ?? "", /await kit\.close\(\);/u, "the last cell releases model/server");
      }
    });
  });
}
