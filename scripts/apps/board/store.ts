// The board's results on disk: one JSON file, read at start and written atomically (writeFileAtomic)
// shortly after every change, so a restart — even after a crash — keeps what participants reported.
// A file that is there but cannot be read, or is not the board's, stops the start (BoardDataError): the
// board never starts over with a new join code behind the instructor's back. A lock file beside it keeps
// a second board (or --entfernen) off the file while a board runs. The file holds the instructor's key
// and everyone's hands: it is the board owner's only (PRIVATE_FILE_MODE), and so is the default folder
// (participants' kernels on the same machine must not read it).
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { chmod, mkdir, readdir, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../../../lib/files.js";
import { errorText, processAlive } from "../../../lib/util.js";
import { parseStored, type BoardData, type BoardState } from "./state.js";
import { KitError } from "../../../lib/errors.js";

/** The results file's mode: it holds the instructor's key (server.ts). */
export const PRIVATE_FILE_MODE = 0o600;
/** The mode of the board's own folder (the default .cache/board/): no one else lists or reads it. */
export const PRIVATE_FOLDER_MODE = 0o700;

/** How long after a change the file is written (several posts in a burst become one write). */
export const SAVE_DELAY_MS = 200;

/** Why a file could not be read or written, short and in German (the error's code, not its English text). */
export function fileReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reasons: Record<string, string> = {
    ENOENT: "Ordner fehlt",
    ENOTDIR: "ein Teil des Pfads ist eine Datei, kein Ordner",
    EEXIST: "ein Teil des Pfads ist eine Datei, kein Ordner",
    EISDIR: "dort liegt ein Ordner",
    EACCES: "keine Berechtigung",
    EPERM: "keine Berechtigung",
    EROFS: "Datenträger schreibgeschützt",
    ENOSPC: "Datenträger voll",
    EDQUOT: "Datenträger voll",
  };
  return (code && reasons[code]) ?? (code ? `Fehler ${code}` : errorText(error).slice(0, 120));
}

/** The data file cannot be used; the message (German) says what to do. */
export class BoardDataError extends KitError {
  override name = "BoardDataError";
}

/** Reads the board's file: undefined when there is none; throws BoardDataError when it is unusable. */
export function loadBoard(path: string): BoardData | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined; // no file (yet); writing it says if it cannot be
    throw new BoardDataError(`Die Ergebnisdatei ${path} ist nicht lesbar (${fileReason(error)}). ${KEEP_HINT}`);
  }
  try {
    return parseStored(JSON.parse(text));
  } catch (error) {
    const why = error instanceof SyntaxError ? "kein gültiges JSON" : "nicht die Form einer Board-Datei";
    throw new BoardDataError(`Die Ergebnisdatei ${path} ist beschädigt (${why}). ${KEEP_HINT}`);
  }
}

const KEEP_HINT =
  "Das Board startet nicht, damit Beitrittscode und Ergebnisse nicht verloren gehen. Abhilfe: die Datei reparieren " +
  "oder aus einer Sicherung holen; oder sie umbenennen – dann beginnt das Board leer und mit einem NEUEN Beitrittscode, " +
  "den alle Teilnehmenden neu eingeben müssen (oder alten Code mit --code angeben).";

function unwritable(path: string, error: unknown): string {
  return (
    `Die Ergebnisdatei ${path} kann nicht geschrieben werden (${fileReason(error)}). Das Board startet nicht, denn ` +
    `Ergebnisse gingen beim nächsten Neustart verloren. Abhilfe: Schreibrechte für ${dirname(path)} geben oder mit --data ` +
    "eine Datei in einem beschreibbaren Ordner wählen."
  );
}

/** Temporary files of writeFileAtomic for `path`: `<name>.<pid>.<hex>.tmp`. */
function tempPid(path: string, name: string): number | undefined {
  const prefix = `${basename(path)}.`;
  if (!name.startsWith(prefix)) return undefined;
  const match = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
  return match ? Number(match[1]) : undefined;
}

