// Persisted prompt state: the KV cache of a long, stable prompt prefix (the planner's or the half-agent's
// system prompt with the tool catalog) saved to disk with node-llama-cpp's context sequence
// saveStateToFile / loadStateFromFile, so a new process loads it instead of evaluating it again.
//
// Safety: llama.cpp trusts a state file blindly (a foreign file can crash the process or, worse, give
// silently wrong answers). So every state file has a JSON sidecar with the full cache key (model file
// identity, context settings, prefix tokens) and the state file's SHA-256; a file is loaded only when
// both match, and the tokens it restores must equal the expected prefix. Anything else is ignored
// with a German note, deleted and evaluated again — never a crash, never a wrong hit.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { PromptStateEvent } from "./types.js";
import { errorText } from "../util.js";

const FORMAT = "workshop-kit prompt state v1";
const SIDECAR = ".json";
const STATE = ".kvstate";

/** A state file that was not used (unreadable, foreign, stale) or could not be written; `note` says why. */
function rejected(prefix: readonly Token[], started: number, file: string, note: string): PromptStateEvent {
  return { action: "rejected", tokens: prefix.length, ms: performance.now() - started, bytes: 0, file, note };
}

interface Sidecar {
  format: string;
  key: string;
  tokens: number;
  bytes: number;
  sha256: string;
  model: string;
  createdAt: string;
}

/**
 * Cheap but safe identity of a model file: size, modification time and SHA-256 of its first and last
 * MiB (the GGUF header with all metadata, and the last tensor's data).
 */
