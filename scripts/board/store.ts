// The board's results on disk: one JSON file, read at start and written atomically (writeFileAtomic)
// shortly after every change, so a restart — even after a crash — keeps what participants reported.
import { existsSync, readFileSync, renameSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../lib/files.js";
import { errorText } from "../../lib/util.js";
import { BoardState, parseStored, type BoardData } from "./state.js";

/** How long after a change the file is written (several posts in a burst become one write). */
export const SAVE_DELAY_MS = 200;

/** Reads the board's file; a missing file is an empty board, an unreadable one is moved aside. */
export function loadBoard(path: string, log: (line: string) => void): BoardData | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return parseStored(JSON.parse(readFileSync(path, "utf8")));
  } catch (error) {
    const aside = `${path}.defekt-${Date.now()}`;
    renameSync(path, aside);
    log(`Die Ergebnisdatei war nicht lesbar (${errorText(error).slice(0, 200)}); sie liegt jetzt unter ${aside}. Das Board beginnt leer.`);
    return undefined;
  }
}

/** Writes the state SAVE_DELAY_MS after the last change request; `flush` writes now. */
export class BoardSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly state: BoardState,
    private readonly log: (line: string) => void,
  ) {}

  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS);
  }

  /** Writes the current state (after any write still running). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const text = `${JSON.stringify(this.state.data())}\n`;
    this.writing = this.writing.then(async () => {
      try {
        await mkdir(dirname(this.path), { recursive: true });
        await writeFileAtomic(this.path, text);
      } catch (error) {
        this.log(`Ergebnisse konnten nicht gespeichert werden: ${errorText(error)}`);
      }
    });
    return this.writing;
  }
}
