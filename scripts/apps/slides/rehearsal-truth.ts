// What a rehearsal run must not pretend (issue 35): no speed that was never measured, no scripted answer
// without its 🎭 mark after a cell that announces the real model, different seeds giving different
// scripted sentences, and a Modell-Check the script covers (its table saying so) instead of failing it.
import { SCRIPTED_MARK } from "../../../lib/config.js";
import type { NbCell, Notebook } from "./deck.js";

const joined = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join("") : (s ?? ""));

/** Everything a cell shows: text, plain, Markdown and HTML outputs. */
function shown(cell: NbCell): string {
  return (cell.outputs ?? [])
    .map((o) => [o.text, o.data?.["text/plain"], o.data?.["text/markdown"], o.data?.["text/html"]].map(joined).join("\n"))
    .join("\n");
}

/** A speed line of a real backend (formatMeter's "… Tokens/s · erste Antwort nach … ms"). */
const MEASURED_SPEED = /Tokens\/s|erste Antwort nach \d/;
/** Markdown that announces the real model for the next code cell ("Zuerst das **echte Modell**:"). */
const REAL_MODEL = /\*\*echten? Modell\*\*/;
/** The sampling demo's lines, "Seed 1: <Satz>". */
const SEED_LINE = /^Seed (\d+): (.+)$/gm;

/** Problems of an executed notebook in rehearsal mode (empty: it tells the truth). */
export function rehearsalTruthProblems(nb: Notebook): string[] {
  const problems: string[] = [];
  for (const [i, cell] of nb.cells.entries()) {
    if (cell.cell_type !== "code") continue;
    const out = shown(cell);
    const first = joined(cell.source).split("\n")[0];
    const speed = MEASURED_SPEED.exec(out);
    if (speed) problems.push(`cell "${first}" shows a speed nobody measured: …${out.slice(Math.max(0, speed.index - 60), speed.index + 40)}…`);
    const previous = nb.cells.slice(0, i).reverse().find((c) => c.cell_type === "code" || REAL_MODEL.test(joined(c.source)));
    if (previous?.cell_type === "markdown" && !out.includes(SCRIPTED_MARK)) {
      problems.push(`cell "${first}" follows "…echte Modell…" but shows no ${SCRIPTED_MARK} on its scripted answer`);
    }
    const seeds = [...out.matchAll(SEED_LINE)];
    if (seeds.length > 1 && new Set(seeds.map((m) => m[2])).size < seeds.length) {
      problems.push(`cell "${first}": different seeds give the same scripted sentence`);
    }
    if (/runModelCheck\(/.test(joined(cell.source)) && (!/bestanden/.test(out) || /nicht bestanden/.test(out))) {
      problems.push(`cell "${first}": the Modell-Check in rehearsal has runs the script did not cover: ${out.slice(0, 200)}`);
    }
    if (/evalTableHtml\(/.test(joined(cell.source)) && !out.includes(SCRIPTED_MARK)) {
      problems.push(`cell "${first}": the Modell-Check table in rehearsal does not say that a script ran it`);
    }
  }
  return problems;
}
