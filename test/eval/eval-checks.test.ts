// The Modell-Check's pure parts: the task file and its German errors, number notations, the checkers on
// hand-made runs, and the statistics (pass^k, Wilson interval).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { checkRun, type EvalRun } from "../../lib/eval/checks.js";
import { mentionsNumber } from "../../lib/eval/checks.js";
import { passHatK, wilsonInterval } from "../../lib/eval/stats.js";
import {
  loadTaskSet,
  parseTaskSet,
  selectionText,
  selectTasks,
  TASK_CATEGORIES,
  TaskSetError,
} from "../../lib/eval/tasks.js";

const FILE = join(findProjectRoot(), "data", "eval", "agent-tasks.json");
const set = loadTaskSet(FILE);
const clone = () =>
  structuredClone(JSON.parse(JSON.stringify(set))) as { tasks: Record<string, unknown>[] } & Record<string, unknown>;

function taskSetError(value: unknown): TaskSetError {
  try {
    parseTaskSet(value, "aufgaben.json");
  } catch (error) {
    assert.ok(error instanceof TaskSetError, String(error));
    return error;
  }
  assert.fail("no TaskSetError");
}

describe("the task file", () => {
  test("at least 40 German tasks, every category at least four times, unique ids", () => {
    assert.ok(set.tasks.length >= 40, `${set.tasks.length} tasks`);
    for (const c of TASK_CATEGORIES) assert.ok(set.tasks.filter((t) => t.category === c).length >= 4, c);
    assert.equal(new Set(set.tasks.map((t) => t.id)).size, set.tasks.length);
  });

  test("an unknown category names the task and the field, in German", () => {
    const bad = clone();
    bad.tasks[3] = { ...bad.tasks[3], category: "wetterfrosch" };
    const error = taskSetError(bad);
    assert.equal(error.taskId, set.tasks[3]?.id);
    assert.equal(error.field, "category");
    assert.match(error.message, /unbekannte Kategorie „wetterfrosch“.*Erlaubt: ein-werkzeug/);
  });

  test("a missing field, a wrong type, an unknown field, a broken pattern and a duplicate id each name task and field", () => {
    const cases: [(t: Record<string, unknown>) => void, string][] = [
      [(t) => delete t.question, "question"],
      [(t) => ((t.expect as Record<string, unknown>).maxRounds = "drei"), "expect.maxRounds"],
      [(t) => ((t.expect as Record<string, unknown>).irgendwas = 1), "expect"],
      [(t) => ((t.expect as Record<string, unknown>).answerMatches = "(offen"), "expect.answerMatches"],
    ];
    for (const [mutate, field] of cases) {
      const bad = clone();
      mutate(bad.tasks[0]!);
      const error = taskSetError(bad);
      assert.equal(error.taskId, set.tasks[0]?.id, field);
      assert.equal(error.field, field);
      assert.match(error.message, new RegExp(`^Aufgabe „${set.tasks[0]?.id}“, Feld ${field.replace(".", "\\.")}`));
    }
    const dup = clone();
    dup.tasks[1] = { ...dup.tasks[1], id: set.tasks[0]?.id };
    assert.equal(taskSetError(dup).field, "id");
  });

  test("a bad file head, an unreadable file and an unknown --category are German errors too", () => {
    assert.match(
      taskSetError({ version: 1, today: "14.07.2025", tasks: [{}] }).message,
      /Feld today: Datum im Format JJJJ-MM-TT/,
    );
    assert.throws(
      () => loadTaskSet("/nicht/da.json"),
      (e: unknown) => e instanceof TaskSetError && /nicht lesbar/.test(e.message),
    );
    assert.throws(
      () => selectTasks(set, { category: "kettten" }),
      (e: unknown) => e instanceof TaskSetError && /Unbekannte Kategorie „kettten“/.test(e.message),
    );
    assert.equal(selectTasks(set, { category: "kette", limit: 2 }).length, 2);
    // --limit takes N of each category, and says so.
    const two = selectTasks(set, { limit: 2 });
    assert.deepEqual(
      TASK_CATEGORIES.map((c) => two.filter((t) => t.category === c).length),
      TASK_CATEGORIES.map(() => 2),
    );
    assert.equal(
      selectionText(set, two, { limit: 2 }),
      `je höchstens 2 Aufgaben aus jeder der 9 Kategorien (18 von ${set.tasks.length})`,
    );
    assert.equal(
      selectionText(set, selectTasks(set, { category: "kette", limit: 2 }), { category: "kette", limit: 2 }),
      "Kategorie „Kette ($ref)“: 2 von 5 Aufgaben",
    );
  });
});

