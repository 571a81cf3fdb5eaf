// Vertiefung: a section of a presentation notebook that the slides skip (the 50-minute path of Teil 4
// leaves it out) and the notebook still runs and tests. Its heading ends with "(Vertiefung)"; every cell
// up to the next heading of the same or a higher level has slide type "skip". Talking points for such
// sections stay in docs/sprechernotizen.md under "## <notebook>:vertiefung" (no slide to attach them to).
import { slideType, type NbCell, type Notebook } from "./deck.js";

export const VERTIEFUNG_MARK = "(Vertiefung)";
export const vertiefungPointsKey = (notebook: string): string => `${notebook}:vertiefung`;

export interface VertiefungSection {
  /** The heading without '#', backticks, emphasis and the marker. */
  title: string;
  /** Cell indices, `to` exclusive. */
  from: number;
  to: number;
}

const sourceOf = (cell: NbCell) => (Array.isArray(cell.source) ? cell.source.join("") : cell.source);

function headingOf(cell: NbCell): { level: number; text: string } | undefined {
  if (cell.cell_type !== "markdown") return undefined;
  const m = /^(#{1,6})\s+(.+)$/.exec(sourceOf(cell).split("\n")[0] ?? "");
  return m ? { level: m[1]!.length, text: m[2]!.replace(/[`*]/g, "").trim() } : undefined;
}

export function vertiefungSections(nb: Notebook): VertiefungSection[] {
  const sections: VertiefungSection[] = [];
  nb.cells.forEach((cell, from) => {
    const h = headingOf(cell);
    if (!h?.text.endsWith(VERTIEFUNG_MARK)) return;
    let to = from + 1;
    while (to < nb.cells.length && !((headingOf(nb.cells[to]!)?.level ?? 7) <= h.level)) to++;
    sections.push({ title: h.text.slice(0, -VERTIEFUNG_MARK.length).trim(), from, to });
  });
  return sections;
}

/** Cells of a Vertiefung section that would still appear on the slides. */
export function vertiefungProblems(nb: Notebook): string[] {
  return vertiefungSections(nb).flatMap((s) =>
    nb.cells.slice(s.from, s.to).flatMap((cell, i) =>
      slideType(cell) === "skip" ? [] : [`Vertiefung „${s.title}“: cell ${s.from + i} has slide type "${slideType(cell)}", not "skip"`]));
}

/** Talking-point titles under "## <notebook>:vertiefung" that name no Vertiefung section of the notebook. */
export function unmatchedVertiefungPoints(nb: Notebook, titles: Iterable<string>): string[] {
  const sections = vertiefungSections(nb);
  return [...titles].filter((t) => !sections.some((s) => s.title.startsWith(t)));
}
