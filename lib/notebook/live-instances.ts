// "Run All" safety: at most one live instance per slot (the LLM, the embedder, the travel and math servers).
// Loading again with the same settings returns the live instance; different settings dispose the old
// one first. The registry is module state, so it lives as long as the process (a notebook kernel).
import { ignore } from "../util.js";

interface Entry {
  key: string;
  value: Promise<unknown>;
  dispose: () => Promise<void>;
  isAlive: () => boolean;
  /** Set once created. */
  resolved?: unknown;
}

const slots = new Map<string, Entry>();

export interface LiveInstanceOptions<T> {
  create: () => Promise<T>;
  dispose: (value: T) => Promise<void>;
  /** False when the instance died on its own (e.g. a server process exited); default always alive. */
  isAlive?: (value: T) => boolean;
  /** Told what happened ("reused", "replaced"), e.g. to print one line in a notebook. */
  onEvent?: (event: "reused" | "replaced") => void;
}

/** The live instance of `slot` for `key`: reused when the key matches, else created (after disposing the old one). */
export async function liveInstance<T>(slot: string, key: string, options: LiveInstanceOptions<T>): Promise<T> {
  const current = slots.get(slot);
  if (current) {
    if (current.key === key) {
      try {
        const value = (await current.value) as T;
        if (current.isAlive() && slots.get(slot) === current) {
          options.onEvent?.("reused");
          return value;
        }
      } catch {
        // the earlier load failed; it already left the slot
      }
    }
    if (slots.get(slot) === current) {
      slots.delete(slot);
      await current.dispose().catch(ignore("the old instance's dispose failing must not block its replacement"));
      if (current.key !== key) options.onEvent?.("replaced");
    }
  }
  const value = options.create();
  const entry: Entry = {
    key,
    value,
    dispose: async () => {
      const v = await value.catch(ignore("an instance that failed to start has nothing to dispose"));
      if (v !== undefined) await options.dispose(v as T);
    },
    isAlive: () => entry.resolved === undefined || (options.isAlive?.(entry.resolved as T) ?? true),
  };
  slots.set(slot, entry);
  try {
    const created = await value;
    entry.resolved = created;
    return created;
  } catch (error) {
    if (slots.get(slot) === entry) slots.delete(slot);
    throw error;
  }
}

/** Forgets `value` if it is the live instance of `slot` (call from its own dispose/stop). */
export function releaseLiveInstance(slot: string, value: unknown): void {
  const entry = slots.get(slot);
  if (entry && entry.resolved === value) slots.delete(slot);
}

/** How many slots hold an instance (tests). */
export function liveInstanceCount(): number {
  return slots.size;
}
