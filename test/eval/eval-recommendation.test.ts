// The comparison's recommendation sentence (pure): the better model with the category it leads most and its
// speed, the faster one when both are about as good, never the self-test; old reports' model names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { comparedRun, comparisonRows, recommendation } from "../../lib/eval/compare.js";
import { buildReport, type EvalReport, type RunMeta, type TaskReport } from "../../lib/eval/report.js";
import { SELF_TEST_LABEL } from "../../lib/eval/run-meta.js";
import type { TaskCategory } from "../../lib/eval/tasks.js";

/** A report whose tasks pass `passes` of 4 runs per category, each run taking `seconds`. */
function report(meta: Partial<RunMeta>, passes: Partial<Record<TaskCategory, number>>, seconds: number): EvalReport {
  const tasks: TaskReport[] = Object.entries(passes).map(([category, n]) => ({
    id: `${category}-1`,
    category: category as TaskCategory,
    runs: [0, 1, 2, 3].map((r) => ({
      seed: r,
      check: { pass: r < n!, failures: r < n! ? [] : ["Aufruf geocode fehlt."], refused: false },
      run: {
        answer: "",
        calls: [],
        warnings: [],
        rounds: 1,
        status: "answered",
        validPlans: 1,
        planReplies: 1,
        repairedRounds: 0,
        promptTokens: 100,
        ms: seconds * 1000,
      },
    })),
  }));
  return buildReport(tasks, { k: 4, style: "plan", complete: true, ...meta });
}

const qwen = report(
  { backend: "node-llama-cpp", model: "models/Qwen2.5-7B-Instruct-Q4_K_M.gguf", modelBytes: 4_683_073_504 },
  { "ein-werkzeug": 4, kette: 3, parallel: 4 },
  16,
);
const llama = report(
  { backend: "node-llama-cpp", model: "models/Llama-3.2-3B-Instruct-Q4_K_M.gguf", modelBytes: 2_019_377_696 },
  { "ein-werkzeug": 4, kette: 1, parallel: 3 },
  10,
);
const oracle = report({ backend: "oracle", selfTest: true }, { "ein-werkzeug": 4, kette: 4, parallel: 4 }, 0.1);

test("the better model, its biggest lead by category and how much slower it is", () => {
  const runs = [oracle, llama, qwen].map(comparedRun);
  const advice = recommendation(runs);
  assert.equal(advice.index, 2);
  assert.equal(
    advice.text,
    "Empfehlung für den Workshop: Qwen2.5-7B-Instruct-Q4_K_M – 75 % statt 25 % bei „Kette ($ref)“, gesamt 92 % statt 67 % gegenüber " +
      "Llama-3.2-3B-Instruct-Q4_K_M, aber langsamer: 16 statt 10 Sekunden je Antwort in Teil 4 (auf dem Rechner des Laufs); " +
      "Speicher für das Modell: 4,7 GB statt 2,0 GB. Der Selbsttest des Prüfstands ist kein Modell und zählt nicht.",
  );
  assert.deepEqual(
    runs.map((r) => r.label),
    [SELF_TEST_LABEL, "Llama-3.2-3B-Instruct-Q4_K_M", "Qwen2.5-7B-Instruct-Q4_K_M"],
  );
  assert.deepEqual(
    comparisonRows(runs).map((r) => r.label),
    ["Ein Werkzeug", "Kette ($ref)", "Parallel", "Gesamt"],
  );
});

test("about as good and clearly faster: the faster model; when even the best passes under half, none", () => {
  const fast = report({ backend: "node-llama-cpp", model: "models/schnell.gguf" }, { kette: 3 }, 5);
  const slow = report({ backend: "node-llama-cpp", model: "models/langsam.gguf" }, { kette: 3 }, 12);
  assert.equal(
    recommendation([slow, fast].map(comparedRun)).text,
    "Empfehlung für den Workshop: schnell – so gut wie langsam (beide 75 % bestanden) und schneller: 5,0 statt 12 Sekunden je Antwort in Teil 4 (auf dem Rechner des Laufs).",
  );
  const nearly = report(
    { backend: "node-llama-cpp", model: "models/fast-so-gut.gguf" },
    { kette: 3, parallel: 4, rag: 4, rueckfrage: 4, schreiben: 4, folgefrage: 4 },
    5,
  );
  const best = report(
    { backend: "node-llama-cpp", model: "models/gruendlich.gguf" },
    { kette: 4, parallel: 4, rag: 4, rueckfrage: 4, schreiben: 4, folgefrage: 4 },
    9,
  );
  assert.equal(
    recommendation([best, nearly].map(comparedRun)).text,
    "Empfehlung für den Workshop: fast-so-gut – fast so gut wie gruendlich (96 % statt 100 % bestanden), aber schneller: 5,0 statt 9,0 Sekunden je Antwort in Teil 4 (auf dem Rechner des Laufs).",
  );
  const weak = report({ backend: "node-llama-cpp", model: "models/a.gguf" }, { kette: 1 }, 5);
  const weaker = report({ backend: "node-llama-cpp", model: "models/b.gguf" }, { kette: 0 }, 5);
  const none = recommendation([weak, weaker].map(comparedRun));
  assert.equal(none.index, undefined);
  assert.match(
    none.text,
    /^Keine Empfehlung: auch das beste Modell im Vergleich, a, besteht nur 25 %\. Für Teil 4 den Klassen-Server erwägen/,
  );
});

