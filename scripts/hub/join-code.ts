// The class's one join code: the board's (kept in the board's results file), so a participant types the
// same code at the hub's login and the board accepts their kernel's self-check reports.
import { join } from "node:path";
import { randomJoinCode } from "../board/join-code.js";
import { BoardState } from "../board/state.js";
import { BoardSaver, loadBoard } from "../board/store.js";

export function boardDataPath(kitRoot: string): string {
  return join(kitRoot, ".cache", "board", "ergebnisse.json");
}

/** `explicit` when given; else the code stored in the board's file `path`; else a new one, stored there for the board. */
export async function classJoinCode(path: string, explicit: string | undefined, log: (line: string) => void): Promise<string> {
  if (explicit) return explicit;
  const stored = loadBoard(path); // an unusable file: BoardDataError with the board's own German advice
  if (stored) return stored.joinCode;
  const state = new BoardState(randomJoinCode(), []);
  await new BoardSaver(path, state, log).flush({ strict: true });
  return state.joinCode;
}
