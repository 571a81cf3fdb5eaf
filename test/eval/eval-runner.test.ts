// The checkers proven on real runs: runAgent against the real offline travel and math servers
// (subprocesses), with the oracle (each task's correct plan), scripted mistakes and a noisy oracle.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { McpToolClient, startMathServer, startTravelServer, type ServerHandle } from "../../lib/mcp/index.js";
import { groupFigures, runEvaluation, type EvalReport } from "../../lib/eval/index.js";
import { loadTaskSet, TASK_CATEGORIES, type EvalTask } from "../../lib/eval/tasks.js";
import { wilsonInterval } from "../../lib/eval/stats.js";
import { MISTAKES, noisyOracle, oraclePlanner, withMistake, type Mistake } from "../../lib/testing/eval-oracle.js";
import { ScriptedLlm, type ScriptedRequest } from "../../lib/testing/scripted-llm.js";

const set = loadTaskSet(join(findProjectRoot(), "data", "eval", "agent-tasks.json"));
const servers: ServerHandle[] = [];
let tools: { reise: McpToolClient; mathe: McpToolClient };
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "eval-runner-"));
  const [travel, math] = await Promise.all([
    startTravelServer({
      offline: true,
      timeoutMs: 60_000,
      env: { TRAVEL_TODAY: set.today, TRAVEL_WORKSPACE_DIR: dir },
    }),
    startMathServer({ timeoutMs: 60_000 }),
  ]);
  servers.push(travel, math);
  tools = { reise: await McpToolClient.connect(travel.url), mathe: await McpToolClient.connect(math.url) };
});

after(async () => {
  await tools?.reise.close();
  await tools?.mathe.close();
  for (const s of servers) await s.stop();
  await rm(dir, { recursive: true, force: true });
});

const evaluate = (
  tasks: readonly EvalTask[],
  planner: (task: EvalTask, seed: number) => ReturnType<typeof oraclePlanner>,
  k = 1,
) => runEvaluation({ set, tasks, k, style: "plan", tools, planner });

const failing = (report: EvalReport) => report.tasks.filter((t) => t.passes < t.runs).map((t) => t.id);

describe("the evaluation on the real servers", () => {
  let oracle: EvalReport;

  test("the oracle passes every task (the checkers accept right behaviour)", async () => {
    oracle = await evaluate(set.tasks, (task) => oraclePlanner(task.oracle));
    const failures = oracle.tasks.flatMap((t) => t.failures.map((f) => `${t.id}: ${f.reasons.join(" ")}`));
    assert.deepEqual(failures, []);
    assert.equal(oracle.summary.passAt1, 1);
    assert.equal(oracle.summary.tasks, set.tasks.length);
    assert.deepEqual(oracle.summary.categories, [...TASK_CATEGORIES]);
    assert.equal(oracle.summary.planValidity, 1);
  });

  test("the report's figures are recomputed from its JSON", () => {
    const json = JSON.parse(JSON.stringify(oracle)) as EvalReport;
    assert.deepEqual(groupFigures(json.tasks), (({ categories: _c, k: _k, ...g }) => g)(json.summary));
    const byHand = json.tasks.reduce((n, t) => n + t.passes / t.runs, 0) / json.tasks.length;
    assert.equal(json.summary.passAt1, byHand);
    for (const c of json.categories) assert.equal(c.tasks, json.tasks.filter((t) => t.category === c.category).length);
  });

  test("each scripted mistake fails exactly the tasks it applies to", async () => {
    // One task per category keeps this quick; every mistake applies to some of them and not to others.
    const sample = TASK_CATEGORIES.map((c) => set.tasks.find((t) => t.category === c)!);
    const applies = new Map<Mistake, string[]>();
    for (const mistake of MISTAKES) {
      const expected = sample.filter((t) => withMistake(t, mistake) !== null).map((t) => t.id);
      applies.set(mistake, expected);
      assert.ok(expected.length > 0, `${mistake} applies to no task`);
      const report = await evaluate(sample, (task) => oraclePlanner(withMistake(task, mistake) ?? task.oracle));
      assert.deepEqual(failing(report), expected, mistake);
    }
    assert.deepEqual(applies.get("tool-where-none-fits"), ["kein-werkzeug-1"]);
    assert.ok(!applies.get("unapproved-write")?.includes("schreiben-1"));
  });

  test("an invalid plan repaired by validation feedback counts as repaired; with --ablation feedback it is not repaired", async () => {
    const task = set.tasks.find((t) => t.id === "wetter-kette-1")!;
    const broken = withMistake(task, "missing-ref")!;
    // Fixes its plan only when the feedback names the broken reference, as a model reading it would.
    const planner = () => {
      const good = oraclePlanner(task.oracle);
      let fixed = false;
      const reply = (request: ScriptedRequest) => {
        fixed ||= (request.messages.at(-1)?.content ?? "").includes("gibt_es_nicht");
        if (!fixed) return { steps: broken.steps, final: null };
        return good.llm.generateJson<Record<string, unknown>>({}, request.messages);
      };
      return { llm: new ScriptedLlm([reply], { whenExhausted: "repeat-last" }), onEvent: good.onEvent };
    };
    const withFeedback = await runEvaluation({ set, tasks: [task], k: 1, style: "plan", tools, planner });
    assert.deepEqual([withFeedback.tasks[0]?.passes, withFeedback.summary.repairedRounds], [1, 1]);
    assert.equal(withFeedback.summary.planValidity, 2 / 3, "broken, repaired, answer");
    const blind = await runEvaluation({
      set,
      tasks: [task],
      k: 1,
      style: "plan",
      tools,
      planner,
      ablation: "feedback",
    });
    assert.deepEqual([blind.tasks[0]?.passes, blind.summary.repairedRounds], [0, 0]);
    assert.match(blind.tasks[0]?.failures[0]?.reasons.join(" ") ?? "", /Status max_iterations/);
  });

  test("a noisy oracle with success p per run gives pass^k within the binomial interval of p^k (seeded)", async () => {
    const p = 0.75;
    const k = 3;
    let correctRuns = 0;
    const report = await evaluate(
      set.tasks,
      (task, seed) => {
        const { planner, correct } = noisyOracle(task, seed, p);
        if (correct) correctRuns++;
        return planner;
      },
      k,
    );
    const n = set.tasks.length;
    const allPassed = report.tasks.filter((t) => t.passes === t.runs).length;
    assert.equal(
      allPassed,
      Math.round(report.summary.passK * n),
      "pass^k over n = k is the share of tasks with k of k",
    );
    assert.equal(
      report.tasks.reduce((s, t) => s + t.passes, 0),
      correctRuns,
      "a run passes exactly when it was the correct one",
    );
    const interval = wilsonInterval(allPassed, n);
    assert.ok(
      interval.low <= p ** k && p ** k <= interval.high,
      `p^k ${p ** k} outside [${interval.low}, ${interval.high}] (${allPassed}/${n})`,
    );
    assert.ok(report.summary.passK < report.summary.passAt1, "pass^k below pass@1");
  });
});
