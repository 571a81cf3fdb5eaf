// `npm run doctor -- --tempo`: writes the 1B's speed twin (all 16 layers, real vocabulary, 0.8 GB) to a
// temp folder, measures this machine (CPU, and the GPU node-llama-cpp finds),
// predicts each menu model's speed and Teil 4's first answer (predict.ts), and recommends local 8B,
// local 3B or the class server. The twin is deleted afterwards, also on an error or Ctrl+C.
import { mkdtempSync, rmSync } from "node:fs";
import { freemem, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import type { Llama } from "node-llama-cpp";
import { loadConfig } from "../../../lib/config.js";
import { applyLlamaThreads } from "../../../lib/llm/index.js";
import { getKitLlama } from "../../../lib/llm/llama.js";
import { plannerCall } from "./first-answer.js";
import { measureSpeed } from "./measure.js";
import {
  predictModel,
  recommend,
  type Calibration,
  type Machine,
  type MeasuredSpeed,
  type Prediction,
  type Recommendation,
} from "./predict.js";
import { TWIN_SHAPES, tokenCost, twinShape } from "./shapes.js";
import { writeTwin } from "./main.js";

/**
 * The measured twin: the whole 1B. The bigger models' cost scales from it by their weights (measured on the
 * 2-core VM: the first plan of the 3B and 8B twins within 15 % of that scaling). A 4-layer 3B probe was tried
 * first: its huge output matrix and fixed per-call costs dominated (the 8B's first plan predicted 1.9× too slow).
 */
export const PROBE_TWIN = { id: "llama-3.2-1b", layers: 16 } as const;
/** Generated tokens measured; the prompt is measured at the planner prompt's real length, so the
 * attention over its positions is in the measurement (a 128-token prompt predicted the first plan 1.5–1.8× too fast). */
const GENERATED_TOKENS = 16;
/** The context the kit allocates by default (KV cache that must fit next to the weights). */
const CONTEXT_TOKENS = 8192;

export interface TempoReport {
  measured: MeasuredSpeed;
  /** The CPU measurement when `measured` is the GPU's. */
  cpu?: MeasuredSpeed;
  predictions: Prediction[];
  recommendation: Recommendation;
  promptTokens: number;
  planTokens: number;
  /** CPU threads of the measurement (LLM_THREADS or llama.cpp's math cores). */
  threads: number;
  seconds: number;
}

const speedOf = (r: MeasuredSpeed): MeasuredSpeed => ({
  backend: r.backend,
  promptTokensPerSecond: r.promptTokensPerSecond,
  generationTokensPerSecond: r.generationTokensPerSecond,
});

/** Runs the whole speed check; `onStep` gets German progress lines. */
export async function runTempo(
  onStep: (line: string) => void = () => {},
  options: { threads?: number } = {},
): Promise<TempoReport> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "kit-tempo-"));
  const cleanUp = (): void => rmSync(dir, { recursive: true, force: true });
  const onSignal = (): void => {
    cleanUp();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const llamas: Llama[] = [];
  try {
    const shape = twinShape(PROBE_TWIN.id)!;
    const path = join(dir, "tempo-twin.gguf");
    onStep("Schreibe ein Test-Modell in der Form von Llama 3.2 1B (0,8 GB, wird danach gelöscht) …");
    await writeTwin(PROBE_TWIN.id, path, { layers: PROBE_TWIN.layers });
    const call = await plannerCall();
    const promptTokens = call.promptTokens;
    const calibrate = (speed: MeasuredSpeed): Calibration => ({
      cost: tokenCost(shape, "q4_k_m", PROBE_TWIN.layers),
      speed,
      promptTokens,
    });
    onStep("Messe die CPU …");
    const cpuLlama = await getKitLlama("cpu");
    const threads = applyLlamaThreads(cpuLlama, options.threads ?? loadConfig().llmThreads);
    llamas.push(cpuLlama);
    const cpu = speedOf(
      await measureSpeed(cpuLlama, path, { threads, promptTokens, generatedTokens: GENERATED_TOKENS }),
    );
    const machine: Machine = { cpu: calibrate(cpu), ramTotalBytes: totalmem() };
    const gpuLlama = await getKitLlama("auto");
    llamas.push(gpuLlama);
    let gpu: MeasuredSpeed | undefined;
    if (gpuLlama.gpu !== false) {
      onStep(`Messe die GPU (${gpuLlama.gpu}) …`);
      const vramFreeBytes = (await gpuLlama.getVramState()).free;
      gpu = speedOf(
        await measureSpeed(gpuLlama, path, { gpuLayers: "max", promptTokens, generatedTokens: GENERATED_TOKENS }),
      );
      machine.gpu = { ...calibrate(gpu), vramFreeBytes };
    }
    const work = { promptTokens: call.promptTokens, planTokens: call.planTokens, contextTokens: CONTEXT_TOKENS };
    const predictions = TWIN_SHAPES.map((s) => predictModel(s.id, tokenCost(s, "q4_k_m"), machine, work));
    return {
      measured: gpu ?? cpu,
      cpu: gpu ? cpu : undefined,
      predictions,
      recommendation: recommend(predictions),
      promptTokens: call.promptTokens,
      planTokens: call.planTokens,
      threads,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    for (const llama of llamas) await llama.dispose();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    cleanUp();
  }
}

const num = (x: number): string => (x < 10 ? x.toFixed(1) : Math.round(x).toString()).replace(".", ",");

/** The German text for the terminal. */
export function renderTempo(r: TempoReport): string {
  const m = (s: MeasuredSpeed): string =>
    `${s.backend === "cpu" ? `CPU (${r.threads} Threads)` : s.backend.toUpperCase()}: Prompt ${num(s.promptTokensPerSecond)} Tokens/s, Erzeugen ${num(s.generationTokensPerSecond)} Tokens/s (Test-Modell)`;
  const lines = [
    `Tempo-Check (npm run doctor -- --tempo), ${num(r.seconds)} s, RAM ${num(totalmem() / 2 ** 30)} GB (frei ${num(freemem() / 2 ** 30)} GB)`,
    `Gemessen – ${m(r.measured)}${r.cpu ? `; ${m(r.cpu)}` : ""}`,
    `Erste Antwort in Teil 4 = ${r.promptTokens} Prompt-Tokens (Planer-Prompt mit Reise-Tools + Frage) einlesen + ${r.planTokens} Tokens Plan schreiben.`,
    "",
    "Vorhersage pro Modell:",
  ];
  for (const p of r.predictions) {
    const gpu = p.gpuLayers > 0 ? `, ${p.gpuLayers} von ${p.layers} Schichten auf der GPU` : "";
    lines.push(
      `  ${p.model.padEnd(13)} Prompt ${num(p.promptTokensPerSecond).padStart(5)} Tokens/s · Erzeugen ${num(p.generationTokensPerSecond).padStart(5)} Tokens/s · erste Antwort nach ~${num(p.secondsToFirstAnswer)} s → ${p.verdict}${gpu}`,
    );
  }
  lines.push("", r.recommendation.text);
  return lines.join("\n");
}

/** The `tempo` object of `--tempo --json`. */
export function tempoJson(r: TempoReport): Record<string, unknown> {
  return {
    measured: r.measured,
    ...(r.cpu ? { cpu: r.cpu } : {}),
    predictions: r.predictions.map((p) => ({
      model: p.model,
      promptTokensPerSecond: Number(p.promptTokensPerSecond.toFixed(1)),
      generationTokensPerSecond: Number(p.generationTokensPerSecond.toFixed(1)),
      secondsToFirstAnswer: Number(p.secondsToFirstAnswer.toFixed(1)),
      verdict: p.verdict,
      gpuLayers: p.gpuLayers,
    })),
    recommendation: r.recommendation,
    promptTokens: r.promptTokens,
    planTokens: r.planTokens,
    threads: r.threads,
    seconds: Number(r.seconds.toFixed(1)),
  };
}
