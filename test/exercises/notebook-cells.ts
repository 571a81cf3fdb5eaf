// Reads the exercise/solution notebook pairs and turns their marked cells into importable modules,
// so the tests run the self-checks against exactly the code the notebooks contain.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { findProjectRoot } from "../../lib/config.js";
import type { WorkshopPart } from "../../lib/exercises/tasks.js";

export const root = findProjectRoot();
export const notebooksDir = join(root, "notebooks");
export const solutionsDir = join(notebooksDir, "loesungen");

export interface Cell {
  type: "markdown" | "code";
  source: string;
  outputs: unknown[] | undefined;
  executionCount: unknown;
}

export interface Notebook {
  file: string;
  kernel: string | undefined;
  cells: Cell[];
}

export interface NotebookPair {
  part: WorkshopPart;
  exercise: Notebook;
  solution: Notebook;
}

export type Marker = "task" | "solution" | undefined;

export function readNotebook(file: string): Notebook {
  const nb = JSON.parse(readFileSync(file, "utf8")) as {
    metadata?: { kernelspec?: { name?: string } };
    cells: { cell_type: string; source: string | string[]; outputs?: unknown[]; execution_count?: unknown }[];
  };
  return {
    file,
    kernel: nb.metadata?.kernelspec?.name,
    cells: nb.cells.map((c) => ({
      type: c.cell_type === "code" ? "code" : "markdown",
      source: Array.isArray(c.source) ? c.source.join("") : c.source,
      outputs: c.outputs,
      executionCount: c.execution_count,
    })),
  };
}

/** "task" for `// AUFGABE…` / `<!-- AUFGABE -->`, "solution" for `// LÖSUNG…` / `<!-- LÖSUNG -->`. */
export function markerOf(cell: Cell): Marker {
  const first = cell.source.trimStart().split("\n")[0]?.trim() ?? "";
  if (cell.type === "code") {
    if (/^\/\/ AUFGABE\b/u.test(first)) return "task";
    if (/^\/\/ LÖSUNG(\s|$)/u.test(first)) return "solution";
    return undefined;
  }
  if (first === "<!-- AUFGABE -->") return "task";
  if (first === "<!-- LÖSUNG -->") return "solution";
  return undefined;
}

/** NN-aufgabe-N-<topic>.ipynb in notebooks/ with loesungen/loesung-N-<topic>.ipynb, for N = 1..4. */
export function notebookPairs(): NotebookPair[] {
  const files = readdirSync(notebooksDir);
  const solutions = readdirSync(solutionsDir);
  const pairs: NotebookPair[] = [];
  for (const part of [1, 2, 3, 4] as WorkshopPart[]) {
    const exercise = files.find((f) => new RegExp(`^${part}1-aufgabe-${part}-.+\\.ipynb$`, "u").test(f));
    if (!exercise) throw new Error(`notebooks/${part}1-aufgabe-${part}-*.ipynb fehlt`);
    const solution = `loesung-${exercise.slice(`${part}1-aufgabe-`.length)}`;
    if (!solutions.includes(solution))
      throw new Error(`notebooks/loesungen/${solution} fehlt (Gegenstück zu ${exercise})`);
    pairs.push({
      part,
      exercise: readNotebook(join(notebooksDir, exercise)),
      solution: readNotebook(join(solutionsDir, solution)),
    });
  }
  return pairs;
}

/** Check cells look like `await checkX(fn);` (exercise) or `await checkX(fn, { strict: true });` (solution). */
export const CHECK_CALL = /^await (check\w+)\((\w+)(, \{ strict: true \})?\);$/u;

export function checkCalls(nb: Notebook): { check: string; fn: string; strict: boolean }[] {
  return nb.cells
    .filter((c) => c.type === "code")
    .flatMap((c) => {
      const m = CHECK_CALL.exec(c.source.trim());
      return m ? [{ check: m[1] as string, fn: m[2] as string, strict: m[3] !== undefined }] : [];
    });
}

/** The import statements of a notebook's code cells, pointed at the lib .ts files by absolute URL. */
function importsOf(nb: Notebook): string[] {
  const imports: string[] = [];
  for (const cell of nb.cells) {
    if (cell.type !== "code") continue;
    for (const m of cell.source.matchAll(/^import\s[\s\S]*?\sfrom\s+"(\.\/lib\/[^"]+)";/gmu)) {
      const spec = m[1] as string;
      // notebooks/lib and notebooks/loesungen/lib are symlinks to lib; point at lib itself.
      const url = pathToFileURL(join(root, `${spec.slice(2)}.ts`)).href;
      imports.push((m[0] as string).replace(`"${spec}"`, `"${url}"`));
    }
  }
  return imports;
}

/**
 * Evaluates the notebook's cells carrying `marker` (task skeletons or solutions), with the notebook's
 * imports, and returns the named functions. The code is written to a temporary .mts module and
 * imported through tsx, the same TypeScript the participant wrote.
 */
export async function loadMarkedFunctions(
  nb: Notebook,
  marker: Exclude<Marker, undefined>,
  names: string[],
): Promise<Record<string, unknown>> {
  const cells = nb.cells.filter((c) => c.type === "code" && markerOf(c) === marker).map((c) => c.source);
  const source = [...importsOf(nb), ...cells, `export { ${names.join(", ")} };`].join("\n\n");
  const dir = mkdtempSync(join(tmpdir(), "kit-exercise-"));
  const file = join(dir, `${marker}-${nb.file.split("/").pop()?.replace(/\W/gu, "_")}.mts`);
  writeFileSync(file, source);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
