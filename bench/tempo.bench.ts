// Issue 25: speed of the menu models on this machine, measured on their speed twins (random weights,
// exact shapes, Q4_K_M; scripts/dev/twins/). Per twin, in its own process (so peak RSS is the model's):
// prompt tokens/s (512-token prompt) and generation tokens/s (32 tokens, end tokens ignored) on the
// CPU and on any GPU backend node-llama-cpp finds; seconds to the first plan with the real planner
// prompt and plan grammar (lib's loadLocalLlm + generateJson, as the agent calls it; random weights
// write no sensible plan, so generation stops after a real plan's token count); the planner
// prefix's saved KV state: file size, load vs evaluate. Twins are cached in .cache/twins.
// Threads: the kit's default on this machine (llama.cpp's math cores) or BENCH_THREADS (bench/threads.ts).
// Then `doctor --tempo`'s check runs once (it writes and measures its own 1B twin) and its prediction for each measured
// twin stands next to the measurement: the check is only as good as that agreement.
//   BENCH_TWINS=llama-3.2-1b,llama-3.2-3b   which twins (default: the 1B; the 8B only when named)
//   BENCH_TEMPO_DOCTOR=0                    skip the doctor comparison
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyLlamaThreads, LlmOutputError, loadLocalLlm } from "../lib/llm/index.js";
import { getKitLlama } from "../lib/llm/llama.js";
import { errorText } from "../lib/util.js";
import { runTempo } from "../scripts/dev/twins/doctor-tempo.js";
import { plannerCall } from "../scripts/dev/twins/first-answer.js";
import { measureSpeed, type SpeedResult } from "../scripts/dev/twins/measure.js";
import { twinShape } from "../scripts/dev/twins/shapes.js";
import { cachedTwin } from "../scripts/dev/twins/main.js";
import { printMarkdownTable } from "./markdown-table.js";
import { BENCH_THREADS } from "./threads.js";
import { reportGoal } from "./summary.js";

interface TwinResult {
  id: string;
  speeds: SpeedResult[];
  plan: { seconds: number; promptTokens: number; generatedTokens: number; outcome: string };
  state: { bytes: number; tokens: number; evaluateMs: number; loadMs: number };
  peakRssBytes: number;
}

