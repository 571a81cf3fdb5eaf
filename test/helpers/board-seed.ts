// Board data for the tests: a record as a self-check posts it, and stored results made through the board's own state
// (the stored format stays the board's).
import { BOARD_CHECKS, type BoardPart, type BoardRecord } from "../../lib/exercises/board-record.js";
import { BoardState } from "../../scripts/apps/board/state.js";

const MINUTE = 60_000;

/** A passed buildMessages check of Aufgabe 1 by `name`, now; `extra` changes any field. */
export const boardRecord = (name: string, extra: Partial<BoardRecord> = {}): BoardRecord => ({
  name,
  aufgabe: 1,
  check: "buildMessages",
  passed: 5,
  failed: 0,
  at: new Date().toISOString(),
  ...extra,
});

export interface BoardSeed {
  state: BoardState;
  /**
   * `name` passed the first `checks` checks of `aufgabe` `minutesAgo` minutes before `now`; with `failed` > 0 the
   * next check then failed that many cases.
   */
  run(name: string, aufgabe: BoardPart, checks: number, failed: number, minutesAgo: number): void;
}

export function boardSeed(code: string, now: number): BoardSeed {
  const state = new BoardState(code);
  const run = (name: string, aufgabe: BoardPart, checks: number, failed: number, minutesAgo: number) => {
    const at = now - minutesAgo * MINUTE;
    for (const check of BOARD_CHECKS[aufgabe].slice(0, checks))
      state.apply({ name, aufgabe, check, passed: 3, failed: 0, at: "" }, at);
    if (failed > 0)
      state.apply({ name, aufgabe, check: BOARD_CHECKS[aufgabe][checks]!, passed: 1, failed, at: "" }, at);
  };
  return { state, run };
}
