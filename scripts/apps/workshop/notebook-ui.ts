// What participants see of the classic Jupyter Notebook 6 (`npm run workshop`, every participant's server of
// `npm run hub`): it opens at the day's first notebook, and it speaks German to a browser that asks for German.
// The kit's catalog is source (scripts/apps/workshop/i18n/de/LC_MESSAGES/*.po, one file per Notebook domain:
// nbui = the server's pages, nbjs = the browser side); it is compiled here with gettext-parser into one Jed
// table under .cache/jupyter-de/, which the Notebook server extension i18n/kurs_jupyter_de.py serves to
// browsers that ask for German. Nothing is installed into the system's Python packages: the extension is found
// through PYTHONPATH and switched on by a command-line option, both only for the servers the kit starts.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { po } from "gettext-parser";
import { writeFileAtomic } from "../../../lib/files.js";

/** Where the participant lands after Jupyter opens (or after the hub's login): the day's first notebook. */
export const FIRST_NOTEBOOK = "00-start.ipynb";
export const FIRST_SCREEN = `/notebooks/${FIRST_NOTEBOOK}`;

/** The extension's module name (i18n/kurs_jupyter_de.py). */
export const GERMAN_EXTENSION = "kurs_jupyter_de";
/** Names the compiled catalog for the extension. */
export const GERMAN_CATALOG_ENV = "KURS_JUPYTER_DE";

export function germanSourceDir(root: string): string {
  return join(root, "scripts", "apps", "workshop", "i18n");
}

export function germanCatalogPath(root: string): string {
  return join(root, ".cache", "jupyter-de", "nbjs-de.json");
}

export interface GermanCatalog {
  /** Jed 1.x: { domain, locale_data: { nbjs: { "": header, msgid: [msgstr, …] } } } */
  jed: { domain: "nbjs"; locale_data: { nbjs: Record<string, unknown> } };
  /** Messages in the .po files (a plural pair counts once). */
  messages: number;
  /** Of those, how many have a German text. */
  translated: number;
}

/** Both domains' .po files as one Jed table (Notebook's browser side reads Jed; the extension reads it too). */
export function compileGermanCatalog(poFiles: string[]): GermanCatalog {
  const table: Record<string, unknown> = {
    "": { domain: "nbjs", lang: "de", plural_forms: "nplurals=2; plural=(n != 1);" },
  };
  let messages = 0;
  let translated = 0;
  for (const file of poFiles) {
    const parsed = po.parse(readFileSync(file));
    for (const entries of Object.values(parsed.translations)) {
      for (const entry of Object.values(entries)) {
        if (entry.msgid === "") continue;
        messages++;
        if (entry.msgstr.every((s) => s.trim() === "")) continue;
        translated++;
        table[entry.msgid] = entry.msgstr;
      }
    }
  }
  return { jed: { domain: "nbjs", locale_data: { nbjs: table } }, messages, translated };
}

function poFiles(root: string): string[] {
  const dir = join(germanSourceDir(root), "de", "LC_MESSAGES");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".po"))
    .sort()
    .map((f) => join(dir, f));
}

/** Compiles the catalog when a .po file is newer than it; returns its path. */
export async function ensureGermanCatalog(root: string): Promise<string> {
  const target = germanCatalogPath(root);
  const sources = poFiles(root);
  const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
  if (existsSync(target) && statSync(target).mtimeMs >= newest) return target;
  mkdirSync(join(root, ".cache", "jupyter-de"), { recursive: true, mode: 0o755 });
  await writeFileAtomic(target, `${JSON.stringify(compileGermanCatalog(sources).jed)}\n`);
  return target;
}

/** The options and environment that give a classic Notebook server the German catalog. */
export async function germanNotebookSetup(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ args: string[]; env: Record<string, string> }> {
  const source = germanSourceDir(root);
  return {
    args: [`--NotebookApp.nbserver_extensions=${GERMAN_EXTENSION}=True`],
    env: {
      PYTHONPATH: env.PYTHONPATH ? `${source}:${env.PYTHONPATH}` : source,
      [GERMAN_CATALOG_ENV]: await ensureGermanCatalog(root),
    },
  };
}
