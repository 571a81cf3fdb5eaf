// A small JSON file cache with a time-to-live per entry. Writes are atomic (temp file + rename), so a
// crash or a concurrent reader never sees half a file. Reads check the value against the caller's
// schema: an unreadable, expired or wrongly shaped entry is a miss (and is deleted). sweep() removes
// temp files left by a crash and expired entries (the server runs it at start-up).
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { z } from "zod";
import { ignore, processAlive } from "../../../lib/util.js";

interface CacheEntry {
  created_at: number;
  /** Absent in entries written before expiry times were stored; sweep() then uses MAX_TTL_MS. */
  expires_at?: number;
  key: string;
  value: unknown;
}

/** The longest TTL any namespace uses (geocode and archive: 30 days). */
export const MAX_TTL_MS = 30 * 86_400_000;
/** A temp file of a process still running is left alone for this long (it may be mid-write). */
const TEMP_GRACE_MS = 10 * 60_000;

export interface JsonCache {
  /** The cached value if present, fresh and valid for `schema`; undefined otherwise. */
  get<S extends z.ZodType>(namespace: string, key: string, ttlMs: number, schema: S): Promise<z.output<S> | undefined>;
  set(namespace: string, key: string, value: unknown, ttlMs?: number): Promise<void>;
}

export interface SweepResult {
  tempFiles: number;
  expired: number;
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

  async get<S extends z.ZodType>(
    namespace: string,
    key: string,
    ttlMs: number,
    schema: S,
  ): Promise<z.output<S> | undefined> {
    const file = this.file(namespace, key);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      return undefined;
    }
    let entry: Partial<CacheEntry>;
    try {
      entry = JSON.parse(text) as Partial<CacheEntry>;
    } catch {
      await rm(file, { force: true }).catch(ignore("a cache file that is already gone"));
      return undefined;
    }
    if (entry.key !== key || typeof entry.created_at !== "number") return undefined; // a hash collision: keep it
    if (this.now() - entry.created_at > ttlMs) return undefined;
    const parsed = schema.safeParse(entry.value);
    if (!parsed.success) {
      // Written by an older version or edited by hand: fetch again rather than serve it.
      await rm(file, { force: true }).catch(ignore("a cache file that is already gone"));
      return undefined;
    }
    return parsed.data;
  }

  async set(namespace: string, key: string, value: unknown, ttlMs?: number): Promise<void> {
    const target = this.file(namespace, key);
    const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const created = this.now();
    const entry: CacheEntry = {
      created_at: created,
      ...(ttlMs !== undefined ? { expires_at: created + ttlMs } : {}),
      key,
      value,
    };
    try {
      await mkdir(join(target, ".."), { recursive: true });
      await writeFile(temp, JSON.stringify(entry), "utf8");
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true }).catch(ignore("the temporary file of a failed write may not exist"));
      this.onWriteError(error);
    }
  }

  /** Deletes temp files of crashed writers and expired or unreadable entries. */
  async sweep(): Promise<SweepResult> {
    const result: SweepResult = { tempFiles: 0, expired: 0 };
    let namespaces: string[];
    try {
      namespaces = await readdir(this.dir);
    } catch {
      return result; // no cache yet
    }
    for (const ns of namespaces) {
      let names: string[];
      try {
        names = await readdir(join(this.dir, ns));
      } catch {
        continue; // not a folder
      }
      for (const name of names) {
        const file = join(this.dir, ns, name);
        if (name.endsWith(".tmp")) {
          if (await this.staleTemp(name, file)) {
            await rm(file, { force: true }).catch(ignore("a cache file that is already gone"));
            result.tempFiles++;
          }
        } else if (name.endsWith(".json") && (await this.expired(file))) {
          await rm(file, { force: true }).catch(ignore("a cache file that is already gone"));
          result.expired++;
        }
      }
    }
    return result;
  }

  private async staleTemp(name: string, file: string): Promise<boolean> {
    const pid = Number(/\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1]);
    if (!(pid > 0) || !processAlive(pid)) return true;
    const info = await stat(file).catch(ignore("a file that is gone is no cache hit"));
    return info !== undefined && this.now() - info.mtimeMs > TEMP_GRACE_MS;
  }

  private async expired(file: string): Promise<boolean> {
    try {
      const entry = JSON.parse(await readFile(file, "utf8")) as Partial<CacheEntry>;
      if (typeof entry.created_at !== "number") return true;
      const expires = typeof entry.expires_at === "number" ? entry.expires_at : entry.created_at + MAX_TTL_MS;
      return this.now() > expires;
    } catch {
      return true;
    }
  }
}

/** Cache that stores nothing (caching disabled). */
export class NoCache implements JsonCache {
  async get(): Promise<undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
}
