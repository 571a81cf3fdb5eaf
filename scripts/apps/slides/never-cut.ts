// The instructor guide's "Nie weglassen" list, machine-readable: a table between
// `<!-- BEGIN nie-weglassen` and `<!-- END nie-weglassen -->` in docs/instructor-guide.md names, per deck,
// the cells (by a piece of their code) whose output the slides must show whole. The slides stage
// (scripts/dev/slides-check.ts) fails when such a cell is skipped or its output loses a line on a slide.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Notebook } from "./deck.js";
import { slideType } from "./deck.js";

export const GUIDE = join("docs", "instructor-guide.md");

/** One cell whose output is never shortened. */
export interface NeverCut {
  /** The presentation notebook, without .ipynb. */
  notebook: string;
  /** A piece of the cell's code that names it. */
  code: string;
  /** What the slide shows (German, for the message). */
  what: string;
}

const unticked = (s: string) => s.trim().replace(/^`(.*)`$/, "$1");

/** The list from the guide's text (empty when it has none). */
export function parseNeverCut(guide: string): NeverCut[] {
  const block = /<!-- BEGIN nie-weglassen[^>]*-->([\s\S]*?)<!-- END nie-weglassen -->/.exec(guide)?.[1] ?? "";
  return block
    .split("\n")
    .filter((l) => /^\|\s*`/.test(l))
    .map((l) => l.split(/(?<!\\)\|/).slice(1, -1))
    .filter((cols) => cols.length >= 3)
    .map(([notebook, code, ...what]) => ({
      notebook: unticked(notebook!),
      code: unticked(code!).replace(/\\\|/g, "|"),
      what: what.join("|").trim(),
    }));
}

export function neverCut(root: string): NeverCut[] {
  return parseNeverCut(readFileSync(join(root, GUIDE), "utf8"));
}

const source = (s: string | string[]) => (Array.isArray(s) ? s.join("") : s);

/** The cells of `nb` the list names for `notebook`, by index; a name that finds no shown code cell is a problem. */
export function neverCutCells(
  notebook: string,
  nb: Notebook,
  list: readonly NeverCut[],
): { cells: Map<number, NeverCut>; problems: string[] } {
  const cells = new Map<number, NeverCut>();
  const problems: string[] = [];
  for (const item of list.filter((i) => i.notebook === notebook)) {
    const index = nb.cells.findIndex((c) => c.cell_type === "code" && source(c.source).includes(item.code));
    if (index < 0) problems.push(`"Nie weglassen" (${GUIDE}) names a cell with \`${item.code}\` – there is none`);
    else if (slideType(nb.cells[index]!) === "skip")
      problems.push(`"Nie weglassen": the cell with \`${item.code}\` is skipped on the slides`);
    else cells.set(index, item);
  }
  return { cells, problems };
}