test("only the self-test, or one weak model: no recommendation; an old report's backend string still names its model", () => {
  const tiny = report(
    { backend: "node-llama-cpp", model: "models/tiny/tiny-llama.gguf" },
    { kette: 0, parallel: 1 },
    3,
  );
  const alone = recommendation([oracle, tiny].map(comparedRun));
  assert.equal(alone.index, undefined);
  assert.match(
    alone.text,
    /^Keine Empfehlung: tiny-llama, das einzige Modell im Vergleich, besteht nur 13 %\. Für Teil 4 den Klassen-Server erwägen/,
  );
  assert.equal(recommendation([comparedRun(oracle)]).index, undefined);
  assert.match(recommendation([comparedRun(oracle)]).text, /^Keine Empfehlung: im Vergleich ist nur der Selbsttest/);
  const old = report(
    { backend: "node-llama-cpp /home/kurs/models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf" },
    { kette: 2 },
    3,
  );
  assert.equal(comparedRun(old).label, "Meta-Llama-3.1-8B-Instruct-Q4_K_M");
});

test("a run of 1–9 tasks is too small to decide on: the 95 % interval per model and how many tasks it takes", async () => {
  const { smallRunNote } = await import("../../lib/display/eval.js");
  const one = report({ backend: "node-llama-cpp", model: "models/a.gguf" }, { kette: 3 }, 5);
  const other = report({ backend: "node-llama-cpp", model: "models/b.gguf" }, { kette: 1 }, 5);
  const note = smallRunNote([one, other].map(comparedRun));
  assert.match(
    note,
    /^Nur 1 Aufgabe – zu wenig für eine Entscheidung\. Mit 95 % Sicherheit liegt „klappt beim ersten Versuch“ bei a: zwischen \d+ % und \d+ %; b: zwischen \d+ % und \d+ %\. Für eine Entscheidung braucht es etwa \d+ Aufgaben/,
  );
  assert.equal(smallRunNote([qwen, llama].map(comparedRun)).startsWith("Nur 3 Aufgaben"), true);
  const kette = report({}, { kette: 3 }, 5).tasks[0]!;
  const ten = {
    ...one,
    summary: { ...one.summary, tasks: 10 },
    tasks: Array.from({ length: 10 }, (_, i) => ({ ...kette, id: `kette-${i}` })),
  };
  assert.equal(smallRunNote([comparedRun(ten)]), "", "10 tasks and more: no such note");
  assert.equal(smallRunNote([comparedRun(oracle)]), "", "the self-test is no model");
});

test("the comparison page warns when models ran in different styles; the self-test's own k is no 'different k'", async () => {
  const { evalComparePage } = await import("../../lib/display/eval-compare.js");
  const oracleK1 = buildReport(
    oracle.tasks.map(() => ({ id: "kette-1", category: "kette" as const, runs: [] })).slice(0, 0),
    { k: 1, style: "plan", complete: true, backend: "oracle", selfTest: true },
  );
  const page = evalComparePage([oracleK1, llama, qwen].map(comparedRun));
  assert.doesNotMatch(page, /verschieden viele Versuche/);
  assert.doesNotMatch(page, /verschiedenen Stilen/);
  const half = { ...llama, meta: { ...llama.meta, style: "half" as const } };
  assert.match(evalComparePage([half, qwen].map(comparedRun)), /Die Modelle liefen in verschiedenen Stilen/);
  const k2 = { ...llama, summary: { ...llama.summary, k: 2 } };
  assert.match(
    evalComparePage([k2, qwen].map(comparedRun)),
    /Die Modelle hatten verschieden viele Versuche je Aufgabe/,
  );
});
