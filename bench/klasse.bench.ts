// A classroom on one llama-server: `llama-server --parallel N` and twenty simulated participants, each with
// its own OpenAI backend, its own MCP session to an (offline) travel server, going through Teil 4's three
// questions with think time between the cells, all at once. Per N: time to first plan p50/p95, generation
// tokens/s per participant, the server's queue (`llamacpp:requests_deferred` from /metrics), errors.
// Writes the measured rows into docs/instructor-guide.md between markers for this model and machine.
//
// npm run bench -- klasse     (tiny test GGUF; any GGUF: KLASSE_MODEL=/pfad/twin.gguf)
// Env: KLASSE_SLOTS=1,4,8,20  KLASSE_PARTICIPANTS=20  KLASSE_CTX_PER_SLOT=4096  KLASSE_THREADS=1
//      KLASSE_THINK_MS=2000 (mean pause before each question)  KLASSE_PROMPT=compact|full  KLASSE_NGL=0
//      KLASSE_HARDWARE="…" (row label)  KLASSE_WRITE_GUIDE=0 (do not touch the guide)
import { cpus } from "node:os";
import { basename, join } from "node:path";
import { findProjectRoot, tinyModelPaths } from "../lib/config.js";
import { buildPlannerSystemPrompt } from "../lib/agent/prompts.js";
import { runAgent } from "../lib/agent/loop.js";
import { loadOpenAiLlm, type GenerationMeter, type GenerationOptions, type Llm } from "../lib/llm/index.js";
import { McpToolClient, startTravelServer } from "../lib/mcp/index.js";
import { llamaServerArgs, llamaServerSkip, startLlamaServer, type LlamaServer } from "../test/helpers/llama-server.js";
import { writeGuideRows, type KlasseRow } from "./klasse-guide.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportGoal, reportNumericGoal } from "./summary.js";

const env = process.env;
const MODEL = env.KLASSE_MODEL || env.LLM_MODEL_PATH || tinyModelPaths().gguf;
const SLOTS = (env.KLASSE_SLOTS ?? "1,4,8,20").split(",").map(Number);
const PARTICIPANTS = Number(env.KLASSE_PARTICIPANTS ?? 20);
const CTX_PER_SLOT = Number(env.KLASSE_CTX_PER_SLOT ?? 4096); // Teil 4's compact prompt with the travel catalog: ~2,200 tiny-model tokens
const THREADS = Number(env.KLASSE_THREADS ?? 1);
const THINK_MS = Number(env.KLASSE_THINK_MS ?? 2000);
const COMPACT = (env.KLASSE_PROMPT ?? "compact") === "compact";
const NGL = env.KLASSE_NGL ?? "0";
const TODAY = "2026-01-29";
const QUESTIONS = [
  `Wie ist heute (${TODAY}) das Wetter in Barcelona?`,
  `Wie ist heute (${TODAY}) das Wetter in Barcelona und in Madrid?`,
  `Ich möchte heute (${TODAY}) in Barcelona joggen gehen. Wo geht das am besten?`,
];

/** A small seeded PRNG (mulberry32): the same think times in every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : Number.NaN;
};

/** The backend with every call's meter recorded. */
function metered(llm: Llm, meters: GenerationMeter[]): Llm {
  const withMeter = (opts: GenerationOptions = {}): GenerationOptions => ({
    ...opts,
    onMeter: (m) => {
      meters.push(m);
      opts.onMeter?.(m);
    },
  });
  return {
    ...llm,
    info: llm.info,
    chat: (messages, opts) => llm.chat(messages, withMeter(opts)),
    generateJson: (schema, messages, opts) => llm.generateJson(schema, messages, withMeter(opts)),
  };
}

interface Participant {
  firstPlanMs: number[];
  meters: GenerationMeter[];
  errors: string[];
}

async function participant(id: number, baseUrl: string, travelUrl: string): Promise<Participant> {
  const out: Participant = { firstPlanMs: [], meters: [], errors: [] };
  const random = prng(1000 + id);
  const client = await McpToolClient.connect(travelUrl);
  try {
    const catalog = await client.listTools();
    const llm = metered(await loadOpenAiLlm({ baseUrl, timeoutMs: 600_000 }), out.meters);
    const systemPrompt = COMPACT
      ? buildPlannerSystemPrompt(catalog, { compact: true, userFields: ["raw", "today"] })
      : undefined;
    for (const [q, question] of QUESTIONS.entries()) {
      await pause(THINK_MS * (0.5 + random())); // reading the cell, typing, thinking
      const t = performance.now();
      let first: number | undefined;
      try {
        const result = await runAgent({
          question,
          llm,
          tools: client,
          catalog,
          today: TODAY,
          maxIterations: 3,
          ...(systemPrompt ? { systemPrompt } : {}),
          generation: { maxTokens: 256, temperature: 0.8, seed: id * 10 + q },
          // the first planning answer: a plan, or one the check rejects (the tiny model's text plans rarely parse)
          onEvent: (e) => {
            if ((e.type === "plan" || e.type === "plan_error") && first === undefined) first = performance.now() - t;
          },
        });
        if (!["answered", "max_iterations"].includes(result.status))
          out.errors.push(`${result.status}: ${result.error ?? ""}`.slice(0, 160));
      } catch (e) {
        out.errors.push(String(e).slice(0, 160));
      }
      if (first !== undefined) out.firstPlanMs.push(first);
    }
  } finally {
    await client.close();
  }
  return out;
}

