// The sliding window's soak (moved out of the unit tests; test/agent/session.test.ts keeps a short
// version): 20 planning rounds of one run and 10 follow-up questions in one AgentSession on the configured
// GGUF (the tiny model under `npm run bench`), context 4096. Goals: no run ends with a context overflow
// or another LLM error, and the window did trim; the times are reported beside them.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentSession, loadLocalLlm, runAgent, type AgentEvent } from "../lib/index.js";
import { createTravelFake, TODAY } from "../test/agent/fixtures.js";
import { reportGoal } from "./summary.js";

const stateDir = await mkdtemp(join(tmpdir(), "bench-window-state-"));
const llm = await loadLocalLlm({ gpu: "cpu", contextSize: 4096, promptStateDir: stateDir, warmStateDir: false });
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

try {
  let started = performance.now();
  const events: AgentEvent[] = [];
  const run = await runAgent({
    question: "Wie wird das Wetter morgen in Rom?",
    llm,
    tools: createTravelFake(),
    today: TODAY,
    maxIterations: 20,
    // A seed whose random plans run long enough to need the window (seed 3 answers in round 2).
    generation: { maxTokens: 200, temperature: 0.8, seed: 4 },
    onEvent: (e) => events.push(e),
  });
  const rounds = events.filter((e) => e.type === "plan" || e.type === "plan_error").length;
  const trims = events.filter((e) => e.type === "history_trimmed").length;
  const generationErrors = events.filter((e) => e.type === "plan_error" && e.kind === "generation").length;
  reportGoal({
    metric: "window: 20 planning rounds",
    goal: "answered or max_iterations, no generation error",
    measured: `${run.status}, ${rounds} rounds, ${trims} trims, ${generationErrors} generation errors, ${seconds(started)} s`,
    met: ["answered", "max_iterations"].includes(run.status) && generationErrors === 0,
  });

  started = performance.now();
  const session = new AgentSession({
    llm,
    tools: createTravelFake(),
    today: TODAY,
    maxIterations: 3,
    generation: { maxTokens: 200, temperature: 0.8, seed: 5 },
    contextWindow: { maxPromptTokens: 1800 }, // the planner prompt (1,264 tokens) + about two turns
  });
  const questions = [
    "Wie wird das Wetter morgen in Rom?",
    "Und übermorgen?",
    "Und in Berlin?",
    "Wo kann ich dort joggen?",
    "Gibt es Parks?",
    "Und in Barcelona?",
    "Regnet es dort?",
    "Wie warm wird es?",
    "Und am Wochenende?",
    "Danke, und nächste Woche?",
  ];
  let dropped = 0;
  const llmErrors: string[] = [];
  for (const q of questions) {
    const result = await session.ask(q, {
      onEvent: (e) => (dropped += e.type === "history_trimmed" ? e.report.droppedHistoryMessages : 0),
    });
    if (result.status === "llm_error") llmErrors.push(`${q}: ${result.error ?? ""}`);
  }
  reportGoal({
    metric: "window: 10 follow-up questions",
    goal: "no LLM error, earlier turns left out",
    measured: `${llmErrors.length} LLM errors, ${dropped} messages left out, ${session.turns.length} turns kept, ${seconds(started)} s${llmErrors.length ? ` (${llmErrors.join("; ")})` : ""}`,
    met: llmErrors.length === 0 && dropped > 0,
  });
} finally {
  await llm.dispose();
  await rm(stateDir, { recursive: true, force: true });
}
