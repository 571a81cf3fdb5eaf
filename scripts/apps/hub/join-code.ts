// The class's one join code: the board's (kept in the board's results file), so a participant types the
// same code at the hub's login and the board accepts their kernel's self-check reports.
//
// Strength at the hub's login: the generated code has 31^12 ≈ 7.9·10^17 values (board/join-code.ts). The
// login compares every code it is given (a right code is never refused because of wrong tries,
// board/limits.ts), so the wrong-code limits do not bound guessing — the hub's speed does, and it decides
// one login at a time (jupyterhub_config.py's LOGIN_LOCK, a loopback round trip to login-check.ts each).
// Even at 1,000 logins a second, far more than one JupyterHub answers (measured: ~140 a second with 8 at once, 2-core VM), a whole day is 8.64·10^7 guesses: a chance of
// 8.64·10^7 / 7.9·10^17 ≈ 1.1·10^-10 of hitting the code. A chosen --code shorter than that is warned
// about at start (weakJoinCode).
import { join } from "node:path";
import { randomJoinCode } from "../board/join-code.js";
import { BoardState } from "../board/state.js";
import { BoardSaver, loadBoard } from "../board/store.js";

export function boardDataPath(kitRoot: string): string {
  return join(kitRoot, ".cache", "board", "ergebnisse.json");
}

/** `explicit` when given; else the code stored in the board's file `path`; else a new one, stored there for the board. */
export async function classJoinCode(
  path: string,
  explicit: string | undefined,
  log: (line: string) => void,
): Promise<string> {
  if (explicit) return explicit;
  const stored = loadBoard(path); // an unusable file: BoardDataError with the board's own German advice
  if (stored) return stored.joinCode;
  const state = new BoardState(randomJoinCode(), []);
  await new BoardSaver(path, state, log).flush({ strict: true });
  return state.joinCode;
}
