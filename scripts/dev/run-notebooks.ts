// Executes every notebook under notebooks/ (and notebooks/loesungen/) headlessly with the project-local tslab kernel
// (jupyter nbconvert --execute) and reports each failing cell with its real error message.
// Usage: tsx scripts/dev/run-notebooks.ts [name-filter ...] [--use-configured-models] [--keep]
// --keep leaves the executed notebooks (with outputs) in .cache/notebooks/ for inspection.
import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { stripVTControlCharacters } from "node:util";
import { basename, dirname, join, relative } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { NOTEBOOK_ERROR_MARK, displayWidth, OUTPUT_COLUMNS } from "../../lib/notebook/index.js";
import { outputWrapOn } from "../../lib/notebook/wrap.js";
import { ensureNotebookLib } from "./build-notebook-lib.js";
import { ensureMcpBundles } from "./build-mcp-bundles.js";

export interface NotebookFailure {
  cell: number;
  source: string;
  error: string;
}

export interface NotebookResult {
  notebook: string;
  ok: boolean;
  seconds: number;
  failures: NotebookFailure[];
}

interface NbCell {
  cell_type: string;
  id?: string;
  source: string | string[];
  outputs?: {
    output_type: string;
    name?: string;
    text?: string | string[];
    ename?: string;
    evalue?: string;
    traceback?: string[];
    data?: Record<string, string | string[]>;
  }[];
}

const TSLAB_DIAGNOSTIC = /^\d+:\d+ - /m;
// tslab reports a thrown error or a rejected await as stderr text with the stack (frames in the cell's
// "evalmachine" or in tslab's executor), not as an "error" output; the remaining cells are skipped.
const TSLAB_THROWN = /^\s+at .*(?:evalmachine\.<anonymous>|[\\/]tslab[\\/]dist[\\/](?:executor|jupyter)\.js)/m;
// Under the kernel snapshot (scripts/apps/workshop/kernel-snapshot) the same error comes without its stack, as
// the bare inspected error: "[Error: message]", "[ConfigError: …] { code: … }".
const SNAPSHOT_THROWN = /^\[\w*Error(?: \[[\w ]+\])?: [\s\S]*?\](?: \{[\s\S]*\})?$/u;
const stripAnsi = (s: string) => stripVTControlCharacters(s);
const text = (s: string | string[]) => (Array.isArray(s) ? s.join("") : s);

/** Folders under notebooks/ whose notebooks are executed too (the solutions an instructor hands out later). */
export const NOTEBOOK_SUBFOLDERS = ["loesungen"];

/** Every notebook in notebooks/ and its subfolders, in the order a participant meets them. */
export function listNotebooks(root: string, filters: string[] = []): string[] {
  const base = join(root, "notebooks");
  const inFolder = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".ipynb") && !f.startsWith("."))
      .sort()
      .map((f) => join(dir, f));
  return [base, ...NOTEBOOK_SUBFOLDERS.map((d) => join(base, d))]
    .filter((dir) => existsSync(dir))
    .flatMap(inFolder)
    .filter(
      (f) => filters.length === 0 || filters.some((q) => relative(base, f).toLowerCase().includes(q.toLowerCase())),
    );
}

/**
 * Text output lines wider than the cell (OUTPUT_COLUMNS): the browser would break them mid-word.
 * One failure per cell, naming the first such line.
 */
export function wideOutputLines(cells: readonly NbCell[]): NotebookFailure[] {
  const failures: NotebookFailure[] = [];
  cells.forEach((cell, i) => {
    const lines = (cell.outputs ?? [])
      .filter((out) => out.output_type === "stream")
      .flatMap((out) => stripAnsi(text(out.text ?? "")).split("\n"))
      .filter((line) => displayWidth(line) > OUTPUT_COLUMNS);
    if (lines.length === 0) return;
    const first = lines[0] ?? "";
    failures.push({
      cell: i + 1,
      source: text(cell.source),
      error: `${lines.length} Ausgabezeile(n) breiter als ${OUTPUT_COLUMNS} Zeichen, z. B. (${displayWidth(first)}): ${first.slice(0, 160)}`,
    });
  });
  return failures;
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#34;": '"',
  "&#39;": "'",
};
const unescapeHtml = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#34|#39);/gu, (e) => ENTITIES[e] ?? e);
const htmlOf = (cell: NbCell) => (cell.outputs ?? []).map((out) => text(out.data?.["text/html"] ?? "")).join("\n");
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * HTML outputs that shorten a text inside a word: a `<span title="full">shown…</span>` (shortCell) whose
 * full text goes on with a letter right where the shown part stops ("Ein Aufruf ist fehlg…").
 */
