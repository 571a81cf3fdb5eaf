// What the slides stage checks about a deck and the day plan: its estimated time fits its slot (on the
// default machine, the class server's 8B), its Vertiefung sections are skipped whole, no slide names one
// without saying so, the talking points kept for them name one, and the shown section numbers have no gap.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TALKING_POINTS } from "./build.js";
import { parseTalkingPoints, type Notebook } from "./deck.js";
import { CLASS_SERVER_8B, deckStats } from "./estimate.js";
import { sectionNumberProblems } from "./section-numbers.js";
import { slotProblem } from "./time-table.js";
import {
  unmatchedVertiefungPoints,
  vertiefungPointsKey,
  vertiefungProblems,
  vertiefungPromises,
} from "./vertiefung.js";

export function deckPlanProblems(notebook: string, nb: Notebook, root: string): string[] {
  const points = parseTalkingPoints(readFileSync(join(root, TALKING_POINTS), "utf8")).get(
    vertiefungPointsKey(notebook),
  );
  const slot = slotProblem(notebook, deckStats(nb), CLASS_SERVER_8B);
  return [
    ...(slot ? [slot] : []),
    ...sectionNumberProblems(nb),
    ...vertiefungProblems(nb),
    ...vertiefungPromises(nb),
    ...unmatchedVertiefungPoints(nb, points?.keys() ?? []).map(
      (t) => `talking point "${t}" under ${vertiefungPointsKey(notebook)} names no Vertiefung section`,
    ),
  ];
}
