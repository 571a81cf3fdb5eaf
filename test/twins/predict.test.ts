// The speed prediction of `npm run doctor -- --tempo` on injected measurements: CPU only (fast and
// slow), a small GPU that holds part of the 8B's layers, a large GPU; and the German verdict of each.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  layersOnGpu,
  predictModel,
  recommend,
  type Calibration,
  type Machine,
  type Prediction,
} from "../../scripts/dev/twins/predict.js";
import { TWIN_SHAPES, tokenCost, twinShape } from "../../scripts/dev/twins/shapes.js";
import { renderTempo, tempoJson, type TempoReport } from "../../scripts/dev/twins/doctor-tempo.js";

const GiB = 2 ** 30;
// Calibrated on a full 1B twin: the figures measured on a 2-core machine (ENVIRONMENT.md: pp 120, tg 25).
const oneB = tokenCost(twinShape("llama-3.2-1b")!, "q4_k_m");
const cpu = (pp: number, tg: number): Calibration => ({
  cost: oneB,
  speed: { backend: "cpu", promptTokensPerSecond: pp, generationTokensPerSecond: tg },
  promptTokens: 512,
});
const gpu = (vramGiB: number): Machine["gpu"] => ({
  ...cpu(3000, 150),
  speed: { backend: "cuda", promptTokensPerSecond: 3000, generationTokensPerSecond: 150 },
  vramFreeBytes: vramGiB * GiB,
});
const work = { promptTokens: 2600, planTokens: 120, contextTokens: 8192 };

function predictAll(machine: Machine): Prediction[] {
  return TWIN_SHAPES.map((s) => predictModel(s.id, tokenCost(s, "q4_k_m"), machine, work));
}
const of = (ps: Prediction[], id: string): Prediction => ps.find((p) => p.model === id)!;

