// Issue 17: the first answer fast. Round 1 of a fresh `npm start` with and without the saved prompt
// state (two real CLI processes on an empty state folder: the first evaluates and saves the planner's
// system prompt, the second loads it), plus load vs evaluate times and state file sizes for the
// planner's and the half-agent's prompt. Goal: round 1 of the second start evaluates ≤ the question's
// tokens + 10 % of the prompt. Uses the configured GGUF (tiny under `npm run bench`, the real one with
// BENCH_REAL_MODEL=1).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildHalfAgentSystemPrompt,
  buildPlannerSystemPrompt,
  loadLocalLlm,
  startTravelServer,
  todayMessage,
  McpToolClient,
} from "../lib/index.js";
import type { ChatMessage, GenerationMeter, PromptStateEvent } from "../lib/index.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportGoal } from "./summary.js";

const QUESTION = "Wie ist heute das Wetter in Barcelona?";
const TODAY = "2026-06-15";
const tmp = mkdtempSync(join(tmpdir(), "prompt-state-bench-"));

/** One fresh `npm start` (round 1 only); returns round 1's meter from the saved trace. */
function freshStart(stateDir: string, n: number): { meter: GenerationMeter; wallMs: number } {
  const trace = join(tmp, `trace-${n}.json`);
  const started = performance.now();
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "scripts/kit.ts", "start", QUESTION, "--max-iterations", "1", "--trace", trace],
    {
      env: { ...process.env, LLM_STATE_DIR: stateDir, TRAVEL_TODAY: TODAY },
      encoding: "utf8",
    },
  );
  const wallMs = performance.now() - started;
  if (r.status !== 0) throw new Error(`npm start failed (${r.status}): ${r.stdout}\n${r.stderr}`);
  const events = (
    JSON.parse(readFileSync(trace, "utf8")) as { events: Array<{ type: string; meter?: GenerationMeter }> }
  ).events;
  const meter = events.find((e) => (e.type === "plan" || e.type === "plan_error") && e.meter)?.meter;
  if (!meter) throw new Error("no round-1 meter in the trace");
  return { meter, wallMs };
}

try {
  // 1. Two fresh CLI processes.
  const cliDir = join(tmp, "cli-state");
  const cold = freshStart(cliDir, 1);
  const warm = freshStart(cliDir, 2);

  // 2. Load vs evaluate per prompt, in-process (a new instance each time = a new kernel's view).
  const server = await startTravelServer({ offline: true });
  const client = await McpToolClient.connect(server.url);
  const tools = await client.listTools();
  await client.close();
  await server.stop();
  const prompts: Record<string, ChatMessage[]> = {
    planner: [
      { role: "system", content: buildPlannerSystemPrompt(tools, { userFields: ["raw", "today"] }) },
      todayMessage(TODAY),
      { role: "user", content: QUESTION },
    ],
    "half-agent": [
      { role: "system", content: buildHalfAgentSystemPrompt(tools) },
      todayMessage(TODAY),
      { role: "user", content: QUESTION },
    ],
  };
  const rows: string[][] = [];
  let questionTokens = 0;
  let plannerLoad: PromptStateEvent | undefined;
  let plannerSave: PromptStateEvent | undefined;
  for (const [name, messages] of Object.entries(prompts)) {
    const dir = join(tmp, `state-${name}`);
    const events: PromptStateEvent[] = [];
    const meters: GenerationMeter[] = [];
    let promptTokens = 0;
    for (let i = 0; i < 2; i++) {
      const llm = await loadLocalLlm({ promptStateDir: dir });
      questionTokens = llm.countTokens(QUESTION);
      promptTokens = llm.countPromptTokens(messages);
      meters.push((await llm.chat(messages, { maxTokens: 4, seed: 1 })).meter);
      if (llm.lastPromptState) events.push(llm.lastPromptState);
      await llm.dispose();
    }
    const [saved, loaded] = events;
    if (saved?.action !== "saved" || loaded?.action !== "loaded")
      throw new Error(`${name}: expected saved then loaded, got ${events.map((e) => e.action).join(", ")}`);
    if (name === "planner") [plannerSave, plannerLoad] = [saved, loaded];
    rows.push([
      name,
      String(promptTokens),
      String(saved.tokens),
      `${(saved.bytes / 1e6).toFixed(2)} MB`,
      (saved.evaluateMs ?? 0).toFixed(1),
      saved.ms.toFixed(1),
      loaded.ms.toFixed(1),
      `${meters[0]?.promptTokensEvaluated} → ${meters[1]?.promptTokensEvaluated}`,
      `${meters[0]?.timeToFirstTokenMs} → ${meters[1]?.timeToFirstTokenMs}`,
    ]);
  }

  const model = process.env.LLM_MODEL_PATH ?? "(configured model)";
  console.log(`model: ${model}\n`);
  console.log(
    `Fresh \`npm start\` (round 1 of "${QUESTION}", RAG context on; two processes, empty state folder first)\n`,
  );
  const total = (m: GenerationMeter) => m.promptTokensEvaluated + m.promptTokensReused;
  const startRow = (label: string, { meter, wallMs }: { meter: GenerationMeter; wallMs: number }) => [
    label,
    String(total(meter)),
    String(meter.promptTokensEvaluated),
    String(meter.promptTokensReused),
    String(meter.timeToFirstTokenMs),
    wallMs.toFixed(0),
  ];
  printMarkdownTable(
    ["Start", "prompt tokens", "evaluated", "from disk", "time to first token ms", "process wall ms"],
    [startRow("1st (evaluate + save)", cold), startRow("2nd (load)", warm)],
  );
  console.log("\nSystem prompt prefix: evaluate vs load (new instance each; state files in a temp folder)\n");
  printMarkdownTable(
    [
      "Prompt",
      "prompt tokens",
      "saved prefix",
      "state file",
      "evaluate ms",
      "save ms",
      "load ms",
      "evaluated 1st → 2nd",
      "TTFT ms 1st → 2nd",
    ],
    rows,
  );

  const limit = questionTokens + 0.1 * total(warm.meter);
  reportGoal({
    metric: "fresh npm start, round 1: prompt tokens evaluated",
    goal: `≤ question (${questionTokens}) + 10 % of prompt = ${limit.toFixed(0)}`,
    measured: `${warm.meter.promptTokensEvaluated} of ${total(warm.meter)} (without saved state: ${cold.meter.promptTokensEvaluated})`,
    met: warm.meter.promptTokensEvaluated <= limit,
  });
  if (plannerLoad && plannerSave) {
    reportGoal({
      metric: "planner prompt prefix: load from disk vs evaluate",
      goal: "load < evaluate",
      measured: `${plannerLoad.ms.toFixed(1)} ms vs ${(plannerSave.evaluateMs ?? 0).toFixed(1)} ms (${plannerSave.tokens} tokens, ${(plannerSave.bytes / 1e6).toFixed(1)} MB)`,
      met: plannerLoad.ms < (plannerSave.evaluateMs ?? 0),
    });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