export async function modelFileIdentity(path: string): Promise<string> {
  const info = await stat(path);
  const hash = createHash("sha256").update(`${info.size}:${info.mtimeMs}`);
  const chunk = Math.min(1 << 20, info.size);
  const handle = await open(path, "r");
  try {
    for (const position of [0, Math.max(0, info.size - chunk)]) {
      const buf = Buffer.alloc(chunk);
      await handle.read(buf, 0, chunk, position);
      hash.update(buf);
    }
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}

/** The cache key: model identity, context settings that shape the KV state, and the prefix tokens. */
export function promptStateKey(modelIdentity: string, settings: Record<string, unknown>, tokens: readonly Token[]): string {
  return createHash("sha256")
    .update(FORMAT)
    .update(modelIdentity)
    .update(JSON.stringify(settings))
    .update(new Uint8Array(Uint32Array.from(tokens as readonly number[]).buffer))
    .digest("hex");
}

/**
 * The part of `prompt` worth persisting: the first system message's tokens (`firstMessage`, rendered
 * alone) minus `margin` tokens at its end, where the chat template closes the message and BPE merges
 * may depend on what follows. Cutting there gives the same prefix whatever comes next (a context
 * message, history, the question), so one file serves them all. Undefined when shorter than `minTokens`
 * or not a prefix of `prompt`.
 */
export function stablePrefix(prompt: readonly Token[], firstMessage: readonly Token[], minTokens: number, margin = 8): Token[] | undefined {
  const length = Math.min(firstMessage.length - margin, prompt.length - 1);
  if (length < minTokens) return undefined;
  for (let i = 0; i < length; i++) if (prompt[i] !== firstMessage[i]) return undefined;
  return prompt.slice(0, length);
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function sameTokens(a: readonly Token[], b: readonly Token[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

export interface PromptStateCacheOptions {
  /** Folder for the state files (created on first save). */
  dir: string;
  /** Newest entries kept; older ones are deleted after each save (default 4). */
  maxEntries?: number;
}

/** Saves and restores context sequence states under `dir`, keyed by {@link promptStateKey}. */
export class PromptStateCache {
  readonly dir: string;
  private readonly maxEntries: number;

  constructor(options: PromptStateCacheOptions) {
    this.dir = options.dir;
    this.maxEntries = options.maxEntries ?? 4;
  }

  /** Path of the state file for `key`. */
  stateFile(key: string): string {
    return join(this.dir, key.slice(0, 32) + STATE);
  }

  private sidecarFile(key: string): string {
    return join(this.dir, key.slice(0, 32) + SIDECAR);
  }

  /**
   * Loads the state for `key` into `sequence` (its previous contents are replaced). Returns undefined
   * when nothing is stored, a "rejected" event (with a note, files removed, sequence emptied) when the
   * stored files do not verify, and a "loaded" event when the sequence now holds exactly `prefix`.
   */
  async restore(sequence: LlamaContextSequence, key: string, prefix: readonly Token[]): Promise<PromptStateEvent | undefined> {
    const started = performance.now();
    const file = this.stateFile(key);
    let raw: string;
    try {
      raw = await readFile(this.sidecarFile(key), "utf8");
    } catch {
      return undefined;
    }
    const reject = async (why: string): Promise<PromptStateEvent> => {
      await sequence.clearHistory().catch(() => undefined);
      await this.remove(key);
      return rejected(prefix, started, file, `Gespeicherter Prompt-Zustand ${basename(file)} wird ignoriert (${why}); der Prompt wird neu berechnet.`);
    };
    let meta: Sidecar;
    try {
      meta = JSON.parse(raw) as Sidecar;
    } catch {
      return reject("Beschreibungsdatei beschädigt");
    }
    if (meta?.format !== FORMAT || meta.key !== key) return reject("gehört zu einem anderen Modell, Prompt oder Format");
    if (meta.tokens !== prefix.length) return reject("falsche Tokenzahl");
    let bytes: number;
    try {
      bytes = (await stat(file)).size;
    } catch {
      return reject("Zustandsdatei fehlt");
    }
    if (bytes !== meta.bytes) return reject(`Zustandsdatei hat ${bytes} statt ${meta.bytes} Bytes`);
    if ((await sha256File(file).catch(() => "")) !== meta.sha256) return reject("Prüfsumme stimmt nicht, Datei beschädigt oder fremd");
    try {
      await sequence.loadStateFromFile(file, { acceptRisk: true });
    } catch (error) {
      return reject(`llama.cpp konnte sie nicht laden: ${errorText(error)}`);
    }
    if (!sameTokens(sequence.contextTokens, prefix)) return reject("enthält andere Tokens als erwartet");
    const now = new Date();
    await utimes(this.sidecarFile(key), now, now).catch(() => undefined);
    return { action: "loaded", tokens: prefix.length, ms: performance.now() - started, bytes, file };
  }

  /**
   * Writes the state of `sequence`, which must hold exactly `prefix`, under `key` (atomically: temp
   * file, checksum, rename). A failure to write (read-only or full disk) becomes a note, never an error.
   */
  async save(sequence: LlamaContextSequence, key: string, prefix: readonly Token[], model: string): Promise<PromptStateEvent> {
    const started = performance.now();
    const file = this.stateFile(key);
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      if (!sameTokens(sequence.contextTokens, prefix)) throw new Error("Sequenz enthält nicht genau den Prompt-Anfang");
      await mkdir(this.dir, { recursive: true });
      const { fileSize } = await sequence.saveStateToFile(tmp);
      const meta: Sidecar = {
        format: FORMAT,
        key,
        tokens: prefix.length,
        bytes: fileSize,
        sha256: await sha256File(tmp),
        model,
        createdAt: new Date().toISOString(),
      };
      await rename(tmp, file);
      await writeFile(`${tmp}${SIDECAR}`, JSON.stringify(meta, null, 1));
      await rename(`${tmp}${SIDECAR}`, this.sidecarFile(key));
      await this.evict();
      return { action: "saved", tokens: prefix.length, ms: performance.now() - started, bytes: fileSize, file };
    } catch (error) {
      await rm(tmp, { force: true }).catch(() => undefined);
      await rm(`${tmp}${SIDECAR}`, { force: true }).catch(() => undefined);
      return rejected(prefix, started, file, `Prompt-Zustand konnte nicht in ${this.dir} gespeichert werden (${errorText(error)}); der nächste Start berechnet den Prompt neu.`);
    }
  }

  private async remove(key: string): Promise<void> {
    await rm(this.sidecarFile(key), { force: true }).catch(() => undefined);
    await rm(this.stateFile(key), { force: true }).catch(() => undefined);
  }

  /** Keeps the `maxEntries` most recently used entries; also removes orphaned state files. */
  private async evict(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const entries = await Promise.all(
      names
        .filter((n) => n.endsWith(SIDECAR) && !n.includes(".tmp"))
        .map(async (n) => ({ id: n.slice(0, -SIDECAR.length), used: (await stat(join(this.dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    entries.sort((a, b) => b.used - a.used);
    const keep = new Set(entries.slice(0, this.maxEntries).map((e) => e.id));
    for (const name of names) {
      if (name.includes(".tmp")) continue;
      const id = name.endsWith(SIDECAR) ? name.slice(0, -SIDECAR.length) : name.endsWith(STATE) ? name.slice(0, -STATE.length) : undefined;
      if (id !== undefined && !keep.has(id)) await rm(join(this.dir, name), { force: true }).catch(() => undefined);
    }
  }
}