describe("numbers in the answer", () => {
  test("German and English notation, whole tokens only", () => {
    assert.ok(mentionsNumber("bis 24,5 °C", 24.5));
    assert.ok(mentionsNumber("up to 24.5 °C", 24.5));
    assert.ok(mentionsNumber("Ergebnis: 1.264.403", 1264403));
    assert.ok(mentionsNumber("Ergebnis: 1,264,403", 1264403));
    assert.ok(mentionsNumber("−3 oder -3 Grad", -3));
    assert.ok(!mentionsNumber("bis 240 °C", 24));
    assert.ok(!mentionsNumber("bis 24,51 °C", 24.5));
    assert.ok(!mentionsNumber("2,45", 24.5));
  });
});

const task = set.tasks.find((t) => t.id === "wetter-kette-2")!;
const ctx = { today: set.today, tolerance: set.coordinateToleranceDeg };
const weather = { aggregates: { tmax_c: 27.4 } };
function run(overrides: Partial<EvalRun> = {}): EvalRun {
  return {
    answer: "Morgen in München bis 27,4 °C.",
    calls: [
      { name: "geocode", arguments: { destination: "München" }, ok: true, result: { lat: 48.1374, lon: 11.5755 } },
      {
        name: "get_weather",
        arguments: { lat: 48.1374, lon: 11.5755, start_date: "2025-07-15", end_date: "2025-07-15" },
        ok: true,
        result: weather,
      },
    ],
    warnings: [],
    rounds: 2,
    status: "answered",
    validPlans: 2,
    planReplies: 2,
    repairedRounds: 0,
    promptTokens: 0,
    ms: 0,
    ...overrides,
  };
}

describe("the checkers", () => {
  test("a right run passes; each wrong detail fails with a German reason", () => {
    assert.deepEqual(checkRun(task, run(), ctx).failures, []);
    const moved = run().calls.map((c) =>
      c.name === "get_weather" ? { ...c, arguments: { ...c.arguments, lat: 48.5 } } : c,
    );
    const cases: [Partial<EvalRun>, RegExp][] = [
      [{ calls: moved }, /get_weather mit falschen Argumenten: erwartet lat ≈ 48,1374 \(± 0,3\)/],
      [
        {
          calls: run().calls.map((c) =>
            c.name === "get_weather" ? { ...c, arguments: { ...c.arguments, start_date: "2025-07-14" } } : c,
          ),
        },
        /start_date 2025-07-15/,
      ],
      [{ answer: "Morgen wird es warm." }, /Fakt get_weather\.aggregates\.tmax_c = 27,4 fehlt/],
      [
        { calls: [...run().calls, { name: "save_trip_plan", arguments: {}, ok: false }] },
        /Verbotener Aufruf save_trip_plan/,
      ],
      [{ rounds: 5 }, /5 Runden, erlaubt 4/],
      [{ warnings: ["Zahl 31 nicht belegt."] }, /Belegprüfung warnt/],
      [{ status: "max_iterations" }, /Status max_iterations/],
      [{ calls: run().calls.slice(1) }, /Aufruf geocode fehlt/],
    ];
    for (const [overrides, reason] of cases) {
      const check = checkRun(task, run(overrides), ctx);
      assert.equal(check.pass, false, String(reason));
      assert.match(check.failures.join(" "), reason);
    }
  });
});

describe("statistics", () => {
  test("pass^k is C(c,k)/C(n,k): 1 only when all k of k runs pass", () => {
    assert.equal(passHatK(3, 3, 3), 1);
    assert.equal(passHatK(2, 3, 3), 0);
    assert.equal(passHatK(4, 5, 3), 0.4);
    assert.equal(passHatK(5, 5, 1), 1);
  });

  test("the Wilson interval holds the rate and narrows with n", () => {
    const small = wilsonInterval(8, 10);
    const large = wilsonInterval(800, 1000);
    assert.ok(small.low < 0.8 && small.high > 0.8);
    assert.ok(large.high - large.low < small.high - small.low);
    assert.ok(Math.abs(wilsonInterval(0, 20).low) < 1e-12 && wilsonInterval(0, 20).high > 0.1);
  });
});