describe("speed prediction", () => {
  it("CPU only, 2 cores: bigger models are slower by their weight bytes; 3B usable, so 3B is recommended", () => {
    const ps = predictAll({ cpu: cpu(120, 25), ramTotalBytes: 16 * GiB });
    const [small, big] = [of(ps, "llama-3.2-3b"), of(ps, "llama-3.1-8b")];
    assert.ok(
      Math.abs(of(ps, "llama-3.2-1b").generationTokensPerSecond - 25) < 0.01,
      "the calibrated model is predicted as measured",
    );
    assert.ok(big.generationTokensPerSecond < small.generationTokensPerSecond);
    assert.ok(big.promptTokensPerSecond < small.promptTokensPerSecond);
    assert.deepEqual([big.gpuLayers, big.verdict, small.verdict], [0, "zu langsam", "brauchbar"]);
    const r = recommend(ps);
    assert.equal(r.choice, "llama-3.2-3b");
    assert.match(
      r.text,
      /^Empfehlung: lokal Llama 3\.2 3B \(npm run models:pull -- llama-3\.2-3b\) – erste Antwort in Teil 4 nach etwa \d+ s, [\d,]+ Tokens\/s\. 8B wäre hier zu langsam/,
    );
  });

  it("CPU only, slower still: the class server", () => {
    const ps = predictAll({ cpu: cpu(40, 10), ramTotalBytes: 8 * GiB });
    assert.equal(of(ps, "llama-3.2-3b").verdict, "zu langsam");
    const r = recommend(ps);
    assert.equal(r.choice, "class-server");
    assert.match(
      r.text,
      /Klassen-Server \(LLM_BACKEND=openai.*Schon 3B wäre zu langsam \(erste Antwort in Teil 4 nach etwa \d+ s/,
    );
  });

  it("a small GPU (4 GB free) holds part of the 8B's layers and all of the 3B's", () => {
    const machine: Machine = { cpu: cpu(120, 25), gpu: gpu(4), ramTotalBytes: 16 * GiB };
    const ps = predictAll(machine);
    const [small, big] = [of(ps, "llama-3.2-3b"), of(ps, "llama-3.1-8b")];
    assert.ok(big.gpuLayers > 0 && big.gpuLayers < 32, `8B layers on the GPU: ${big.gpuLayers}`);
    assert.equal(small.gpuLayers, 28);
    const cpuOnly = of(predictAll({ cpu: cpu(120, 25), ramTotalBytes: 16 * GiB }), "llama-3.1-8b");
    assert.ok(big.generationTokensPerSecond > cpuOnly.generationTokensPerSecond);
    assert.ok(big.generationTokensPerSecond < small.generationTokensPerSecond);
    assert.equal(small.verdict, "flüssig");
    assert.equal(recommend(ps).choice, "llama-3.2-3b");
  });

  it("a large GPU (24 GB) holds the whole 8B: the 8B, smooth", () => {
    const ps = predictAll({ cpu: cpu(120, 25), gpu: gpu(24), ramTotalBytes: 32 * GiB });
    const big = of(ps, "llama-3.1-8b");
    assert.deepEqual([big.gpuLayers, big.verdict], [32, "flüssig"]);
    const r = recommend(ps);
    assert.equal(r.choice, "llama-3.1-8b");
    assert.match(
      r.text,
      /^Empfehlung: lokal Llama 3\.1 8B \(Standard\) – erste Antwort in Teil 4 nach etwa [\d,]+ s, \d+ Tokens\/s\.$/,
    );
  });

  it("a model that does not fit into RAM is 'passt nicht', however fast", () => {
    const big = predictModel(
      "llama-3.1-8b",
      tokenCost(twinShape("llama-3.1-8b")!, "q4_k_m"),
      { cpu: cpu(5000, 500), ramTotalBytes: 4 * GiB },
      work,
    );
    assert.equal(big.verdict, "passt nicht");
  });

  it("keeps the output matrix off a GPU that cannot hold it with every layer", () => {
    const cost = tokenCost(twinShape("llama-3.1-8b")!, "q4_k_m");
    const all = 32 * (cost.bytesPerLayer + cost.kvBytesPerLayer * 8192) + 0.6 * GiB;
    assert.equal(layersOnGpu(cost, all + cost.outputBytes, 8192), 32);
    assert.equal(layersOnGpu(cost, all + 1, 8192), 31);
    assert.equal(layersOnGpu(cost, 0, 8192), 0);
  });
});

describe("doctor --tempo output", () => {
  const ps = predictAll({ cpu: cpu(40, 10), gpu: gpu(4), ramTotalBytes: 16 * GiB });
  const report: TempoReport = {
    measured: gpu(4)!.speed,
    cpu: cpu(40, 10).speed,
    predictions: ps,
    recommendation: recommend(ps),
    promptTokens: 2558,
    planTokens: 86,
    threads: 4,
    seconds: 38.2,
  };

  it("--json has the tempo object a class's results are collected by", () => {
    const json = tempoJson(report) as { measured: Record<string, unknown>; predictions: Record<string, unknown>[] };
    assert.deepEqual(json.measured, { backend: "cuda", promptTokensPerSecond: 3000, generationTokensPerSecond: 150 });
    assert.deepEqual(
      json.predictions.map((p) => p.model),
      ["llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b"],
    );
    assert.equal((json as { threads?: unknown }).threads, 4);
    for (const p of json.predictions) {
      for (const key of ["promptTokensPerSecond", "generationTokensPerSecond", "secondsToFirstAnswer"])
        assert.equal(typeof p[key], "number", key);
      assert.ok(["flüssig", "brauchbar", "zu langsam", "passt nicht"].includes(p.verdict as string));
    }
  });

  it("the terminal text is German, with both measurements, every model and the recommendation", () => {
    const text = renderTempo(report);
    assert.match(
      text,
      /Gemessen – CUDA: Prompt 3000 Tokens\/s, Erzeugen 150 Tokens\/s \(Test-Modell\); CPU \(4 Threads\): Prompt 40 Tokens\/s/,
    );
    assert.match(text, /2558 Prompt-Tokens .* 86 Tokens Plan/);
    assert.match(text, /llama-3\.1-8b .* Schichten auf der GPU/);
    assert.ok(text.endsWith(report.recommendation.text));
  });
});
