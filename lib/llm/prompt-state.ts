// Persisted prompt state: the KV cache of a long, stable prompt prefix (the planner's or the half-agent's
// system prompt with the tool catalog) saved to disk with node-llama-cpp's context sequence
// saveStateToFile / loadStateFromFile, so a new process loads it instead of evaluating it again.
//
// Safety: llama.cpp trusts a state file blindly (a foreign file can crash the process or, worse, give
// silently wrong answers). So every state file has a JSON sidecar with the full cache key (model file
// content, context settings, prefix tokens), the state file's size and SHA-256; a file is loaded only
// when it is a regular file (no link, FIFO or device), these match, and its layout walks to the end
// (checkStateLayout: a short file would abort the process inside llama.cpp). The walk always runs and
// reads the file's own size, never a size a sidecar or manifest claims, so no description can switch a
// check off; every read is bounded by that size. The tokens it restores must equal the expected prefix.
// Anything else is ignored with a German note, deleted and evaluated again — never a crash, never a hang,
// never a wrong hit.
import { createHash, randomBytes } from "node:crypto";
import { constants, createReadStream } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile, type FileHandle } from "node:fs/promises";
import { basename, join } from "node:path";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { PromptStateEvent } from "./types.js";
import { errorText, ignore, processAlive } from "../util.js";

const FORMAT = "workshop-kit prompt state v2";
const SIDECAR = ".json";
const STATE = ".kvstate";

/** A state file that was not used (unreadable, foreign, stale) or could not be written; `note` says why. */
function rejected(prefix: readonly Token[], started: number, file: string, note: string): PromptStateEvent {
  return { action: "rejected", tokens: prefix.length, ms: performance.now() - started, bytes: 0, file, note };
}

/** The JSON sidecar beside a state file in the cache. */
export interface Sidecar {
  format: string;
  key: string;
  tokens: number;
  bytes: number;
  sha256: string;
  /** Always true for files this kit writes (a file checkStateLayout cannot walk is not saved); not read back. */
  layout?: boolean;
  model: string;
  /** What the key was made of (models:warm copies it into its manifest). */
  identity: StateIdentity;
  createdAt: string;
}

/** A model file by content: its size and the SHA-256 of samples of it (sampledSha256). */
export interface ModelIdentity {
  bytes: number;
  sha256: string;
}

/** Everything besides the model and the tokens that shapes a saved KV state or the prompt's tokens. */
export interface StateSettings {
  /** llama.cpp release of node-llama-cpp's binding and node-llama-cpp's version (the state format). */
  llamaCpp: string;
  /** Chat wrapper name and a hash of what it renders for a fixed probe conversation. */
  template: string;
  contextSize: number;
  kvCache: string[];
  /** "true", "false" or "auto" (node-llama-cpp's setting). */
  flashAttention: string;
}

export interface StateIdentity {
  model: ModelIdentity;
  settings: StateSettings;
}

const MIB = 1 << 20;
/** Bytes hashed from each end of a model file, and the number and size of samples in between. */
const END_BYTES = 4 * MIB;
const SAMPLES = 16;
const SAMPLE_BYTES = 64 * 1024;

/**
 * Identity of a model file by content, not by path or modification time (a copy from a USB stick has
 * new times): its size and the SHA-256 of its first and last 4 MiB (GGUF header and metadata, the last
 * tensors) and 16 samples of 64 KiB spread evenly in between — about 9 MiB read, whatever the file size.
 * Files up to 8 MiB are hashed whole.
 */
export async function modelFileIdentity(path: string): Promise<ModelIdentity> {
  const handle = await open(path, "r");
  try {
    const bytes = (await handle.stat()).size;
    const hash = createHash("sha256").update(`${bytes}:`);
    const ranges: Array<[number, number]> =
      bytes <= 2 * END_BYTES
        ? [[0, bytes]]
        : [
            [0, END_BYTES],
            ...Array.from({ length: SAMPLES }, (_, i): [number, number] => [
              END_BYTES + Math.floor(((bytes - 2 * END_BYTES - SAMPLE_BYTES) * (i + 1)) / (SAMPLES + 1)),
              SAMPLE_BYTES,
            ]),
            [bytes - END_BYTES, END_BYTES],
          ];
    for (const [position, length] of ranges) {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, position);
      if (bytesRead !== length) throw new Error(`Modelldatei ist kürzer als ${position + length} Bytes`);
      hash.update(buf);
    }
    return { bytes, sha256: hash.digest("hex") };
  } finally {
    await handle.close();
  }
}

