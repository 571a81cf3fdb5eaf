// Reads the RAG corpus: every Markdown file of a folder (README.md excluded), sorted by name.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig } from "../config.js";
import type { CorpusDocument } from "./chunking.js";
import { EmptyCorpusError, RagFileNotFoundError } from "./errors.js";

export interface LoadCorpusOptions {
  /** File names to skip (default: README.md, any case). */
  exclude?: string[];
  /** File name endings to read (default [".md"]). */
  extensions?: string[];
}

/** Default corpus folder: `<root>/data/corpus`. */
export function defaultCorpusDir(): string {
  return join(loadConfig().root, "data", "corpus");
}

/** Reads the documents of `dir` (default data/corpus). Throws if the folder is missing or holds no text. */
export function loadCorpus(dir: string = defaultCorpusDir(), options: LoadCorpusOptions = {}): CorpusDocument[] {
  const folder = resolve(loadConfig().root, dir);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new RagFileNotFoundError(folder, "Korpus-Ordner");
  const exclude = new Set((options.exclude ?? ["README.md"]).map((n) => n.toLowerCase()));
  const extensions = options.extensions ?? [".md"];
  const documents = readdirSync(folder)
    .filter((name) => extensions.some((ext) => name.toLowerCase().endsWith(ext)) && !exclude.has(name.toLowerCase()))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(folder, name), "utf8").replace(/^\uFEFF/u, "") }))
    .filter((d) => d.text.trim() !== "");
  if (documents.length === 0) throw new EmptyCorpusError(folder);
  return documents;
}
