// A temporary file for the index round trips (FAISS and USearch read and write only whole files).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs `use` with the path of a file `name` in a fresh temporary folder, which is removed afterwards. */
export function withTempFile<T>(prefix: string, name: string, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return use(join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
