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
  /** The heading's Markdown without '#' and the marker (backticks and emphasis kept). */
  heading: string;
  level: number;
  /** Cell indices, `to` exclusive. */
  from: number;
  to: number;
}

const sourceOf = (cell: NbCell) => (Array.isArray(cell.source) ? cell.source.join("") : cell.source);

/** A Markdown cell's heading: its level, its text without backticks and emphasis, its Markdown. */
export function cellHeading(cell: NbCell): { level: number; text: string; markdown: string } | undefined {
  if (cell.cell_type !== "markdown") return undefined;
  const m = /^(#{1,6})\s+(.+)$/.exec(sourceOf(cell).split("\n")[0] ?? "");
  return m ? { level: m[1]!.length, text: m[2]!.replace(/[`*]/g, "").trim(), markdown: m[2]!.trim() } : undefined;
}

export function vertiefungSections(nb: Notebook): VertiefungSection[] {
  const sections: VertiefungSection[] = [];
  nb.cells.forEach((cell, from) => {
    const h = cellHeading(cell);
    if (!h?.text.endsWith(VERTIEFUNG_MARK)) return;
    let to = from + 1;
    while (to < nb.cells.length && !((cellHeading(nb.cells[to]!)?.level ?? 7) <= h.level)) to++;
    const heading = h.markdown.endsWith(VERTIEFUNG_MARK)
      ? h.markdown.slice(0, -VERTIEFUNG_MARK.length).trim()
      : h.markdown;
    sections.push({ title: h.text.slice(0, -VERTIEFUNG_MARK.length).trim(), heading, level: h.level, from, to });
  });
  return sections;
}

/** Cells of a Vertiefung section that would still appear on the slides. */
export function vertiefungProblems(nb: Notebook): string[] {
  return vertiefungSections(nb).flatMap((s) =>
    nb.cells
      .slice(s.from, s.to)
      .flatMap((cell, i) =>
        slideType(cell) === "skip"
          ? []
          : [`Vertiefung „${s.title}“: cell ${s.from + i} has slide type "${slideType(cell)}", not "skip"`],
      ),
  );
}

/** Talking-point titles under "## <notebook>:vertiefung" that name no Vertiefung section of the notebook. */
export function unmatchedVertiefungPoints(nb: Notebook, titles: Iterable<string>): string[] {
  const sections = vertiefungSections(nb);
  return [...titles].filter((t) => !sections.some((s) => s.title.startsWith(t)));
}

/** A Vertiefung's topic as slides would name it: its heading up to a colon, without the section number. */
const topicOf = (s: VertiefungSection) =>
  s.title
    .split(":")[0]!
    .replace(/^\d+\.\s*/, "")
    .trim();

/**
 * Shown Markdown cells that name a Vertiefung's topic without saying it is one: a slide must not promise
 * what the deck skips ("10. Freigaben, Rückfragen, …" while Rückfragen is a Vertiefung).
 */
export function vertiefungPromises(nb: Notebook): string[] {
  const sections = vertiefungSections(nb);
  return nb.cells.flatMap((cell, i) => {
    if (cell.cell_type !== "markdown" || slideType(cell) === "skip" || slideType(cell) === "notes") return [];
    const text = sourceOf(cell).replace(/[`*]/g, "");
    if (/Vertiefung/.test(text)) return [];
    const named = sections.map(topicOf).filter((t) => text.toLowerCase().includes(t.toLowerCase()));
    return named.length > 0
      ? [
          `cell ${i} is on the slides and names the Vertiefung ${named.map((t) => `„${t}“`).join(", ")} without saying it is one`,
        ]
      : [];
  });
}
