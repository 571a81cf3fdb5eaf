// Issue 30: the warm start from the USB stick. For one GGUF (BENCH_WARM_GGUF, else LLM_MODEL_PATH: the
// tiny model under `npm run bench`): how long the content hash of the model file takes, how long
// `npm run models:warm` takes and how big its states are, and the seconds to the first plan of a fresh
// `npm start` cold (no states) vs warm (prompt-states/ beside the model, an empty cache of its own) — as
// real processes. The model is linked into two temporary folders, so nothing is written beside it.
// Context: BENCH_WARM_CONTEXT (default 8192, the workshop's LLM_CONTEXT_SIZE); threads: BENCH_THREADS (bench/threads.ts);
// BENCH_WARM_ONLY=planer-reise prepares only that prompt (models:warm --only; the 8B on a CPU takes long).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { loadConfig } from "../lib/config.js";
import { loadLocalLlm, type GenerationMeter } from "../lib/index.js";
import { modelFileIdentity } from "../lib/llm/prompt-state.js";
import { MANIFEST_FILE, warmStateDir, type WarmManifest } from "../lib/llm/warm-states.js";
import { printMarkdownTable } from "./markdown-table.js";
import { BENCH_THREADS, withBenchThreads } from "./threads.js";
import { reportGoal } from "./summary.js";

