// The Modell-Check's questions in rehearsal: the scripted planner knows the task set
// (data/eval/agent-tasks.json) and answers a task with the task's own oracle plan, the answer filled
// from the real tool results — so Teil 4's Modell-Check shows the script doing its tasks, not
// "only the script" counted as a model's failure.
import { join } from "node:path";
import { findProjectRoot } from "../config.js";
import { loadTaskSet, type EvalTask, type TaskOracle } from "../eval/tasks.js";
import type { ChatMessage } from "../llm/types.js";

let cached: readonly EvalTask[] | undefined;

/** The kit's task set, read once; none when the file is missing or broken (rehearsal then says "only the script"). */
function evalTasks(): readonly EvalTask[] {
  if (!cached) {
    try {
      cached = loadTaskSet(join(findProjectRoot(), "data", "eval", "agent-tasks.json")).tasks;
    } catch {
      cached = [];
    }
  }
  return cached;
}

/**
 * The oracle of the task asked here: same question (the whole message, or its "Frage: …" line in the
 * answer writer's), and — where the task has them — its earlier turns in the conversation and its context
 * (the follow-up and RAG tasks share their questions).
 */
export function evalOracleFor(message: string, messages: readonly ChatMessage[]): TaskOracle | undefined {
  const question = (/\nFrage: ([^\n]*)$/.exec(message)?.[1] ?? message).trim();
  const has = (text: string, role?: ChatMessage["role"]) =>
    messages.some((m) => (!role || m.role === role) && m.content.includes(text));
  const task = evalTasks().find(
    (t) =>
      t.question === question &&
      (t.history ?? []).every((m) => has(m.content, m.role)) &&
      (t.context === undefined || has(t.context)),
  );
  return task?.oracle;
}
