// Predicts each menu model's speed on this machine from one measured twin, and says in German which
// model to use. Pure: measurements come in, numbers and words go out (test/twins/predict.test.ts).
//
// Scaling: generating a token reads every weight once (memory-bound), so generation time scales with
// the weight bytes per token (all blocks + the output matrix). Prompt tokens are evaluated in batches
// (compute-bound) and the output matrix runs for the last token only, so prompt time scales with the
// blocks' multiply-adds plus attention over the positions before each token. With a GPU, the layers
// that fit into its free memory run at the GPU's measured rate, the rest at the CPU's.
import type { TokenCost } from "./shapes.js";

export interface MeasuredSpeed {
  /** "cpu", "cuda", "vulkan", "metal". */
  backend: string;
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
}

/** One measurement: the twin's cost per token, the speeds, and the prompt length measured with. */
export interface Calibration {
  cost: TokenCost;
  speed: MeasuredSpeed;
  promptTokens: number;
}

export interface Machine {
  cpu: Calibration;
  /** The twin measured fully on the GPU, and the GPU memory free for a model. */
  gpu?: Calibration & { vramFreeBytes: number };
  ramTotalBytes: number;
}

/** What the first answer of Teil 4 costs: the planner's prompt and the plan it writes. */
export interface FirstAnswerWork {
  promptTokens: number;
  planTokens: number;
  /** The context the kit allocates (KV cache on the GPU). */
  contextTokens: number;
}

export type Verdict = "flüssig" | "brauchbar" | "zu langsam" | "passt nicht";

export interface Prediction {
  model: string;
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
  secondsToFirstAnswer: number;
  /** Blocks on the GPU (0 without one) of `layers`. */
  gpuLayers: number;
  layers: number;
  verdict: Verdict;
}

/** Limits for the verdicts: the first answer of Teil 4 within this many seconds, at least this generation speed. */
export const SMOOTH = { seconds: 30, tokensPerSecond: 8 } as const;
export const USABLE = { seconds: 90, tokensPerSecond: 3 } as const;
/** RAM kept free for the OS, Node, Jupyter and the browser. */
export const RAM_RESERVE_BYTES = 2 * 2 ** 30;
/** GPU memory kept free for llama.cpp's compute buffers. */
export const VRAM_RESERVE_BYTES = 0.6 * 2 ** 30;

interface Rates {
  bytesPerSecond: number;
  opsPerSecond: number;
}

/** Per-backend rates from a measurement: bytes read per second while generating, multiply-adds per second on a prompt. */
export function ratesOf(c: Calibration): Rates {
  const genBytes = c.cost.layers * c.cost.bytesPerLayer + c.cost.outputBytes;
  const promptOps = c.cost.layers * (c.cost.paramsPerLayer + c.cost.attentionPerPosition * (c.promptTokens / 2));
  return {
    bytesPerSecond: genBytes * c.speed.generationTokensPerSecond,
    opsPerSecond: promptOps * c.speed.promptTokensPerSecond,
  };
}

/** Blocks that fit into `vram` with their KV cache; all of them only if the output matrix fits too. */
export function layersOnGpu(cost: TokenCost, vramFreeBytes: number, contextTokens: number): number {
  const usable = vramFreeBytes - VRAM_RESERVE_BYTES;
  const perLayer = cost.bytesPerLayer + cost.kvBytesPerLayer * contextTokens;
  const fit = Math.max(0, Math.min(cost.layers, Math.floor(usable / perLayer)));
  return fit === cost.layers && usable < fit * perLayer + cost.outputBytes ? fit - 1 : fit;
}

function verdictOf(seconds: number, tokensPerSecond: number): Verdict {
  if (seconds <= SMOOTH.seconds && tokensPerSecond >= SMOOTH.tokensPerSecond) return "flüssig";
  if (seconds <= USABLE.seconds && tokensPerSecond >= USABLE.tokensPerSecond) return "brauchbar";
  return "zu langsam";
}

