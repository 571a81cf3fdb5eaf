// Prepared prompt states ("warm start"): `npm run models:warm` evaluates the planner's and the
// half-agent's system prompts once and writes their KV states into `prompt-states/` beside the model
// file, with a manifest. Copying `models/` to the USB stick carries them to every laptop; the kit looks
// there before its own cache (prompt-state.ts). The folder is read-only for the kit: a state that does
// not match (other model, template, context settings, llama.cpp release) is ignored with one German
// note; a damaged one is refused before it reaches llama.cpp (loadVerifiedState) — never deleted here.
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { z } from "zod";
import { loadVerifiedState, type ModelIdentity, type StateSettings } from "./prompt-state.js";
import type { PromptStateEvent } from "./types.js";
import { errorText } from "../util.js";

export const WARM_FORMAT = "workshop-kit warm prompt states v1";
export const MANIFEST_FILE = "manifest.json";

/** The llama.cpp side of a state's identity: the binding's llama.cpp release and node-llama-cpp's version. */
export function llamaCppIdentity(release: { repo: string; release: string }, nodeLlamaCppVersion: string): string {
  return `${release.repo}@${release.release}, node-llama-cpp ${nodeLlamaCppVersion}`;
}

/** The folder of prepared states for a model file: `prompt-states/` beside it. */
export function warmStateDir(modelPath: string): string {
  return join(dirname(modelPath), "prompt-states");
}

/** One prepared state: which prompt, for which model and settings, and the file it is in. */
export interface WarmEntry {
  /** Which prompt, e.g. "planer-reise". */
  name: string;
  /** State file name inside the folder. */
  file: string;
  model: ModelIdentity & { file: string };
  settings: StateSettings;
  /** promptStateKey of model, settings and prefix tokens. */
  key: string;
  tokens: number;
  bytes: number;
  sha256: string;
  layout: boolean;
  createdAt: string;
}

export interface WarmManifest {
  format: string;
  /** node-llama-cpp version that wrote the states (for people; the match is on settings.llamaCpp). */
  nodeLlamaCpp: string;
  entries: WarmEntry[];
}

const entrySchema = z.object({
  name: z.string(),
  file: z.string().regex(/^[\w.-]+$/),
  model: z.object({ file: z.string(), bytes: z.number(), sha256: z.string() }),
  settings: z.object({
    llamaCpp: z.string(),
    template: z.string(),
    contextSize: z.number(),
    kvCache: z.array(z.string()),
    flashAttention: z.string(),
  }),
  key: z.string(),
  tokens: z.number(),
  bytes: z.number(),
  sha256: z.string(),
  layout: z.boolean(),
  createdAt: z.string(),
}) satisfies z.ZodType<WarmEntry>;
const manifestSchema = z.object({
  format: z.literal(WARM_FORMAT),
  nodeLlamaCpp: z.string(),
  entries: z.array(entrySchema),
}) satisfies z.ZodType<WarmManifest>;

/** Reads a manifest: undefined when there is none, a German problem when it is unreadable or foreign. */
export async function readWarmManifest(dir: string): Promise<WarmManifest | { problem: string } | undefined> {
  let raw: string;
  try {
    raw = await readFile(join(dir, MANIFEST_FILE), "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : { problem: `${MANIFEST_FILE} hat ein unbekanntes Format` };
  } catch (error) {
    return { problem: `${MANIFEST_FILE} ist beschädigt (${errorText(error)})` };
  }
}

/** Why `entry` does not fit this model and these settings (German; empty when it fits). */
export function warmMismatches(entry: WarmEntry, model: ModelIdentity, settings: StateSettings): string[] {
  const why: string[] = [];
  if (entry.model.bytes !== model.bytes || entry.model.sha256 !== model.sha256)
    why.push(`für ein anderes Modell (${entry.model.file})`);
  if (entry.settings.llamaCpp !== settings.llamaCpp)
    why.push(`mit llama.cpp ${entry.settings.llamaCpp} erstellt, hier ${settings.llamaCpp}`);
  if (entry.settings.template !== settings.template) why.push("anderes Chat-Template");
  if (entry.settings.contextSize !== settings.contextSize)
    why.push(`Kontext ${entry.settings.contextSize} statt ${settings.contextSize} Tokens`);
  if (
    JSON.stringify(entry.settings.kvCache) !== JSON.stringify(settings.kvCache) ||
    entry.settings.flashAttention !== settings.flashAttention
  ) {
    why.push("andere KV-Cache-Einstellungen");
  }
  return why;
}

/** The prepared states of one folder, as the local backend uses them (read-only). */
export class WarmStates {
  private manifest: ReturnType<typeof readWarmManifest> | undefined;
  private noted = false;
  private readonly refused = new Set<string>();

  constructor(readonly dir: string) {}

  /**
   * Loads the prepared state for `key` into `sequence`. Undefined when none is prepared for it (or the
   * folder's mismatch was already noted); "rejected" with one German note when the folder's states do
   * not fit this model and settings, or the matching file is damaged (the sequence is then emptied).
   */
  async restore(
    sequence: LlamaContextSequence,
    model: ModelIdentity,
    settings: StateSettings,
    key: string,
    prefix: readonly Token[],
  ): Promise<PromptStateEvent | undefined> {
    const started = performance.now();
    this.manifest ??= readWarmManifest(this.dir);
    const manifest = await this.manifest;
    if (!manifest) return undefined;
    const rejected = (file: string, note: string): PromptStateEvent => ({
      action: "rejected",
      tokens: prefix.length,
      ms: performance.now() - started,
      bytes: 0,
      file,
      note,
    });
    if ("problem" in manifest) return this.noteOnce(() => rejected(this.dir, this.ignoredNote(manifest.problem)));
    const entry = manifest.entries.find((e) => e.key === key && e.tokens === prefix.length);
    if (!entry) {
      const closest = manifest.entries
        .map((e) => warmMismatches(e, model, settings))
        .sort((a, b) => a.length - b.length)[0];
      // Entries that fit model and settings but not this prompt: simply not prepared (e.g. the compact one).
      if (!closest || closest.length === 0) return undefined;
      return this.noteOnce(() => rejected(this.dir, this.ignoredNote(closest.join(", "))));
    }
    const file = join(this.dir, entry.file);
    if (this.refused.has(file)) return undefined;
    const problem = await loadVerifiedState(sequence, file, entry, prefix);
    if (problem) {
      this.refused.add(file);
      return rejected(
        file,
        `Vorbereiteter Prompt-Zustand ${basename(file)} wird ignoriert (${problem}); der Prompt wird neu berechnet.`,
      );
    }
    return { action: "loaded", tokens: prefix.length, ms: performance.now() - started, bytes: entry.bytes, file };
  }

  private ignoredNote(why: string): string {
    return `Vorbereitete Prompt-Zustände in ${this.dir} werden ignoriert (${why}); der Prompt wird wie ohne sie berechnet. Abhilfe: npm run models:warm`;
  }

  private noteOnce(event: () => PromptStateEvent): PromptStateEvent | undefined {
    if (this.noted) return undefined;
    this.noted = true;
    return event();
  }
}