/** Polls the server's queue gauge while the class runs. */
function watchQueue(server: LlamaServer): { stop(): { max: number; mean: number } } {
  const samples: number[] = [];
  let on = true;
  void (async () => {
    while (on) {
      const text = await fetch(`${server.origin}/metrics`).then(
        (r) => r.text(),
        () => "",
      );
      const m = /^llamacpp:requests_deferred\s+([\d.e+-]+)/m.exec(text);
      if (m) samples.push(Number(m[1]));
      await pause(200);
    }
  })();
  return {
    stop: () => {
      on = false;
      return { max: Math.max(0, ...samples), mean: samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length) };
    },
  };
}

async function classRun(slots: number, travelUrl: string): Promise<KlasseRow> {
  const server = await startLlamaServer({
    model: MODEL,
    parallel: slots,
    ctx: slots * CTX_PER_SLOT,
    threads: THREADS,
    jinja: true,
    extra: ["--metrics", "-ngl", NGL],
  });
  try {
    const queue = watchQueue(server);
    const t = performance.now();
    const people = await Promise.all(
      Array.from({ length: PARTICIPANTS }, (_, i) => participant(i, server.baseUrl, travelUrl)),
    );
    const wallS = (performance.now() - t) / 1000;
    const q = queue.stop();
    const firstPlans = people.flatMap((p) => p.firstPlanMs);
    const tps = people
      .map((p) => {
        const gen = p.meters.reduce((n, m) => n + m.generatedTokens, 0);
        const ms = p.meters.reduce((n, m) => n + Math.max(0, m.totalMs - m.timeToFirstTokenMs), 0);
        return ms > 0 ? (gen / ms) * 1000 : Number.NaN;
      })
      .filter(Number.isFinite);
    const errors = people.flatMap((p) => p.errors);
    if (errors.length) console.log(`errors (N=${slots}): ${[...new Set(errors)].slice(0, 3).join(" | ")}`);
    return {
      slots,
      ctxPerSlot: CTX_PER_SLOT,
      participants: PARTICIPANTS,
      questions: PARTICIPANTS * QUESTIONS.length,
      firstPlanP50: quantile(firstPlans, 0.5) / 1000,
      firstPlanP95: quantile(firstPlans, 0.95) / 1000,
      tokensPerSecond: quantile(tps, 0.5),
      calls: people.reduce((n, p) => n + p.meters.length, 0),
      queueMax: q.max,
      queueMean: q.mean,
      errors: errors.length,
      wallS,
    };
  } finally {
    await server.close();
  }
}

const skip = llamaServerSkip();
if (skip) {
  console.log(`klasse: skipped: ${skip} — npm run llama:build`);
  reportGoal({ metric: "class on one llama-server", goal: "runs", measured: `skipped: ${skip}`, met: undefined });
} else {
  const travel = await startTravelServer({ offline: true });
  const rows: KlasseRow[] = [];
  try {
    for (const slots of SLOTS) {
      console.log(`--parallel ${slots}: ${PARTICIPANTS} participants × ${QUESTIONS.length} questions …`);
      rows.push(await classRun(slots, travel.url));
    }
  } finally {
    await travel.stop();
  }
  const hardware =
    env.KLASSE_HARDWARE ?? `${cpus().length} CPU-Kerne (${cpus()[0]?.model.trim() ?? "?"}), -t ${THREADS}, unter Last`;
  printMarkdownTable(
    [
      "slots",
      "ctx/slot",
      "first plan p50 s",
      "p95 s",
      "tok/s per participant",
      "LLM calls",
      "queue max",
      "queue mean",
      "errors",
      "wall s",
    ],
    rows.map((r) =>
      [
        r.slots,
        r.ctxPerSlot,
        r.firstPlanP50.toFixed(2),
        r.firstPlanP95.toFixed(2),
        r.tokensPerSecond.toFixed(1),
        r.calls,
        r.queueMax,
        r.queueMean.toFixed(1),
        r.errors,
        r.wallS.toFixed(1),
      ].map(String),
    ),
  );
  for (const r of rows)
    reportNumericGoal(`class of ${PARTICIPANTS}, --parallel ${r.slots}: errors`, r.errors, 0, { digits: 0 });
  const best = rows.reduce((a, b) => (b.firstPlanP95 < a.firstPlanP95 ? b : a));
  reportGoal({
    metric: `class of ${PARTICIPANTS}: first plan p95, best slots`,
    goal: "reported",
    measured: `${best.firstPlanP95.toFixed(2)} s with --parallel ${best.slots}`,
    met: undefined,
  });
  const command = `llama-server ${llamaServerArgs(
    { model: basename(MODEL), parallel: best.slots, ctx: best.slots * CTX_PER_SLOT, threads: THREADS, jinja: true },
    8080,
  )
    .join(" ")
    .replace("127.0.0.1", "0.0.0.0")}`;
  if (env.KLASSE_WRITE_GUIDE !== "0") {
    const file = await writeGuideRows(join(findProjectRoot(), "docs/instructor-guide.md"), {
      model: basename(MODEL),
      hardware,
      thinkMs: THINK_MS,
      compact: COMPACT,
      rows,
      command,
    });
    console.log(`measured rows written to ${file}`);
  }
}
