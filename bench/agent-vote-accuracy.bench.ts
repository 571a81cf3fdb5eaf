// Teil 4 benchmark: how much voting lowers the error rate of a planner that is right with probability p.
// The noisy scripted planner answers correctly with probability p, otherwise with one of W = 3 plausible
// wrong answers (uniform), so wrong runs may agree or split. Each trial votes with the runner's own
// decision functions (normalizeAnswer → outcomeKey → voteDecided/decideVote); a sample of trials also
// goes through the full runVote (runAgent per run) and must decide identically.
// Predictions: "binomial" assumes every wrong answer has the same key (worst case: a wrong result wins
// whenever fewer than half the runs are right); "exact" enumerates the multinomial for W = 3 wrong keys.
import { decideVote, outcomeKey, runVote, voteDecided, type VoteRule } from "../lib/patterns/index.js";
import { noisyAnswer, noisyPlanner, type NoisyPlannerOptions } from "../lib/testing/index.js";
import { printMarkdownTable } from "./markdown-table.js";

const TRIALS = Number(process.env.VOTE_TRIALS ?? 2000);
const CHECKED = 40;
const WRONG = ["Morgen 15 °C in Barcelona.", "Morgen 9 °C in Barcelona.", "Morgen 12,5 °C in Madrid."];
const CORRECT = "Morgen 12,5 °C in Barcelona.";
const correctKey = outcomeKey(CORRECT, []);

function simulate(options: NoisyPlannerOptions, k: number, rule: VoteRule, baseSeed: number) {
  const keys: (string | null)[] = [];
  while (!voteDecided(keys, k, rule, 2)) keys.push(outcomeKey(noisyAnswer(options, baseSeed + keys.length).text, []));
  return { decision: decideVote(keys), runs: keys.length, keys };
}

const choose = (n: number, r: number): number => (r < 0 || r > n ? 0 : r === 0 ? 1 : (choose(n - 1, r - 1) * n) / r);

/** Exact majority outcome probabilities for k runs, p correct, W wrong keys equally likely. */
function exactMajority(k: number, p: number, w: number): { error: number; tie: number } {
  let error = 0;
  let tie = 0;
  const q = (1 - p) / w;
  const visit = (counts: number[], left: number, prob: number) => {
    if (counts.length === w + 1) {
      if (left !== 0) return;
      const top = Math.max(...counts);
      const leaders = counts.filter((c) => c === top).length;
      if (leaders > 1) tie += prob;
      else if (counts[0] !== top) error += prob;
      return;
    }
    for (let c = 0; c <= left; c++)
      visit([...counts, c], left - c, prob * choose(left, c) * (counts.length === 0 ? p : q) ** c);
  };
  visit([], k, 1);
  return { error, tie };
}

/** Worst case: all wrong answers share a key (two outcomes, no ties for odd k). */
function binomialError(k: number, p: number): number {
  let error = 0;
  for (let right = 0; right <= Math.floor((k - 1) / 2); right++)
    error += choose(k, right) * p ** right * (1 - p) ** (k - right);
  return error;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const catalog: never[] = [];
const tools = {
  listTools: async () => catalog,
  callTool: async () => ({ isError: true, data: null, text: "keine Tools" }),
  close: async () => {},
};
let checked = 0;
const body: string[][] = [];
for (const p of [0.6, 0.8, 0.9]) {
  for (const k of [1, 3, 5, 7]) {
    const row = { majority: { error: 0, tie: 0, runs: 0 }, ahead: { error: 0, tie: 0, runs: 0 } };
    for (let trial = 0; trial < TRIALS; trial++) {
      const options: NoisyPlannerOptions = {
        p,
        correct: CORRECT,
        wrong: WRONG,
        salt: trial * 7919 + k * 31 + Math.round(p * 100),
      };
      for (const [rule, into] of [
        ["majority", row.majority],
        ["ahead-by", row.ahead],
      ] as const) {
        const sim = simulate(options, k, rule, 1);
        into.runs += sim.runs;
        if (sim.decision.winner === null) into.tie++;
        else if (sim.decision.winner !== correctKey) into.error++;
        if (trial < CHECKED && k > 1) {
          const full = await runVote({
            question: "Wetter morgen in Barcelona?",
            tools,
            catalog,
            k,
            rule,
            llmForRun: noisyPlanner(options),
          });
          if (full.decision.winner !== sim.decision.winner || full.runsUsed !== sim.runs)
            throw new Error(`runVote differs from the simulation (p ${p}, k ${k}, trial ${trial})`);
          checked++;
        }
      }
    }
    const exact = exactMajority(k, p, WRONG.length);
    body.push([
      `p ${p}, k ${k}`,
      pct(row.majority.error / TRIALS),
      pct(row.majority.tie / TRIALS),
      pct(exact.error),
      pct(exact.tie),
      pct(binomialError(k, p)),
      pct(row.ahead.error / TRIALS),
      pct(row.ahead.tie / TRIALS),
      (row.majority.runs / TRIALS).toFixed(2),
      (row.ahead.runs / TRIALS).toFixed(2),
    ]);
  }
}
console.log(
  `${TRIALS} trials per row; wrong answers: ${WRONG.length} keys (uniform); ${checked} trials re-run through runVote, identical.`,
);
printMarkdownTable(
  [
    "",
    "maj. error",
    "maj. tie",
    "exact error",
    "exact tie",
    "binomial error",
    "ahead-2 error",
    "ahead-2 tie",
    "maj. runs",
    "ahead-2 runs",
  ],
  body,
);