const gguf = resolve(process.env.BENCH_WARM_GGUF || loadConfig().llmModelPath);
const context = process.env.BENCH_WARM_CONTEXT || "8192";
const QUESTION = "Wie ist heute das Wetter in Barcelona?";
const tmp = mkdtempSync(join(tmpdir(), "warm-start-bench-"));
const env = {
  ...withBenchThreads(process.env),
  LLM_CONTEXT_SIZE: context,
  TRAVEL_TODAY: "2026-06-15",
  TRAVEL_OFFLINE: "1",
};
const s = (ms: number) => (ms / 1000).toFixed(1);
const size = (bytes: number) => (bytes >= 1e8 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`);

/** A models/ folder of its own with a link to the GGUF (prompt-states/ would be written beside the link). */
function linkedModel(name: string): string {
  const dir = join(tmp, name, "models");
  mkdirSync(dir, { recursive: true });
  const link = join(dir, basename(gguf));
  symlinkSync(gguf, link);
  return link;
}

function run(script: string, args: string[], extra: Record<string, string>): { stdout: string; wallMs: number } {
  const started = performance.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", script, ...args], {
    env: { ...env, ...extra },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const wallMs = performance.now() - started;
  if (r.status !== 0 && r.status !== 3) throw new Error(`${script} failed (${r.status}): ${r.stdout}\n${r.stderr}`);
  return { stdout: r.stdout, wallMs };
}

/** One fresh `npm start`, round 1 only: process wall time, time of the first plan in the run, round 1's meter. */
function firstPlan(model: string, n: number) {
  const trace = join(tmp, `trace-${n}.json`);
  const { wallMs } = run(
    "scripts/kit.ts",
    ["start", QUESTION, "--max-iterations", "1", "--rag-k", "0", "--trace", trace],
    { LLM_MODEL_PATH: model, LLM_STATE_DIR: join(tmp, `cache-${n}`) },
  );
  const events = (
    JSON.parse(readFileSync(trace, "utf8")) as {
      events: Array<{ type: string; atMs: number; meter?: GenerationMeter }>;
    }
  ).events;
  const plan = events.find((e) => (e.type === "plan" || e.type === "plan_error") && e.meter);
  if (!plan?.meter) throw new Error("no round-1 meter in the trace");
  return { wallMs, planAtMs: plan.atMs, meter: plan.meter };
}

try {
  const hashStarted = performance.now();
  const identity = await modelFileIdentity(gguf);
  const hashMs = performance.now() - hashStarted;

  // The chat wrapper node-llama-cpp picks for this model must not write today's date into the prefix.
  const probe = await loadLocalLlm({ modelPath: gguf, contextSize: 512, promptStateDir: false, gpuLayers: 0 });
  const firstBlock = probe.renderPrompt([
    { role: "system", content: "S" },
    { role: "user", content: "U" },
  ]);
  await probe.dispose();
  const day = new Date();
  const dated =
    /Today Date/.test(firstBlock) ||
    firstBlock.includes(String(day.getFullYear())) ||
    firstBlock.includes(day.toLocaleDateString("sv-SE"));

  const warmModel = linkedModel("warm");
  const made = run(
    "scripts/kit.ts",
    ["models:warm", ...(process.env.BENCH_WARM_ONLY ? ["--only", process.env.BENCH_WARM_ONLY] : [])],
    { LLM_MODEL_PATH: warmModel },
  );
  const manifest = JSON.parse(readFileSync(join(warmStateDir(warmModel), MANIFEST_FILE), "utf8")) as WarmManifest;
  const cold = firstPlan(linkedModel("cold"), 1);
  const warm = firstPlan(warmModel, 2);

  console.log(
    `model: ${gguf} (${size(identity.bytes)}), context ${context}, threads ${BENCH_THREADS ?? "the kit's default (llama.cpp's math cores)"}\n`,
  );
  console.log(`content hash of the model file (size + SHA-256 of ~9 MiB): ${hashMs.toFixed(0)} ms`);
  console.log(`npm run models:warm: ${s(made.wallMs)} s in all\n`);
  printMarkdownTable(
    ["State", "tokens", "state file"],
    manifest.entries.map((e) => [e.name, String(e.tokens), `${(e.bytes / 1e6).toFixed(1)} MB`]),
  );
  console.log(`\nFresh \`npm start\`, round 1 ("${QUESTION}", no RAG context)\n`);
  const row = (label: string, r: typeof cold) => [
    label,
    s(r.wallMs),
    s(r.planAtMs),
    String(r.meter.promptTokensEvaluated),
    String(r.meter.promptTokensReused),
    String(r.meter.timeToFirstTokenMs),
  ];
  printMarkdownTable(
    ["Start", "process s", "first plan after run start s", "evaluated", "from disk", "TTFT ms"],
    [row("cold (no states)", cold), row("warm (prompt-states/)", warm)],
  );

  const planner = manifest.entries.find((e) => e.name === "planer-reise");
  const total = manifest.entries.reduce((n, e) => n + e.bytes, 0);
  reportGoal({
    metric: `warm start (${basename(gguf)}): seconds to the first plan`,
    goal: "warm < cold; round 1 evaluates only date + question (≤ 64 tokens)",
    measured: `${s(warm.planAtMs)} s vs ${s(cold.planAtMs)} s cold (process ${s(warm.wallMs)} vs ${s(cold.wallMs)} s); evaluated ${warm.meter.promptTokensEvaluated} of ${warm.meter.promptTokensEvaluated + warm.meter.promptTokensReused}`,
    met: warm.planAtMs < cold.planAtMs && warm.meter.promptTokensEvaluated <= 64,
  });
  reportGoal({
    metric: `cached prefix (${basename(gguf)}, ${probe.info.chatWrapper}): no date`,
    goal: 'no "Today Date", no year in the first system block',
    measured: dated ? `dated: ${JSON.stringify(firstBlock.slice(0, 160))}` : "none",
    met: !dated,
  });
  reportGoal({
    metric: `prepared states (${basename(gguf)}): size and model hash time`,
    goal: "hash < 1 s",
    measured: `${manifest.entries.length} states, ${(total / 1e6).toFixed(1)} MB (planner ${((planner?.bytes ?? 0) / 1e6).toFixed(1)} MB, ${planner?.tokens} tokens); hash ${hashMs.toFixed(0)} ms for ${size(identity.bytes)}`,
    met: hashMs < 1000,
  });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