export function textsCutInsideWords(cells: readonly NbCell[]): NotebookFailure[] {
  const failures: NotebookFailure[] = [];
  cells.forEach((cell, i) => {
    const cut = [...htmlOf(cell).matchAll(/<span title="([^"]*)">([^<]*)…<\/span>/gu)]
      .map(
        ([, title = "", shown = ""]) =>
          [unescapeHtml(title).replace(/\s+/gu, " ").trim(), unescapeHtml(shown)] as const,
      )
      .filter(
        ([full, shown]) =>
          full.startsWith(shown) && WORD_CHAR.test(shown.at(-1) ?? "") && WORD_CHAR.test(full[shown.length] ?? ""),
      );
    if (cut.length === 0) return;
    const [full = "", shown = ""] = cut[0] ?? [];
    failures.push({
      cell: i + 1,
      source: text(cell.source),
      error: `${cut.length} gekürzte(r) Text(e) mitten im Wort abgeschnitten, z. B. „${shown.slice(-40)}…“ (weiter: „${full.slice(shown.length, shown.length + 20)}“)`,
    });
  });
  return failures;
}

/**
 * JSON in an HTML table cell without a space after `,` or `:`: the browser has no place to wrap it and
 * breaks it inside a token (`"d` / `isplay_name"`). One failure per cell, naming the first such run.
 */
export function unbreakableJsonInTables(cells: readonly NbCell[]): NotebookFailure[] {
  const failures: NotebookFailure[] = [];
  cells.forEach((cell, i) => {
    const runs = [...htmlOf(cell).matchAll(/<td[^>]*>([\s\S]*?)<\/td>/gu)]
      .flatMap(([, content = ""]) => unescapeHtml(content.replace(/<[^>]+>/gu, " ")).split(/\s+/u))
      .filter((run) => run.length > 24 && /"[,:]["{[\d-]|[\d}\]],"/u.test(run));
    if (runs.length === 0) return;
    failures.push({
      cell: i + 1,
      source: text(cell.source),
      error: `JSON ohne Umbruchstellen in einer Tabellenzelle (der Browser bricht mitten im Token um): ${runs[0]?.slice(0, 80)}`,
    });
  });
  return failures;
}

/** `0.735`, `-0.12`: a fraction below one with a decimal point (a German thousands group never starts with 0). */
const POINT_FRACTION = /(?<![\p{L}\p{N}.,:/_@-])-?0\.\d+(?![\p{L}\p{N}]|[.,]\d)/u;
/** `0.31 s`, `1.5 GiB`, `50.9413° N`: a decimal point before a unit (not three digits: that may be German `1.500 s`). */
const POINT_WITH_UNIT =
  /(?<![\p{L}\p{N}.,:/_@-])\d+\.(?:\d{1,2}|\d{4,})(?=\s?(?:s|ms|°|%|GiB|GB|MB|KiB|km|€)(?!\p{L}))/u;
/** A JSON line (`"lat": 41.38,`, `[0.1, 0.2]`): code, where numbers keep their point. */
const JSON_LINE = /"[^"]*"\s*:|^\s*[[{]/u;

/** The first number in `line` written with an English decimal point ("0.735", "0.31 s"), or undefined. */
export function englishDecimal(line: string): string | undefined {
  if (JSON_LINE.test(line)) return undefined;
  return (POINT_FRACTION.exec(line) ?? POINT_WITH_UNIT.exec(line))?.[0];
}

/** Text output lines with a number written the English way: participants read "0,735" (germanNumber). */
export function englishDecimalOutputs(cells: readonly NbCell[]): NotebookFailure[] {
  const failures: NotebookFailure[] = [];
  cells.forEach((cell, i) => {
    const line = (cell.outputs ?? [])
      .filter((out) => out.output_type === "stream" && out.name !== "stderr")
      .flatMap((out) => stripAnsi(text(out.text ?? "")).split("\n"))
      .find((l) => englishDecimal(l) !== undefined);
    if (line === undefined) return;
    failures.push({
      cell: i + 1,
      source: text(cell.source),
      error: `Zahl mit Dezimalpunkt statt Komma („${englishDecimal(line)}“; germanNumber aus lib nutzen): ${line.trim().slice(0, 120)}`,
    });
  });
  return failures;
}

/**
 * Failing cells of an executed notebook: an error in the outputs, a line wider than the cell (when the kernel
 * wraps its output), a text cut inside a word, JSON in a table cell without places to wrap, a number with
 * an English decimal point in a text output.
 */