/** The prediction for one model (`cost`: its full shape). */
export function predictModel(model: string, cost: TokenCost, machine: Machine, work: FirstAnswerWork): Prediction {
  const cpu = ratesOf(machine.cpu);
  const gpu = machine.gpu ? ratesOf(machine.gpu) : undefined;
  const onGpu = machine.gpu ? layersOnGpu(cost, machine.gpu.vramFreeBytes, work.contextTokens) : 0;
  const onCpu = cost.layers - onGpu;
  const outputOnGpu = gpu !== undefined && onCpu === 0;
  const genSeconds =
    (onGpu * cost.bytesPerLayer + (outputOnGpu ? cost.outputBytes : 0)) / (gpu?.bytesPerSecond ?? Infinity) +
    (onCpu * cost.bytesPerLayer + (outputOnGpu ? 0 : cost.outputBytes)) / cpu.bytesPerSecond;
  const opsPerLayer = cost.paramsPerLayer + cost.attentionPerPosition * (work.promptTokens / 2);
  const promptSeconds =
    (onGpu * opsPerLayer) / (gpu?.opsPerSecond ?? Infinity) + (onCpu * opsPerLayer) / cpu.opsPerSecond;
  const generationTokensPerSecond = 1 / genSeconds;
  const promptTokensPerSecond = 1 / promptSeconds;
  const secondsToFirstAnswer = work.promptTokens / promptTokensPerSecond + work.planTokens / generationTokensPerSecond;
  const inRam =
    onCpu * cost.bytesPerLayer +
    (outputOnGpu ? 0 : cost.outputBytes) +
    onCpu * cost.kvBytesPerLayer * work.contextTokens;
  const verdict =
    inRam + RAM_RESERVE_BYTES > machine.ramTotalBytes
      ? "passt nicht"
      : verdictOf(secondsToFirstAnswer, generationTokensPerSecond);
  return {
    model,
    promptTokensPerSecond,
    generationTokensPerSecond,
    secondsToFirstAnswer,
    gpuLayers: onGpu,
    layers: cost.layers,
    verdict,
  };
}

export type Choice = "llama-3.1-8b" | "llama-3.2-3b" | "class-server";

export interface Recommendation {
  choice: Choice;
  /** German, with the numbers. */
  text: string;
}

const seconds = (s: number): string => `${s < 10 ? s.toFixed(1).replace(".", ",") : Math.round(s)} s`;
const rate = (r: number): string => `${r < 10 ? r.toFixed(1).replace(".", ",") : Math.round(r)} Tokens/s`;
const summary = (p: Prediction): string =>
  `erste Antwort in Teil 4 nach etwa ${seconds(p.secondsToFirstAnswer)}, ${rate(p.generationTokensPerSecond)}`;

/** Which to use: local 8B when it is smooth, else local 3B when it is at least usable, else the class server. */
export function recommend(predictions: readonly Prediction[]): Recommendation {
  const big = predictions.find((p) => p.model === "llama-3.1-8b");
  const small = predictions.find((p) => p.model === "llama-3.2-3b");
  if (big?.verdict === "flüssig") {
    return { choice: "llama-3.1-8b", text: `Empfehlung: lokal Llama 3.1 8B (Standard) – ${summary(big)}.` };
  }
  const why = big ? ` 8B wäre hier ${big.verdict} (${summary(big)}).` : "";
  if (small && (small.verdict === "flüssig" || small.verdict === "brauchbar")) {
    return {
      choice: "llama-3.2-3b",
      text: `Empfehlung: lokal Llama 3.2 3B (npm run models:pull -- llama-3.2-3b) – ${summary(small)}.${why}`,
    };
  }
  const smallWhy = small ? ` Schon 3B wäre ${small.verdict} (${summary(small)}).` : "";
  return {
    choice: "class-server",
    text: `Empfehlung: der Klassen-Server (LLM_BACKEND=openai, Adresse von der Kursleitung) – lokal ist es hier zu langsam.${smallWhy}`,
  };
}
