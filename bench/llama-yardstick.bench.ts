// Raw llama.cpp as the yardstick: `llama-bench` and node-llama-cpp on the same GGUF, the same threads and
// the same prompt / generation lengths. Goal: node-llama-cpp reaches ≥ 0.95× of llama.cpp's tokens/s.
// Both are the same llama.cpp commit (the bench binary is built from node-llama-cpp's own source bundle).
// What differs by construction: llama-bench's tg decodes tokens without sampling; node-llama-cpp samples each
// token (its sampler chain) and goes through its JS ↔ addon boundary once per token; its prebuilt CPU binary
// is generic x86-64 while npm run llama:build compiles with -march=native (GGML_NATIVE).
//
// npm run bench -- yardstick      Env: YARDSTICK_MODEL (default: LLM_MODEL_PATH, else the tiny GGUF),
//   YARDSTICK_THREADS=1, YARDSTICK_PROMPT=512, YARDSTICK_GEN=64, YARDSTICK_REPS=3
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { tinyModelPaths } from "../lib/config.js";
import { findLlamaTools } from "../scripts/dev/llama-build.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportGoal } from "./summary.js";

const env = process.env;
const MODEL = env.YARDSTICK_MODEL || env.LLM_MODEL_PATH || tinyModelPaths().gguf;
const THREADS = Number(env.YARDSTICK_THREADS ?? 1);
const PROMPT = Number(env.YARDSTICK_PROMPT ?? 512);
const GEN = Number(env.YARDSTICK_GEN ?? 64);
const REPS = Number(env.YARDSTICK_REPS ?? 3);
const BATCH = 512;
/** On the 0.5 MB test model a whole pp512 takes ~15 ms: fixed per-call costs dominate, so the goal is judged on real-sized GGUFs only. */
const TINY = MODEL === tinyModelPaths().gguf;

interface Speed {
  pp: number;
  tg: number;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** llama-bench's own figures (JSON output: avg_ts per test). */
function llamaBench(bin: string): Speed {
  const out = execFileSync(
    join(bin, "llama-bench"),
    [
      "-m",
      MODEL,
      "-t",
      String(THREADS),
      "-p",
      String(PROMPT),
      "-n",
      String(GEN),
      "-r",
      String(REPS),
      "-b",
      String(BATCH),
      "-ub",
      String(BATCH),
      "-ngl",
      "0",
      "-o",
      "json",
    ],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
  const tests = JSON.parse(out) as { n_prompt: number; n_gen: number; avg_ts: number }[];
  return { pp: tests.find((t) => t.n_prompt > 0)!.avg_ts, tg: tests.find((t) => t.n_gen > 0)!.avg_ts };
}

/** node-llama-cpp: the same prompt length evaluated in one go, then GEN tokens generated from an empty context. */
async function nodeLlamaCpp(): Promise<Speed> {
  const { getLlama } = await import("node-llama-cpp");
  const llama = await getLlama({ gpu: false, build: "never", maxThreads: THREADS });
  const model = await llama.loadModel({ modelPath: MODEL });
  const context = await model.createContext({ contextSize: PROMPT + GEN + 16, batchSize: BATCH, threads: THREADS });
  const pp: number[] = [];
  const tg: number[] = [];
  try {
    const vocab = model.tokenize("Reiseplanung für Barcelona, Lissabon und Rom. ".repeat(PROMPT));
    for (let r = 0; r < REPS; r++) {
      const seq = context.getSequence();
      let t = performance.now();
      await seq.evaluateWithoutGeneratingNewTokens(vocab.slice(0, PROMPT));
      pp.push(PROMPT / ((performance.now() - t) / 1000));
      await seq.clearHistory();
      t = performance.now();
      let n = 0;
      for await (const token of seq.evaluate([model.tokens.bos ?? vocab[0]!], { temperature: 0 })) {
        void token;
        if (++n >= GEN) break;
      }
      tg.push(GEN / ((performance.now() - t) / 1000));
      await seq.dispose();
    }
  } finally {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  }
  return { pp: median(pp), tg: median(tg) };
}

const tools = findLlamaTools();
if (!("bin" in tools)) {
  console.log(`yardstick: skipped: no llama-bench (${tools.missing})`);
  reportGoal({
    metric: "node-llama-cpp vs llama-bench",
    goal: "≥ 0.95×",
    measured: `skipped: no llama-bench (${tools.missing})`,
    met: undefined,
  });
} else {
  const raw = llamaBench(tools.bin);
  const ours = await nodeLlamaCpp();
  printMarkdownTable(
    ["", `pp${PROMPT} tokens/s`, `tg${GEN} tokens/s`],
    [
      ["llama-bench (llama.cpp)", raw.pp.toFixed(1), raw.tg.toFixed(1)],
      ["node-llama-cpp", ours.pp.toFixed(1), ours.tg.toFixed(1)],
      ["ratio", (ours.pp / raw.pp).toFixed(2), (ours.tg / raw.tg).toFixed(2)],
    ],
  );
  const label = `${MODEL.split("/").pop()}, -t ${THREADS}`;
  for (const [kind, a, b] of [
    ["prompt", ours.pp, raw.pp],
    ["generation", ours.tg, raw.tg],
  ] as const) {
    reportGoal({
      metric: `node-llama-cpp / llama-bench, ${kind} (${label})`,
      goal: "≥ 0.95×",
      measured: `${(a / b).toFixed(2)}× (${a.toFixed(0)} vs ${b.toFixed(0)} tokens/s)${TINY ? ", tiny model: per-call overhead only" : ""}`,
      met: TINY ? undefined : a / b >= 0.95,
    });
  }
}
