// Writing a whole file at once: a temporary file with a name of its own, then a rename, so a crash or a
// second writer at the same moment never leaves half a file (the last rename wins, whole).
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { ignore } from "./util.js";

/**
 * Writes `text` to `path` atomically; on failure the temporary file is removed and the error rethrown.
 * `mode` (e.g. 0o600 for a secret) is the file's mode from its creation on, never wider for a moment.
 */
export async function writeFileAtomic(path: string, text: string, options: { mode?: number } = {}): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(tmp, text, {
      encoding: "utf8",
      flag: "wx",
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    });
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true }).catch(ignore("the temporary file of a failed write may not exist"));
    throw error;
  }
}
