// Checks an output file's path before a long run: its folder is created (one level at a time: a recursive
// mkdir under /proc never returns on some Node versions) and a probe file is written and removed, so a
// wrong path fails in a second with a German message instead of after the whole run.
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { errorText } from "../../lib/util.js";
import { KitError } from "../../lib/errors.js";

/** An output path that cannot be written: what is wrong and what to do. */
export class OutputPathError extends KitError {
  override name = "OutputPathError";
}

/** The file system's reason in German (Node's own text is English). */
function reason(error: unknown, path: string): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return `den Ordner ${dirname(path)} gibt es nicht, und er lässt sich nicht anlegen.`;
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return "dort fehlen die Schreibrechte.";
    case "ENOSPC":
    case "EDQUOT":
      return "der Datenträger ist voll.";
    default:
      return `hier kann keine Datei geschrieben werden (${errorText(error)}).`;
  }
}

const missing = (error: unknown) => ["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "");

async function statOrUndefined(path: string) {
  try {
    return await stat(path);
  } catch (error) {
    if (missing(error)) return undefined;
    throw error;
  }
}

/** Makes sure `file` (named by `option` in messages, `example` a good path) can be written; creates its missing folders. */
export async function prepareOutputFile(file: string, option: string, example: string): Promise<void> {
  const path = resolve(file);
  const fail = (what: string) =>
    new OutputPathError(
      `${option} ${path}: ${what}\n  → Einen Pfad angeben, unter dem diese Datei geschrieben werden darf, z. B. ${option} ${example}.`,
    );
  try {
    if ((await statOrUndefined(path))?.isDirectory()) throw fail("das ist ein Ordner, keine Datei.");
    const create: string[] = [];
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const found = await statOrUndefined(dir);
      if (found && !found.isDirectory()) throw fail(`${dir} ist eine Datei, kein Ordner.`);
      if (found) break;
      create.unshift(dir);
      if (dirname(dir) === dir) break;
    }
    for (const dir of create)
      await mkdir(dir).catch((error: NodeJS.ErrnoException) =>
        error.code === "EEXIST" ? undefined : Promise.reject(error),
      );
    const probe = join(dirname(path), `.${basename(path)}.${process.pid}.probe`);
    await writeFile(probe, "");
    await rm(probe, { force: true });
  } catch (error) {
    if (error instanceof OutputPathError) throw error;
    throw fail(reason(error, path));
  }
}
