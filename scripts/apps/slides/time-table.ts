// The table `npm run slides` prints: per deck its slides, code slides, words and the estimated time on
// each given machine, next to its slot in the day plan; and the problem the slides stage reports when a
// deck's estimate exceeds its slot.
import { slotOf } from "./day-plan.js";
import { minutes, presentationSeconds, type DeckStats, type ModelSpeed } from "./estimate.js";

const de = (n: number): string => n.toLocaleString("de-DE");

/** German lines: a header and one row per deck, a column per speed; `speeds[0]` decides the ⚠️. */
export function timeTable(decks: readonly { deck: string; stats: DeckStats }[], speeds: readonly ModelSpeed[]): string {
  const head = [
    "Foliensatz".padEnd(26),
    "Folien",
    "  Code",
    "Wörter",
    ...speeds.map((s) => s.label.padStart(Math.max(9, s.label.length))),
    "Zeitfenster",
  ];
  const rows = decks.map(({ deck, stats }) => {
    const slot = slotOf(deck);
    const first = speeds[0] ? presentationSeconds(stats, speeds[0]) : 0;
    const over = slot !== undefined && first > slot.minutes * 60;
    return [
      deck.padEnd(26),
      String(stats.slides).padStart(6),
      String(stats.codeSlides).padStart(6),
      de(stats.words).padStart(6),
      ...speeds.map((s) => minutes(presentationSeconds(stats, s)).padStart(Math.max(9, s.label.length))),
      slot ? `${slot.minutes} min${over ? " ⚠️ passt nicht" : ""}` : "–",
    ].join("  ");
  });
  return [head.join("  "), ...rows].join("\n");
}

/** The slides stage's problem when `deck` has a slot and its estimate at `speed` exceeds it. */
export function slotProblem(deck: string, stats: DeckStats, speed: ModelSpeed): string | undefined {
  const slot = slotOf(deck);
  const seconds = presentationSeconds(stats, speed);
  if (!slot || seconds <= slot.minutes * 60) return undefined;
  return `estimated ${minutes(seconds)} (${speed.label}) for a ${slot.minutes} min slot in the day plan: move sections into a Vertiefung (scripts/apps/slides/vertiefung.ts)`;
}

/** The instructor guide's estimate table (Markdown, Teil decks only): the same numbers, generated. */
export function guideTimeTable(
  decks: readonly { deck: string; stats: DeckStats }[],
  speeds: readonly ModelSpeed[],
): string {
  const rows = decks.flatMap(({ deck, stats }) => {
    const teil = /^\d0-teil-(\d)/.exec(deck)?.[1];
    if (teil === undefined) return [];
    const slot = slotOf(deck);
    const times = speeds.map((s) => minutes(presentationSeconds(stats, s)));
    return [
      `| Teil ${teil} | ${stats.slides} | ${stats.codeSlides} | ${times.join(" | ")} | ${slot ? `${slot.minutes} min` : "–"} |`,
    ];
  });
  return [
    `| Foliensatz | Folien | davon mit Code | ${speeds.map((s) => `Schätzung ${s.label}`).join(" | ")} | Zeitfenster |`,
    `| --- | ---: | ---: | ${speeds.map(() => "---:").join(" | ")} | ---: |`,
    ...rows,
  ].join("\n");
}
