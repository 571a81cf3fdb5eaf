// The German title of each self-check, as the notebooks name it for participants ("Trefferquote hit@k"
// for hitAtK): the board's lines about a check use it instead of the function's English name.
import { EXERCISE_CHECKS } from "../../../lib/exercises/index.js";

const TITLES: ReadonlyMap<string, string> = new Map(
  Object.values(EXERCISE_CHECKS)
    .flat()
    .map((check) => [check.set.functionName, check.set.title]),
);

/** The check's German title; the function name itself for a check without one. */
export function checkTitle(functionName: string): string {
  return TITLES.get(functionName) ?? functionName;
}