/** The cache key: model content, the settings that shape the KV state, and the prefix tokens. */
export function promptStateKey(identity: StateIdentity, tokens: readonly Token[]): string {
  return createHash("sha256")
    .update(FORMAT)
    .update(JSON.stringify(identity))
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
export function stablePrefix(
  prompt: readonly Token[],
  firstMessage: readonly Token[],
  minTokens: number,
  margin = 8,
): Token[] | undefined {
  const length = Math.min(firstMessage.length - margin, prompt.length - 1);
  if (length < minTokens) return undefined;
  for (let i = 0; i < length; i++) if (prompt[i] !== firstMessage[i]) return undefined;
  return prompt.slice(0, length);
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function sameTokens(a: readonly Token[], b: readonly Token[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

const SEQ_MAGIC = 0x67677371; // "ggsq"

/**
 * Walks a llama.cpp sequence state file (header, prompt tokens, then per stream the KV cells and per
 * layer the K and V rows, each with its declared size) and says what is wrong, or undefined when every
 * declared part is there and the file ends exactly after the last. llama.cpp itself checks a state
 * file only while reading it into the context and aborts the process (GGML_ASSERT) on a short one.
 */
export async function checkStateLayout(file: string, prefix: readonly Token[]): Promise<string | undefined> {
  const handle = await open(file, "r");
  try {
    return await walkStateLayout(handle, (await handle.stat()).size, prefix);
  } finally {
    await handle.close();
  }
}

/** checkStateLayout on an open file of `size` bytes: reads only inside it. */
async function walkStateLayout(
  handle: FileHandle,
  size: number,
  prefix: readonly Token[],
): Promise<string | undefined> {
  let at = 0;
  // Reads go through a 64 KiB window: the cell list is thousands of 8-byte reads.
  let window = Buffer.alloc(0);
  let windowAt = 0;
  const take = async (bytes: number): Promise<Buffer> => {
    if (at + bytes > size) throw new RangeError(`endet nach ${size} Bytes mitten in den Daten`);
    if (at < windowAt || at + bytes > windowAt + window.length) {
      window = Buffer.alloc(Math.min(Math.max(bytes, 1 << 16), size - at));
      windowAt = at;
      const { bytesRead } = await handle.read(window, 0, window.length, at);
      if (bytesRead < window.length) throw new RangeError(`endet nach ${at + bytesRead} Bytes`);
    }
    const buf = window.subarray(at - windowAt, at - windowAt + bytes);
    at += bytes;
    return buf;
  };
  const skip = (bytes: number) => {
    if (at + bytes > size) throw new RangeError(`endet nach ${size} Bytes mitten in den Daten`);
    at += bytes;
  };
  try {
    const head = await take(12);
    if (head.readUInt32LE(0) !== SEQ_MAGIC) return "kein llama.cpp-Zustand";
    const count = head.readUInt32LE(8);
    if (count !== prefix.length) return `${count} statt ${prefix.length} Tokens`;
    const tokens = await take(4 * count);
    for (let i = 0; i < count; i++) if (tokens.readUInt32LE(4 * i) !== prefix[i]) return "andere Tokens als erwartet";
    const streams = (await take(4)).readUInt32LE(0);
    for (let s = 0; s < streams; s++) {
      const cells = (await take(4)).readUInt32LE(0);
      if (cells === 0) continue;
      for (let c = 0; c < cells; c++) skip(4 * (await take(8)).readUInt32LE(4));
      const vTrans = (await take(4)).readUInt32LE(0);
      const layers = (await take(4)).readUInt32LE(0);
      for (let l = 0; l < layers; l++) skip(cells * Number((await take(12)).readBigUInt64LE(4)));
      for (let l = 0; l < layers; l++) {
        if (vTrans) {
          const v = await take(12);
          skip(cells * v.readUInt32LE(4) * v.readUInt32LE(8));
        } else {
          skip(cells * Number((await take(12)).readBigUInt64LE(4)));
        }
      }
    }
    return at === size ? undefined : `${size - at} Bytes zu viel`;
  } catch (error) {
    if (error instanceof RangeError) return error.message;
    throw error;
  }
}

/** SHA-256 of the first `size` bytes of an open file; a file that is shorter now is reported, not waited for. */
async function sha256Handle(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash("sha256");
  const buf = Buffer.alloc(Math.min(size, 1 << 20));
  for (let at = 0; at < size;) {
    const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, size - at), at);
    if (bytesRead === 0) throw new RangeError(`endet nach ${at} Bytes`);
    hash.update(buf.subarray(0, bytesRead));
    at += bytesRead;
  }
  return hash.digest("hex");
}

/** Reads the sidecar of a state file written by PromptStateCache.save (models:warm takes it over). */
export async function readSidecar(stateFile: string): Promise<Sidecar> {
  return JSON.parse(await readFile(stateFile.slice(0, -STATE.length) + SIDECAR, "utf8")) as Sidecar;
}

/** What a state file must be: its size and SHA-256 (a description's other fields switch no check off). */
export interface StateFileCheck {
  bytes: number;
  sha256: string;
}

/**
 * Why the state file at `file` must not reach llama.cpp, or undefined when it may: it must be a regular
 * file (opened without following a link and without blocking, so a FIFO or device is refused, not read),
 * of exactly `expected.bytes` by its own size, with that SHA-256 over exactly those bytes, and its layout
 * must walk to its end.
 */
export async function stateFileProblem(
  file: string,
  expected: StateFileCheck,
  prefix: readonly Token[],
): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT"
      ? "Zustandsdatei fehlt"
      : code === "ELOOP"
        ? "Zustandsdatei ist eine Verknüpfung, keine Datei"
        : `Zustandsdatei nicht lesbar (${code ?? errorText(error)})`;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return "Zustandsdatei ist keine gewöhnliche Datei";
    if (info.size !== expected.bytes) return `Zustandsdatei hat ${info.size} statt ${expected.bytes} Bytes`;
    if ((await sha256Handle(handle, info.size).catch(() => "")) !== expected.sha256)
      return "Prüfsumme stimmt nicht, Datei beschädigt oder fremd";
    const problem = await walkStateLayout(handle, info.size, prefix).catch(
      (error: unknown) => `nicht lesbar: ${errorText(error)}`,
    );
    return problem ? `Zustandsdatei unvollständig oder beschädigt: ${problem}` : undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Loads `file` into `sequence` only when stateFileProblem finds nothing — so a truncated, damaged, foreign
 * or special file never reaches llama.cpp; then checks that the sequence holds exactly `prefix`. Returns
 * undefined on success, else why not (German).
 */
export async function loadVerifiedState(
  sequence: LlamaContextSequence,
  file: string,
  expected: StateFileCheck,
  prefix: readonly Token[],
): Promise<string | undefined> {
  const problem = await stateFileProblem(file, expected, prefix);
  if (problem) return problem;
  try {
    await sequence.loadStateFromFile(file, { acceptRisk: true });
  } catch (error) {
    await sequence.clearHistory().catch(ignore("clearing a sequence of a model that is going away"));
    return `llama.cpp konnte sie nicht laden: ${errorText(error)}`;
  }
  if (sameTokens(sequence.contextTokens, prefix)) return undefined;
  await sequence.clearHistory().catch(ignore("clearing a sequence of a model that is going away"));
  return "enthält andere Tokens als erwartet";
}

/** Temporary files of a save: `<id>.kvstate.<pid>.<hex>.tmp`, plus `.json` for the sidecar's. */
const TEMP_FILE = /\.(\d+)\.[0-9a-f]+\.tmp(\.json)?$/;
/** A temporary file this old is left over even if its process id is in use again. */
const STALE_TEMP_MS = 60 * 60 * 1000;

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
  async restore(
    sequence: LlamaContextSequence,
    key: string,
    prefix: readonly Token[],
  ): Promise<PromptStateEvent | undefined> {
    const started = performance.now();
    const file = this.stateFile(key);
    let raw: string;
    try {
      raw = await readFile(this.sidecarFile(key), "utf8");
    } catch {
      return undefined;
    }
    const reject = async (why: string): Promise<PromptStateEvent> => {
      await sequence.clearHistory().catch(ignore("clearing a sequence of a model that is going away"));
      await this.remove(key);
      return rejected(
        prefix,
        started,
        file,
        `Gespeicherter Prompt-Zustand ${basename(file)} wird ignoriert (${why}); der Prompt wird neu berechnet.`,
      );
    };
    let meta: Sidecar;
    try {
      meta = JSON.parse(raw) as Sidecar;
    } catch {
      return reject("Beschreibungsdatei beschädigt");
    }
    if (meta?.format !== FORMAT || meta.key !== key)
      return reject("gehört zu einem anderen Modell, Prompt oder Format");
    if (meta.tokens !== prefix.length) return reject("falsche Tokenzahl");
    const problem = await loadVerifiedState(sequence, file, meta, prefix);
    if (problem) return reject(problem);
    const now = new Date();
    await utimes(this.sidecarFile(key), now, now).catch(
      ignore("the use time only orders the cache; a failed touch loses nothing"),
    );
    return { action: "loaded", tokens: prefix.length, ms: performance.now() - started, bytes: meta.bytes, file };
  }

  /**
   * Writes the state of `sequence`, which must hold exactly `prefix`, under `key` (atomically: temp
   * file, checksum, rename). A failure to write (read-only or full disk) becomes a note, never an error.
   */
  async save(
    sequence: LlamaContextSequence,
    identity: StateIdentity,
    prefix: readonly Token[],
    model: string,
  ): Promise<PromptStateEvent> {
    const key = promptStateKey(identity, prefix);
    const started = performance.now();
    const file = this.stateFile(key);
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      if (!sameTokens(sequence.contextTokens, prefix)) throw new Error("Sequenz enthält nicht genau den Prompt-Anfang");
      await mkdir(this.dir, { recursive: true });
      const { fileSize } = await sequence.saveStateToFile(tmp);
      const written = (await stat(tmp)).size;
      if (written !== fileSize) throw new Error(`nur ${written} von ${fileSize} Bytes geschrieben`);
      const layoutProblem = await checkStateLayout(tmp, prefix);
      if (layoutProblem) throw new Error(`Zustandsformat dieser llama.cpp-Version unbekannt (${layoutProblem})`);
      const meta: Sidecar = {
        format: FORMAT,
        key,
        tokens: prefix.length,
        bytes: fileSize,
        sha256: await sha256File(tmp),
        layout: true,
        model,
        identity,
        createdAt: new Date().toISOString(),
      };
      await rename(tmp, file);
      await writeFile(`${tmp}${SIDECAR}`, JSON.stringify(meta, null, 1));
      await rename(`${tmp}${SIDECAR}`, this.sidecarFile(key));
      await this.evict();
      return { action: "saved", tokens: prefix.length, ms: performance.now() - started, bytes: fileSize, file };
    } catch (error) {
      await rm(tmp, { force: true }).catch(ignore("a leftover temporary file is removed by the next save"));
      await rm(`${tmp}${SIDECAR}`, { force: true }).catch(
        ignore("a leftover temporary file is removed by the next save"),
      );
      return rejected(
        prefix,
        started,
        file,
        `Prompt-Zustand konnte nicht in ${this.dir} gespeichert werden (${errorText(error)}); der nächste Start berechnet den Prompt neu.`,
      );
    }
  }

  private async remove(key: string): Promise<void> {
    await rm(this.sidecarFile(key), { force: true }).catch(ignore("a state file that is already gone"));
    await rm(this.stateFile(key), { force: true }).catch(ignore("a state file that is already gone"));
  }

  /** Removes a temporary file left by a save that crashed: its process is gone, or it is over an hour old. */
  private async removeIfStale(name: string): Promise<void> {
    const pid = TEMP_FILE.exec(name)?.[1];
    if (pid === undefined) return;
    const file = join(this.dir, name);
    const age =
      Date.now() - ((await stat(file).catch(ignore("a file that is gone has no age")))?.mtimeMs ?? Date.now());
    if (!processAlive(Number(pid)) || age > STALE_TEMP_MS)
      await rm(file, { force: true }).catch(ignore("a leftover temporary file is removed by the next save"));
  }

  /** Keeps the `maxEntries` most recently used entries; also removes orphaned state files and stale temporary files. */
  private async evict(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const entries = await Promise.all(
      names
        .filter((n) => n.endsWith(SIDECAR) && !n.includes(".tmp"))
        .map(async (n) => ({
          id: n.slice(0, -SIDECAR.length),
          used: (await stat(join(this.dir, n)).catch(ignore("a file that is gone counts as never used")))?.mtimeMs ?? 0,
        })),
    );
    entries.sort((a, b) => b.used - a.used);
    const keep = new Set(entries.slice(0, this.maxEntries).map((e) => e.id));
    for (const name of names) {
      if (name.includes(".tmp")) {
        await this.removeIfStale(name);
        continue;
      }
      const id = name.endsWith(SIDECAR)
        ? name.slice(0, -SIDECAR.length)
        : name.endsWith(STATE)
          ? name.slice(0, -STATE.length)
          : undefined;
      if (id !== undefined && !keep.has(id))
        await rm(join(this.dir, name), { force: true }).catch(ignore("a state file that is already gone"));
    }
  }
}