export function findFailures(executedNotebook: string, wrapped = true): NotebookFailure[] {
  const nb = JSON.parse(readFileSync(executedNotebook, "utf8")) as { cells: NbCell[] };
  const failures: NotebookFailure[] = [];
  nb.cells.forEach((cell, i) => {
    for (const out of cell.outputs ?? []) {
      // tslab reports TypeScript errors (in the cell or in an imported lib file) only as stderr lines
      // "line:col - message"; the cell fails but no "error" output is stored.
      const stderr = out.output_type === "stream" && out.name === "stderr" ? stripAnsi(text(out.text ?? "")) : "";
      if (TSLAB_DIAGNOSTIC.test(stderr)) {
        failures.push({
          cell: i + 1,
          source: text(cell.source),
          error: `TypeScript error (tslab, TS 5.0 non-strict):\n${stderr.trim()}`,
        });
        continue;
      }
      // A set-up helper's error, printed for participants as one German paragraph (lib/display/notices.ts).
      if (
        TSLAB_THROWN.test(stderr) ||
        SNAPSHOT_THROWN.test(stderr.trim()) ||
        stderr.trimStart().startsWith(NOTEBOOK_ERROR_MARK)
      ) {
        failures.push({
          cell: i + 1,
          source: text(cell.source),
          error: stderr.trim().split("\n").slice(0, 12).join("\n"),
        });
        continue;
      }
      if (out.output_type !== "error") continue;
      const trace = stripAnsi((out.traceback ?? []).join("\n")).trim();
      const head = `${out.ename ?? "Error"}: ${stripAnsi(out.evalue ?? "")}`.trim();
      failures.push({
        cell: i + 1,
        source: text(cell.source),
        error: trace && !trace.includes(head) ? `${head}\n${trace}` : trace || head,
      });
    }
  });
  return [
    ...failures,
    ...(wrapped ? wideOutputLines(nb.cells) : []),
    ...textsCutInsideWords(nb.cells),
    ...unbreakableJsonInTables(nb.cells),
    ...englishDecimalOutputs(nb.cells),
  ].sort((a, b) => a.cell - b.cell);
}

/** Where `keep` puts the executed notebooks: .cache/notebooks/ (true) or the folder it names. */
const keepFolder = (root: string, keep: string | true) =>
  typeof keep === "string" ? keep : join(root, ".cache", "notebooks");

/**
 * `keep`: copy the executed notebook (with outputs) to .cache/notebooks/ (true) or to this folder.
 * `check`: more failures found in the executed notebook's cells (beside findFailures').
 */
export async function runNotebook(
  root: string,
  notebook: string,
  env: NodeJS.ProcessEnv,
  keep: boolean | string = false,
  check?: (cells: readonly NbCell[]) => NotebookFailure[],
): Promise<NotebookResult> {
  const outDir = mkdtempSync(join(tmpdir(), "kit-nb-"));
  const started = performance.now();
  const args = [
    "nbconvert",
    "--to",
    "notebook",
    "--execute",
    "--allow-errors",
    "--ExecutePreprocessor.kernel_name=tslab",
    "--ExecutePreprocessor.timeout=900",
    "--output-dir",
    outDir,
    notebook,
  ];
  const stderr: string[] = [];
  const code = await new Promise<number>((resolve) => {
    const child = spawn("jupyter", args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (d: Buffer) => stderr.push(d.toString()));
    child.on("error", (err) => {
      stderr.push(String(err));
      resolve(127);
    });
    child.on("close", (c) => resolve(c ?? 1));
  });
  const executed = join(outDir, basename(notebook));
  let failures: NotebookFailure[];
  if (code === 0 && existsSync(executed)) {
    const cells = (JSON.parse(readFileSync(executed, "utf8")) as { cells: NbCell[] }).cells;
    failures = [...findFailures(executed, outputWrapOn(env)), ...(check?.(cells) ?? [])].sort(
      (a, b) => a.cell - b.cell,
    );
  } else
    failures = [
      { cell: 0, source: "", error: `jupyter nbconvert exited with ${code}:\n${stderr.join("").slice(-3000)}` },
    ];
  if (keep !== false && existsSync(executed)) {
    const keepDir = keepFolder(root, keep);
    mkdirSync(keepDir, { recursive: true });
    copyFileSync(executed, join(keepDir, basename(notebook)));
  }
  rmSync(outDir, { recursive: true, force: true });
  return {
    notebook: basename(notebook),
    ok: failures.length === 0,
    seconds: (performance.now() - started) / 1000,
    failures,
  };
}

