// Which self-checks belong to which part, in notebook order. The tests and the set-up cells read this.
import type { AnyFunction, CheckFunction } from "./check-runner.js";
import { checkBuildMessages, checkIsRefusal, checkRefusalPrompt, checkTrimHistory } from "./part1-checks.js";
import { checkChunkSentences, checkHitAtK, checkSmallestK } from "./part2-checks.js";
import { checkCoordinatesFromHistory, checkMissingArguments, checkParseToolCall } from "./part3-checks.js";
import { checkReadyCalls, checkReferencedIds, checkResolveRefs } from "./part4-checks.js";
import { checkRechenPrompt, checkRechneAufruf, checkRetrieveContext, checkStreckenPlan } from "./transfer-checks.js";

export type WorkshopPart = 1 | 2 | 3 | 4;

/** The checks of every part, in the order of the Aufgaben. */
export const EXERCISE_CHECKS: Readonly<Record<WorkshopPart, ReadonlyArray<CheckFunction<AnyFunction>>>> = {
  1: [checkBuildMessages, checkTrimHistory, checkRefusalPrompt, checkIsRefusal],
  2: [checkChunkSentences, checkHitAtK, checkSmallestK, checkRetrieveContext],
  3: [checkParseToolCall, checkMissingArguments, checkCoordinatesFromHistory, checkRechenPrompt, checkRechneAufruf],
  4: [checkResolveRefs, checkReferencedIds, checkReadyCalls, checkStreckenPlan],
} as Record<WorkshopPart, ReadonlyArray<CheckFunction<AnyFunction>>>;

/** "1. buildMessages – Verlauf als Nachrichtenliste" lines for a part. */
export function taskOverview(part: WorkshopPart): string[] {
  return EXERCISE_CHECKS[part].map((check, i) => `${i + 1}. ${check.set.functionName} – ${check.set.title}`);
}
