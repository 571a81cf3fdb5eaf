// A small JSON file cache with a time-to-live per entry. Writes are atomic (temp file + rename), so a
// crash or a concurrent reader never sees half a file; unreadable entries count as misses.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

interface CacheEntry {
  created_at: number;
  key: string;
  value: unknown;
}

export interface JsonCache {
  get(namespace: string, key: string, ttlMs: number): Promise<unknown>;
  set(namespace: string, key: string, value: unknown): Promise<void>;
}

export class FileCache implements JsonCache {
  constructor(
    readonly dir: string,
    private readonly now: () => number = Date.now,
    /** Called when an entry cannot be written; the cache never fails a request. */
    private readonly onWriteError: (error: unknown) => void = (error) =>
      console.error(`[travel] Cache-Eintrag nicht geschrieben: ${String(error)}`),
  ) {}

  private file(namespace: string, key: string): string {
    const hash = createHash("sha256").update(key).digest("hex").slice(0, 40);
    return join(this.dir, namespace.replace(/[^a-z0-9_-]/gi, "_"), `${hash}.json`);
  }

  /** The cached value, or undefined when missing, expired or unreadable. */
  async get(namespace: string, key: string, ttlMs: number): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.file(namespace, key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const entry = JSON.parse(text) as Partial<CacheEntry>;
      if (entry.key !== key || typeof entry.created_at !== "number") return undefined;
      if (this.now() - entry.created_at > ttlMs) return undefined;
      return entry.value;
    } catch {
      return undefined;
    }
  }

  async set(namespace: string, key: string, value: unknown): Promise<void> {
    const target = this.file(namespace, key);
    const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const entry: CacheEntry = { created_at: this.now(), key, value };
    try {
      await mkdir(join(target, ".."), { recursive: true });
      await writeFile(temp, JSON.stringify(entry), "utf8");
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      this.onWriteError(error);
    }
  }
}

/** Cache that stores nothing (caching disabled). */
export class NoCache implements JsonCache {
  async get(): Promise<unknown> {
    return undefined;
  }
  async set(): Promise<void> {}
}
