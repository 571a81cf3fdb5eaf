// The section numbers the room sees: the `## N. …` headings a deck shows count 1, 2, 3 … without a gap
// (a Vertiefung is skipped whole, so it goes after the summary, where its number does not show).
import { slideType, type NbCell, type Notebook } from "./deck.js";

const source = (cell: NbCell) => (Array.isArray(cell.source) ? cell.source.join("") : (cell.source ?? ""));

/** The numbers of the numbered `##` sections whose heading cell is on the slides, in notebook order. */
export function shownSectionNumbers(nb: Notebook): number[] {
  return nb.cells.flatMap((cell) => {
    if (cell.cell_type !== "markdown" || slideType(cell) === "skip") return [];
    const n = /^## (\d+)\. /.exec(source(cell))?.[1];
    return n === undefined ? [] : [Number(n)];
  });
}

/** A gap, a repeat or a wrong order among the shown section numbers, as "9 → 13". */
export function sectionNumberProblems(nb: Notebook): string[] {
  const numbers = shownSectionNumbers(nb);
  return numbers.flatMap((n, i) => {
    const before = i === 0 ? 0 : numbers[i - 1]!;
    if (n === before + 1) return [];
    return [
      `section numbers on the slides go ${i === 0 ? "start" : before} → ${n}, expected ${before + 1}: number the shown sections 1, 2, 3 … without gaps (a Vertiefung goes after the summary)`,
    ];
  });
}
