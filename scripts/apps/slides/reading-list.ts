// The deck's pointer to what it skips: a closing slide "Zum Nachlesen im Notebook" lists the notebook's
// Vertiefung sections by title, so the room learns they exist and the instructor can say "steht im
// Notebook"; its notes carry their talking points (docs/sprechernotizen.md, "## <notebook>:vertiefung"),
// and the notes of the slide after each skipped section name what was skipped there. The time estimate
// and the slides stage count the closing slide (deckSlideCount).
import { escapeHtml } from "../../../lib/notebook/index.js";
import { countSlides, type Notebook, type RenderMarkdown, type Slide, type Subslide } from "./deck.js";
import { cellHeading, vertiefungSections, type VertiefungSection } from "./vertiefung.js";

export const READING_LIST_TITLE = "Zum Nachlesen im Notebook";
/** A Teil deck's last slide (a notebook section "N. Zusammenfassung – weiter mit Aufgabe N"); the reading list goes before it. */
export const SUMMARY_TITLE = /^(\d+\. )?Zusammenfassung/;

/** Vertiefung sections not inside another one. */
function outermost(nb: Notebook): VertiefungSection[] {
  const all = vertiefungSections(nb);
  return all.filter((s) => !all.some((o) => o !== s && o.from < s.from && s.from < o.to));
}

/** Slides the deck shows: the metadata's, plus the closing slide when the notebook has a Vertiefung. */
export function deckSlideCount(nb: Notebook): number {
  return countSlides(nb) + (outermost(nb).length > 0 ? 1 : 0);
}

/** The heading (Markdown) of the numbered section around a subsection; undefined for a section itself. */
function sectionAround(nb: Notebook, s: VertiefungSection): string | undefined {
  for (let i = s.from - 1; i >= 0; i--) {
    const h = cellHeading(nb.cells[i]!);
    if (h && h.level < s.level) return h.level >= 2 ? h.markdown : undefined;
  }
  return undefined;
}

/** One line per section ("13. Mit Gedächtnis: …"); subsections of a shown section share one ("In Abschnitt 10: Rückfragen, …"). */
function listLines(nb: Notebook, sections: VertiefungSection[]): string[] {
  const lines: { key: string; text: string[] }[] = [];
  for (const s of sections) {
    const around = sectionAround(nb, s);
    if (around === undefined) {
      lines.push({ key: s.heading, text: [s.heading] });
      continue;
    }
    const number = /^(\d+)\./.exec(around)?.[1];
    const key = `In ${number ? `Abschnitt ${number}` : `„${around}“`}: `;
    // Each name stays on one line ("Ein Gespräch" is not split).
    const short = s.heading.split(":")[0]!.trim().replace(/ /g, "\u00a0");
    const line = lines.find((l) => l.key === key);
    if (line) line.text.push(short);
    else lines.push({ key, text: [short] });
  }
  return lines.map((l) => (l.key === l.text[0] ? l.text[0]! : `${l.key}${l.text.join(", ")}`));
}

/** "10. Mit …" as a list item's text, not a nested ordered list. */
const listItem = (line: string) => `- ${line.replace(/^(\d+)\./, "$1\\.")}`;

/**
 * Adds the closing slide and the notes at the skips to `slides` when the notebook has a Vertiefung;
 * `file`: the notebook's file name, `points`: the talking points under "## <notebook>:vertiefung".
 */
export function addReadingList(
  slides: Slide[],
  nb: Notebook,
  md: RenderMarkdown,
  file: string,
  points?: ReadonlyMap<string, string>,
): void {
  const sections = outermost(nb);
  if (sections.length === 0) return;
  const intro = `Nicht auf den Folien, aber im Notebook \`${file}\` – ausführbar, als *Vertiefung*:`;
  const markdown = `## ${READING_LIST_TITLE}\n\n${intro}\n\n${listLines(nb, sections).map(listItem).join("\n")}\n`;
  const closing: Subslide = {
    title: READING_LIST_TITLE,
    blocks: [{ html: md(markdown), fragment: false }],
    notes: [],
    cells: [],
  };
  closing.notes.push(
    md(
      "Bleibt Zeit, einen dieser Abschnitte live im Notebook zeigen; sonst Lesestoff für alle, die in der Aufgabe früher fertig sind.",
    ),
  );
  for (const [title, text] of points ?? []) closing.notes.push(`<h3>${escapeHtml(title)}</h3>\n${md(text.trim())}`);
  const skipped = new Map<Subslide, VertiefungSection[]>();
  for (const s of sections) {
    const next =
      slides.flat().find((sub) => sub.cells.some((c) => c >= s.to) && !SUMMARY_TITLE.test(sub.title)) ?? closing;
    skipped.set(next, [...(skipped.get(next) ?? []), s]);
  }
  for (const [sub, list] of skipped) {
    sub.notes.unshift(
      md(`**Davor übersprungen – steht im Notebook (Vertiefung):** ${list.map((s) => s.heading).join("; ")}`),
    );
  }
  const summary = SUMMARY_TITLE.test(slides.at(-1)?.[0]?.title ?? "") ? slides.pop() : undefined;
  slides.push([closing], ...(summary ? [summary] : []));
}
