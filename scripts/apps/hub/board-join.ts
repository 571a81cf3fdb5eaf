// Puts a participant who logs in at the hub on the class board at once ("nicht begonnen"), through the
// board's own join (BOARD_JOIN_PATH with the join code, as `npm run workshop` does at start), with the board's
// hub key where the hub has it: the hub's own channel, not the per-address limit all kernels share (hub-trust.ts).
import {
  BOARD_CODE_HEADER,
  BOARD_HUB_HEADER,
  BOARD_JOIN_PATH,
  boardRefusalText,
} from "../../../lib/exercises/board-record.js";

/** How long a login waits for the board at most; an unreachable board never blocks a login. */
export const BOARD_JOIN_TIMEOUT_MS = 1500;

export type BoardJoin =
  | { outcome: "on-board" }
  /** The board refuses the name itself (a look-alike of a name on the board, invisible characters): the board's German reason. */
  | { outcome: "name-refused"; reason: string }
  /** Not on the board now (board full, busy, other code, unreachable): why, for the instructor's console. */
  | { outcome: "not-on-board"; reason: string };

export async function joinBoard(boardUrl: string, code: string, name: string, hubKey?: string): Promise<BoardJoin> {
  let response: Response;
  try {
    response = await fetch(new URL(BOARD_JOIN_PATH, boardUrl), {
      method: "POST",
      headers: {
        [BOARD_CODE_HEADER]: code,
        "content-type": "application/json",
        ...(hubKey ? { [BOARD_HUB_HEADER]: hubKey } : {}),
      },
      body: JSON.stringify({ name }),
      signal: AbortSignal.timeout(BOARD_JOIN_TIMEOUT_MS),
    });
  } catch {
    return { outcome: "not-on-board", reason: `Board unter ${boardUrl} nicht erreichbar` };
  }
  if (response.ok) return { outcome: "on-board" };
  const reason = boardRefusalText(await response.json().catch(() => ({})));
  if (response.status === 403)
    return {
      outcome: "not-on-board",
      reason: "das Board lehnt den Beitrittscode des Hubs ab – Board und Hub brauchen denselben Code (--code)",
    };
  if (/^Der Name/.test(reason)) return { outcome: "name-refused", reason };
  return { outcome: "not-on-board", reason: reason || `Board antwortet mit HTTP ${response.status}` };
}