/**
 * Solution notebooks run as a participant works with them (issue 40, item 2): "Run All" – which ends with the
 * clean-up cell – then every code cell between the set-up and the clean-up again, in the same kernel. So one
 * execution per `npm test` checks the notebook and that its solved tasks run again after the clean-up.
 */
export const RUN_ALL_AGAIN = /^loesung-\d.*\.ipynb$/u;
/** What a solved cell run again must not say: a closed object, an unsolved task. */
const NOT_AGAIN = /geschlossen – führe|Noch nicht gelöst/u;

/**
 * Failures of the repeated cells (from index `from` on): one that says an object was closed or a task is not
 * solved, or no passed self-check (✅) among them. Cell numbers are those in the executed notebook.
 */
export function runAgainFailures(cells: readonly NbCell[], from: number): NotebookFailure[] {
  const failures: NotebookFailure[] = [];
  const streamText = (cell: NbCell) => (cell.outputs ?? []).map((o) => stripAnsi(text(o.text ?? ""))).join("");
  cells.forEach((cell, i) => {
    const said = i >= from ? NOT_AGAIN.exec(streamText(cell))?.[0] : undefined;
    if (said !== undefined)
      failures.push({ cell: i + 1, source: text(cell.source), error: `Run All again: the cell says „${said}“` });
  });
  if (!cells.slice(from).some((cell) => streamText(cell).includes("✅")))
    failures.push({
      cell: from + 1,
      source: text(cells[from]?.source ?? ""),
      error: "Run All again: no self-check ran again and passed (no ✅ in the repeated cells)",
    });
  return failures;
}

/** Runs a solution notebook whole, then its cells between set-up and clean-up again (RUN_ALL_AGAIN). */
export async function runAllThenAgain(
  root: string,
  notebook: string,
  env: NodeJS.ProcessEnv,
  keep: boolean | string = false,
): Promise<NotebookResult> {
  const nb = JSON.parse(readFileSync(notebook, "utf8")) as { cells: NbCell[] };
  const code = nb.cells.filter((c) => c.cell_type === "code");
  const again = code
    .slice(1, -1)
    .map((c, i) => ({ ...c, id: `run-all-again-${i}`, execution_count: null, outputs: [] }));
  // Beside the original, so that its `./lib` resolves; a dot name, which listNotebooks leaves out.
  const file = join(dirname(notebook), `.run-all-again-${process.pid}-${basename(notebook)}`);
  writeFileSync(file, JSON.stringify({ ...nb, cells: [...nb.cells, ...again] }));
  try {
    const from = nb.cells.length;
    const result = await runNotebook(root, file, env, keep, (cells) => runAgainFailures(cells, from));
    const kept = keep === false ? undefined : join(keepFolder(root, keep), basename(file));
    if (kept !== undefined && existsSync(kept)) renameSync(kept, join(dirname(kept), basename(notebook)));
    const failures = result.failures.map((f) =>
      f.cell > from && !f.error.startsWith("Run All again") ? { ...f, error: `Run All again: ${f.error}` } : f,
    );
    return { ...result, notebook: basename(notebook), failures };
  } finally {
    rmSync(file, { force: true });
  }
}

export function formatFailure(r: NotebookResult): string {
  return r.failures
    .map((f) => {
      const src = f.source
        .split("\n")
        .slice(0, 8)
        .map((l) => `    | ${l}`)
        .join("\n");
      return `  ${r.notebook}, cell ${f.cell}:\n${src}\n    → ${f.error.split("\n").join("\n      ")}`;
    })
    .join("\n");
}

/** `skip`: notebooks another stage runs completely (their file name matches), left out here. */
export async function runAllNotebooks(
  filters: string[],
  env: NodeJS.ProcessEnv,
  keep = false,
  skip: readonly RegExp[] = [],
): Promise<NotebookResult[]> {
  const root = findProjectRoot();
  // Notebooks import the built lib (notebooks/lib → .cache/notebook-lib); rebuild it when lib changed.
  console.log(ensureNotebookLib());
  console.log(ensureMcpBundles());
  const results: NotebookResult[] = [];
  for (const nb of listNotebooks(root, filters).filter((f) => !skip.some((re) => re.test(basename(f))))) {
    const r = await (RUN_ALL_AGAIN.test(basename(nb)) ? runAllThenAgain : runNotebook)(root, nb, env, keep);
    console.log(`${r.ok ? "ok  " : "FAIL"} ${r.notebook} (${r.seconds.toFixed(1)} s)`);
    if (!r.ok) console.log(formatFailure(r));
    results.push(r);
  }
  return results;
}
