// Participants' answers to the exercises, written as in the solution notebooks, for tests and benches that need a
// self-check run to pass (the board's tests, the board bench).
import type { BuildMessagesFn } from "../../lib/exercises/part1-checks.js";

/** Aufgabe 1: system message (when given), the turns as user/assistant pairs, then the question. */
export const correctBuildMessages: BuildMessagesFn = (system, turns, question) => [
  ...(system ? [{ role: "system" as const, content: system }] : []),
  ...turns.flatMap((t) => [
    { role: "user" as const, content: t.user },
    { role: "assistant" as const, content: t.assistant },
  ]),
  { role: "user" as const, content: question },
];
