// A batch of questions through the plan agent → CSV: one row per question with status, rounds, tool
// calls, tokens and the answer.
//
//   npx tsx examples/batch-to-csv.ts [fragen.txt] > ergebnisse.csv
//
// Questions: one per line (default examples/data/fragen.txt; "#" lines and empty lines are skipped).
// The CSV goes to stdout, progress to stderr. Model and travel data come from the usual settings (.env).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadLlm, McpToolClient, runAgent, summarizeTrace, type AgentTrace } from "../lib/index.js";

const file = process.argv[2] ?? fileURLToPath(new URL("./data/fragen.txt", import.meta.url));
const questions = readFileSync(file, "utf8")
  .split(/\r?\n/)
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));

/** Tokens of all planning calls of a run: each `plan` / `plan_error` event carries its call's meter. */
function tokens(trace: AgentTrace): { prompt: number; generated: number } {
  let prompt = 0;
  let generated = 0;
  for (const e of trace.events) {
    if ((e.type === "plan" || e.type === "plan_error") && e.meter) {
      prompt += e.meter.promptTokensEvaluated + e.meter.promptTokensReused;
      generated += e.meter.generatedTokens;
    }
  }
  return { prompt, generated };
}

/** One CSV field (RFC 4180): numbers as they are; text quoted, inner quotes doubled, line breaks flattened. */
const field = (value: string | number) =>
  typeof value === "number" ? String(value) : `"${value.replace(/\s*\r?\n\s*/g, " ").replace(/"/g, '""')}"`;

const [llm, tools] = await Promise.all([loadLlm(), McpToolClient.connectStdio()]);
try {
  console.log(
    ["frage", "status", "runden", "tool_aufrufe", "werkzeuge", "tokens_prompt", "tokens_generiert", "antwort"].join(
      ",",
    ),
  );
  for (const [i, question] of questions.entries()) {
    console.error(`Frage ${i + 1}/${questions.length}: ${question}`);
    const result = await runAgent({ question, llm, tools, maxIterations: 3 });
    const summary = summarizeTrace(result.trace);
    const called = result.trace.events.flatMap((e) => (e.type === "tool_call" ? [e.toolName] : []));
    const { prompt, generated } = tokens(result.trace);
    const row = [
      question,
      result.status,
      result.iterations,
      summary.toolCalls,
      called.join(" "),
      prompt,
      generated,
      result.final,
    ];
    console.log(row.map(field).join(","));
  }
} finally {
  await Promise.allSettled([tools.close(), llm.dispose()]);
}