/** Child process: everything for one twin. */
async function measureTwin(id: string, path: string): Promise<TwinResult> {
  const speeds: SpeedResult[] = [];
  const cpu = await getKitLlama("cpu");
  const threads = applyLlamaThreads(cpu, BENCH_THREADS);
  speeds.push(await measureSpeed(cpu, path, { threads }));
  await cpu.dispose();
  const auto = await getKitLlama("auto");
  if (auto.gpu !== false) speeds.push(await measureSpeed(auto, path, { gpuLayers: "max" }));
  await auto.dispose();

  const call = await plannerCall();
  const stateDir = mkdtempSync(join(tmpdir(), "tempo-state-"));
  try {
    const llm = await loadLocalLlm({
      modelPath: path,
      gpu: "cpu",
      contextSize: 4096,
      promptStateDir: stateDir,
      threads,
    });
    const started = performance.now();
    let outcome = "plan";
    try {
      await llm.generateJson(call.schema, call.messages, { maxTokens: call.planTokens, jsonAttempts: 1, seed: 1 });
    } catch (err) {
      outcome =
        err instanceof LlmOutputError
          ? `stopped after ${call.planTokens} tokens`
          : `failed: ${errorText(err).slice(0, 80)}`;
    }
    const seconds = (performance.now() - started) / 1000;
    const meter = llm.lastMeter;
    const saved = llm.lastPromptState;
    await llm.dispose();
    const again = await loadLocalLlm({
      modelPath: path,
      gpu: "cpu",
      contextSize: 4096,
      promptStateDir: stateDir,
      threads,
    });
    await again.chat(call.messages, { maxTokens: 1 });
    const loaded = again.lastPromptState;
    await again.dispose();
    if (saved?.action !== "saved" || loaded?.action !== "loaded")
      throw new Error(`prompt state: expected saved then loaded, got ${saved?.action}, ${loaded?.action}`);
    return {
      id,
      speeds,
      plan: {
        seconds,
        promptTokens: (meter?.promptTokensEvaluated ?? 0) + (meter?.promptTokensReused ?? 0),
        generatedTokens: meter?.generatedTokens ?? 0,
        outcome,
      },
      state: { bytes: saved.bytes, tokens: saved.tokens, evaluateMs: saved.evaluateMs ?? 0, loadMs: loaded.ms },
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const childAt = process.argv.indexOf("--twin");
if (childAt >= 0) {
  const [id, path] = [process.argv[childAt + 1] ?? "", process.argv[childAt + 2] ?? ""];
  console.log(`RESULT ${JSON.stringify(await measureTwin(id, path))}`);
} else {
  const ids = (process.env.BENCH_TWINS ?? "llama-3.2-1b")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;
  const rows: string[][] = [];
  const measured: TwinResult[] = [];
  for (const id of ids) {
    if (!twinShape(id)) throw new Error(`unknown twin ${id}`);
    const twin = await cachedTwin(id);
    const written =
      twin.writeMs !== undefined
        ? `written in ${(twin.writeMs / 1000).toFixed(1)} s, ${mb(twin.bytes ?? 0)}`
        : "cached";
    const started = performance.now();
    const child = spawnSync(process.execPath, ["--import", "tsx", process.argv[1] ?? "", "--twin", id, twin.path], {
      encoding: "utf8",
      maxBuffer: 1 << 24,
    });
    const line = child.stdout.split("\n").find((l) => l.startsWith("RESULT "));
    if (child.status !== 0 || !line)
      throw new Error(`${id}: measurement failed (${child.status}): ${child.stderr.slice(-2000)}`);
    const r = JSON.parse(line.slice("RESULT ".length)) as TwinResult;
    measured.push(r);
    const wallS = (performance.now() - started) / 1000;
    for (const s of r.speeds) {
      rows.push([
        id,
        s.backend,
        s.backend === "cpu" ? String(s.threads) : "–",
        s.promptTokensPerSecond.toFixed(1),
        s.generationTokensPerSecond.toFixed(1),
        String(s.gpuLayers),
      ]);
      reportGoal({
        metric: `twin ${id} (${s.backend}): prompt / generation tokens/s`,
        goal: "measured",
        measured: `${s.promptTokensPerSecond.toFixed(1)} / ${s.generationTokensPerSecond.toFixed(1)} (pp${s.promptTokens}, tg${s.generatedTokens}${s.backend === "cpu" ? `, ${s.threads} threads` : ""})`,
        met: undefined,
      });
    }
    console.log(`\n${id}: twin ${written}; ${wallS.toFixed(0)} s to measure; peak RSS ${mb(r.peakRssBytes)}`);
    console.log(
      `first plan (cpu): ${r.plan.seconds.toFixed(1)} s for ${r.plan.promptTokens} prompt tokens + ${r.plan.generatedTokens} generated (${r.plan.outcome})`,
    );
    console.log(
      `planner prefix state: ${r.state.tokens} tokens, ${mb(r.state.bytes)}, load ${r.state.loadMs.toFixed(0)} ms vs evaluate ${r.state.evaluateMs.toFixed(0)} ms`,
    );
    reportGoal({
      metric: `twin ${id} (cpu): seconds to the first plan`,
      goal: "measured",
      measured: `${r.plan.seconds.toFixed(1)} s (${r.plan.promptTokens} prompt + ${r.plan.generatedTokens} generated tokens; ${r.plan.outcome})`,
      met: undefined,
    });
    reportGoal({
      metric: `twin ${id}: planner prefix state load vs evaluate`,
      goal: "load < evaluate",
      measured: `${r.state.loadMs.toFixed(0)} vs ${r.state.evaluateMs.toFixed(0)} ms (${r.state.tokens} tokens, ${mb(r.state.bytes)})`,
      met: r.state.loadMs < r.state.evaluateMs,
    });
    reportGoal({
      metric: `twin ${id}: peak RSS / twin file`,
      goal: "measured",
      measured: `${mb(r.peakRssBytes)} / ${mb(statSync(twin.path).size)} (${written})`,
      met: undefined,
    });
    if (id === "llama-3.2-1b")
      reportGoal({
        metric: "tempo bench, 1B twin: wall time",
        goal: "≤ 180 s",
        measured: `${(wallS + (twin.writeMs ?? 0) / 1000).toFixed(0)} s`,
        met: wallS + (twin.writeMs ?? 0) / 1000 <= 180,
      });
  }
  console.log("");
  printMarkdownTable(["Twin", "Backend", "threads", "prompt tok/s", "generation tok/s", "GPU layers"], rows);
  if (process.env.BENCH_TEMPO_DOCTOR !== "0") await compareWithDoctor(measured);
}

/** doctor --tempo on this machine, its predictions next to the twins' measurements (CPU rows). */
async function compareWithDoctor(measured: TwinResult[]): Promise<void> {
  // The twins' resolved thread count: in this process LLM_THREADS is the tiny models' 1 (bench/threads.ts).
  const threads = measured[0]?.speeds.find((s) => s.backend === "cpu")?.threads;
  const report = await runTempo(undefined, { threads });
  console.log(
    `\ndoctor --tempo: ${report.seconds.toFixed(0)} s; probe twin: prompt ${report.measured.promptTokensPerSecond.toFixed(1)} / generation ${report.measured.generationTokensPerSecond.toFixed(1)} tokens/s (${report.measured.backend})\n`,
  );
  reportGoal({
    metric: "doctor --tempo: wall time (write probe twin, measure, predict)",
    goal: "≤ 120 s",
    measured: `${report.seconds.toFixed(0)} s`,
    met: report.seconds <= 120,
  });
  const ratio = (predicted: number, actual: number): string => `${(predicted / actual).toFixed(2)}×`;
  const within = (predicted: number, actual: number): boolean =>
    predicted / actual >= 1 / 1.5 && predicted / actual <= 1.5;
  const rows: string[][] = [];
  for (const r of measured) {
    const p = report.predictions.find((x) => x.model === r.id);
    const cpu = r.speeds.find((s) => s.backend === "cpu");
    if (!p || !cpu || report.measured.backend !== "cpu") continue;
    // Like for like: the planner prefix evaluated through lib (state file) against the predicted rate for
    // that prompt; the first plan with the tokens the twin actually generated (a random model may stop early).
    const prefixRate = r.state.tokens / (r.state.evaluateMs / 1000);
    const firstPredicted =
      r.plan.promptTokens / p.promptTokensPerSecond + r.plan.generatedTokens / p.generationTokensPerSecond;
    rows.push([
      r.id,
      `${cpu.generationTokensPerSecond.toFixed(1)} / ${p.generationTokensPerSecond.toFixed(1)}`,
      ratio(p.generationTokensPerSecond, cpu.generationTokensPerSecond),
      `${prefixRate.toFixed(1)} / ${p.promptTokensPerSecond.toFixed(1)}`,
      ratio(p.promptTokensPerSecond, prefixRate),
      `${r.plan.seconds.toFixed(1)} / ${firstPredicted.toFixed(1)}`,
      ratio(firstPredicted, r.plan.seconds),
      p.verdict,
    ]);
    // Generation is not like for like (the prediction is for tokens after the planner prompt, tg32 follows
    // 512 tokens; attention over 2,600 positions slows each token): shown, not judged.
    const goals: [string, number, number, string, boolean][] = [
      [
        "generation tokens/s, after the planner prompt vs tg32",
        p.generationTokensPerSecond,
        cpu.generationTokensPerSecond,
        "",
        false,
      ],
      ["planner prompt tokens/s", p.promptTokensPerSecond, prefixRate, "", true],
      ["seconds to the first plan", firstPredicted, r.plan.seconds, " s", true],
    ];
    for (const [what, predicted, actual, unit, judged] of goals) {
      reportGoal({
        metric: `doctor --tempo's prediction for ${r.id}: ${what} (predicted / measured on its twin)`,
        goal: judged ? "within 1.5×" : "shown",
        measured: `${predicted.toFixed(1)} / ${actual.toFixed(1)}${unit} = ${ratio(predicted, actual)}`,
        met: judged ? within(predicted, actual) : undefined,
      });
    }
  }
  printMarkdownTable(
    [
      "Twin",
      "generation tok/s measured / predicted",
      "ratio",
      "planner prompt tok/s measured / predicted",
      "ratio",
      "first plan s measured / predicted",
      "ratio",
      "verdict",
    ],
    rows,
  );
}
