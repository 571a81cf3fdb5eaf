// What a rehearsal run must not pretend (issue 35): no speed that was never measured, no scripted answer
// without its 🎭 mark after a cell that announces the real model, different seeds giving different
// scripted sentences, and a Modell-Check the script covers (its table saying so) instead of failing it.
// Issue 44: no output claims a class server (rehearsal has none), a token count of a scripted answer
// carries "≈", and a comparison of BM25 with embeddings made with the test embedder says that it was.
import { SCRIPTED_MARK } from "../../../lib/config.js";
import type { NbCell, Notebook } from "./deck.js";

const joined = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join("") : (s ?? ""));

/** Everything a cell shows: text, plain, Markdown and HTML outputs. */
function shown(cell: NbCell): string {
  return (cell.outputs ?? [])
    .map((o) =>
      [o.text, o.data?.["text/plain"], o.data?.["text/markdown"], o.data?.["text/html"]].map(joined).join("\n"),
    )
    .join("\n");
}

/** A speed line of a real backend (formatMeter's "… Tokens/s · erste Antwort nach … ms"). */
const MEASURED_SPEED = /Tokens\/s|erste Antwort nach \d/;
/** Markdown that announces the real model for the next code cell ("Zuerst das **echte Modell**:"). */
const REAL_MODEL = /\*\*echten? Modell\*\*/;
/** An output line that speaks of a class server ("Klassen-Server: …", "beim Server unbekannt"). */
const CLASS_SERVER = /Klassen-Server|beim Server\b/;
/** A token count printed without "≈" ("Tokens erzeugt: 9", "275 Tokens"): in rehearsal every count is estimated. */
const EXACT_TOKEN_COUNT = /Tokens erzeugt:\s*\d|(?<!≈\s?)\b\d[\d.,]*\s*Tokens\b(?!\/s)/;
/** The test embedder's folder in a set-up output (models/tiny/tiny-bert). */
const TEST_EMBEDDER = /models[/\\]tiny[/\\]/;
/** The line a BM25-versus-embeddings output carries when the test embedder made it. */
export const TEST_EMBEDDER_NOTE = "Test-Embedder";
/** The sampling demo's lines, "Seed 1: <Satz>". */
const SEED_LINE = /^Seed (\d+): (.+)$/gm;

/** Problems of an executed notebook in rehearsal mode (empty: it tells the truth). */
export function rehearsalTruthProblems(nb: Notebook): string[] {
  const problems: string[] = [];
  const testEmbedder = nb.cells.some((c) => TEST_EMBEDDER.test(shown(c)));
  for (const [i, cell] of nb.cells.entries()) {
    if (cell.cell_type !== "code") continue;
    const out = shown(cell);
    const first = joined(cell.source).split("\n")[0];
    const speed = MEASURED_SPEED.exec(out);
    if (speed)
      problems.push(
        `cell "${first}" shows a speed nobody measured: …${out.slice(Math.max(0, speed.index - 60), speed.index + 40)}…`,
      );
    const previous = nb.cells
      .slice(0, i)
      .reverse()
      .find((c) => c.cell_type === "code" || REAL_MODEL.test(joined(c.source)));
    if (previous?.cell_type === "markdown" && !out.includes(SCRIPTED_MARK)) {
      problems.push(`cell "${first}" follows "…echte Modell…" but shows no ${SCRIPTED_MARK} on its scripted answer`);
    }
    const server = out.split("\n").find((l) => CLASS_SERVER.test(l));
    if (server) problems.push(`cell "${first}" claims a class server in rehearsal: ${server.trim()}`);
    const exact = EXACT_TOKEN_COUNT.exec(out);
    if (exact) problems.push(`cell "${first}" shows an estimated token count without ≈: ${exact[0]}`);
    if (testEmbedder && /BM25/.test(out) && /Embeddings/.test(out) && !out.includes(TEST_EMBEDDER_NOTE)) {
      problems.push(
        `cell "${first}" compares BM25 with the test embedder's search without saying so (${TEST_EMBEDDER_NOTE})`,
      );
    }
    const seeds = [...out.matchAll(SEED_LINE)];
    if (seeds.length > 1 && new Set(seeds.map((m) => m[2])).size < seeds.length) {
      problems.push(`cell "${first}": different seeds give the same scripted sentence`);
    }
    if (/runModelCheck\(/.test(joined(cell.source)) && (!/bestanden/.test(out) || /nicht bestanden/.test(out))) {
      problems.push(
        `cell "${first}": the Modell-Check in rehearsal has runs the script did not cover: ${out.slice(0, 200)}`,
      );
    }
    if (/evalTableHtml\(/.test(joined(cell.source)) && !out.includes(SCRIPTED_MARK)) {
      problems.push(`cell "${first}": the Modell-Check table in rehearsal does not say that a script ran it`);
    }
  }
  return problems;
}