/** Removes temporary files of `path` left by a board that was killed while writing; returns their names. */
export async function removeLeftoverTemps(path: string): Promise<string[]> {
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  const left = names.filter((name) => {
    const pid = tempPid(path, name);
    return pid !== undefined && (pid === process.pid || !processAlive(pid));
  });
  await Promise.all(left.map((name) => rm(join(dirname(path), name), { force: true })));
  return left;
}

/**
 * Makes the data file's folder, takes its lock, removes temporary files left by a killed board and makes an
 * existing file (written by an older board with 0644) the owner's only; `ownFolder`: the folder is the board's
 * own (the default one), made and kept PRIVATE_FOLDER_MODE – a folder chosen with --data may be shared and
 * keeps its mode. Throws BoardDataError when the folder cannot be written or another board holds the file.
 */
export async function prepareBoardFile(path: string, options: { ownFolder?: boolean } = {}): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true, ...(options.ownFolder ? { mode: PRIVATE_FOLDER_MODE } : {}) });
    if (options.ownFolder) await chmod(dirname(path), PRIVATE_FOLDER_MODE);
    await chmod(path, PRIVATE_FILE_MODE).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  } catch (error) {
    throw new BoardDataError(unwritable(path, error));
  }
  lockBoardFile(path);
  await removeLeftoverTemps(path);
}

/** The process id of a running board that holds `path`'s lock, or undefined. */
export function boardHoldingLock(path: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(`${path}.lock`, "utf8").trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid) ? pid : undefined;
}

/** Takes `path`'s lock for this process (released at exit); throws BoardDataError when a board holds it. */
export function lockBoardFile(path: string): void {
  const holder = boardHoldingLock(path);
  if (holder !== undefined) {
    throw new BoardDataError(
      `Ein anderes Board (Prozess ${holder}) nutzt ${path} schon. Erst dort mit Strg+C beenden – oder mit --data eine andere Datei wählen. ` +
        `(Läuft sicher keins mehr, ${path}.lock löschen.)`,
    );
  }
  try {
    writeFileSync(`${path}.lock`, `${process.pid}\n`);
  } catch (error) {
    throw new BoardDataError(unwritable(path, error));
  }
  process.once("exit", () => rmSync(`${path}.lock`, { force: true }));
}

/** Writes the state SAVE_DELAY_MS after the last change request; `flush` writes now. */
export class BoardSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();
  private failing = false;

  constructor(
    private readonly path: string,
    private readonly state: BoardState,
    private readonly log: (line: string) => void,
  ) {}

  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), SAVE_DELAY_MS);
  }

  /**
   * Writes the current state (after any write still running). A failure is logged (once until a write
   * succeeds again); with `strict` it is thrown as a BoardDataError instead (the start's first write).
   */
  async flush(options: { strict?: boolean } = {}): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const text = `${JSON.stringify(this.state.data())}\n`;
    let failure: unknown;
    this.writing = this.writing.then(async () => {
      try {
        await mkdir(dirname(this.path), { recursive: true, mode: PRIVATE_FOLDER_MODE });
        await writeFileAtomic(this.path, text, { mode: PRIVATE_FILE_MODE });
        if (this.failing) this.log(`Ergebnisse wieder gespeichert in ${this.path}.`);
        this.failing = false;
      } catch (error) {
        failure = error;
        if (!options.strict && !this.failing) {
          this.log(
            `WARNUNG: Ergebnisse konnten nicht gespeichert werden (${fileReason(error)}) – ein Neustart verliert sie. Speicherplatz und Schreibrechte für ${dirname(this.path)} prüfen.`,
          );
        }
        this.failing = true;
      }
    });
    await this.writing;
    if (failure !== undefined && options.strict) {
      throw new BoardDataError(unwritable(this.path, failure));
    }
  }
}
