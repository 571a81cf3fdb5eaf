// `npm run slides [-- <filter> ...] [--ausfuehren]`: 00-start and the Teil 1–4 notebooks as offline
// reveal.js decks in .cache/slides/<notebook>.slides.html (built by build.ts). Each notebook is executed first (scripts/
// run-notebooks.ts): by default in rehearsal mode (WORKSHOP_PROBE=1, scripted answers; the title slide
// says "Probelauf"), with --ausfuehren on the instructor's configured model. Speaker notes: the notebooks'
// notes cells plus docs/sprechernotizen.md. A notebook with Vertiefung sections gets a closing slide that
// lists them (scripts/apps/slides/reading-list.ts). At the end a table: per deck slides, code slides, words and the
// estimated presentation time (scripts/apps/slides/estimate.ts) on the class server's 8B and on a CPU's 8B,
// next to its slot in the day plan. `--zeiten` prints only the table (no notebook runs); `--notizen` also
// writes a printable notes handout per deck (handout.ts); `--tempo datei.json`
// takes the first column's speed from `npm run doctor -- --tempo --json` (the instructor's machine).
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { findProjectRoot, PROBE_NOTICE } from "../../../lib/config.js";
import { modelProblems } from "../models/model-help.js";
import { CLASS_SERVER_8B, CPU_8B, deckStats, speedFromDoctorJson, type ModelSpeed } from "./estimate.js";
import { timeTable } from "./time-table.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman } from "../../node/parse-args-german.js";
import { testEnvironment } from "../../dev/test-env.js";
import type { Notebook } from "./deck.js";
import { buildSlides, slideNotebooks } from "./build.js";

/** The estimate table for the presentation notebooks matching `filters` (their slide metadata, not run). */
export function estimateTable(
  filters: string[],
  speeds: readonly ModelSpeed[] = [CLASS_SERVER_8B, CPU_8B],
  root = findProjectRoot(),
): string {
  const decks = slideNotebooks(root, filters).map((file) => ({
    deck: basename(file, ".ipynb"),
    stats: deckStats(JSON.parse(readFileSync(file, "utf8")) as Notebook),
  }));
  const sources = speeds.map((s) => `${s.label}: ${s.source}`).join("\n   ");
  return `Geschätzte Vortragszeit (Folien, Code-Zeilen, Klicks und die Wartezeit der Modell-Aufrufe; Modell in scripts/apps/slides/estimate.ts):
${timeTable(decks, speeds)}
   ${sources}`;
}

/** `--tempo datei.json`: the speeds to estimate with (an error text when the file does not fit). */
function speedsFrom(file: string | undefined): ModelSpeed[] | string {
  if (file === undefined) return [CLASS_SERVER_8B, CPU_8B];
  if (!existsSync(file))
    return `--tempo: Die Datei „${file}“ gibt es nicht – erzeugen mit: npm run doctor -- --tempo --json > tempo.json`;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return `--tempo: „${file}“ ist kein JSON – erwartet die Ausgabe von npm run doctor -- --tempo --json`;
  }
  const chosen = speedFromDoctorJson(json);
  return typeof chosen === "string" ? `--tempo ${file}: ${chosen}` : [chosen, CLASS_SERVER_8B, CPU_8B];
}

const OPTIONS = {
  ausfuehren: { type: "boolean", help: "mit dem eingestellten Modell statt im Probelauf" },
  ausführen: { type: "boolean" },
  zeiten: { type: "boolean", help: "nur die Tabelle der Vortragszeiten (führt nichts aus)" },
  tempo: {
    type: "string",
    value: "DATEI",
    help: "Tempo dieses Rechners aus npm run doctor -- --tempo --json > tempo.json",
  },
  notizen: { type: "boolean", help: "dazu je Teil die Sprechernotizen zum Ausdrucken (…notizen.html)" },
} as const;

export const command = defineCommand({
  name: "slides",
  invocation: "npm run slides --",
  summary: "Folien aus den Notebooks (reveal.js), mit Vortragszeiten; NAMENSTEIL: nur diese Notebooks (z. B. teil-2).",
  options: OPTIONS,
  positionals: "[NAMENSTEIL …]",
  run: ({ argv }) => main(argv),
});

async function main(argv: string[]): Promise<number> {
  // docs/workshop.md writes `[-- teil-4] [-- --ausfuehren]`: a second "--" is no end of the options here.
  const args = argv.filter((a) => a !== "--");
  const { values, positionals: filters } = parseArgsGerman(
    { args, allowPositionals: true, options: command.options },
    command.usage,
  );
  const configured = values.ausfuehren === true || values["ausführen"] === true;
  const speeds = speedsFrom(values.tempo);
  if (typeof speeds === "string") {
    console.error(speeds);
    return 1;
  }
  if (values.zeiten) {
    console.log(estimateTable(filters, speeds));
    return 0;
  }
  if (configured) {
    const problems = modelProblems(await testEnvironment({ tinyModels: false }), "workshop");
    if (problems.length > 0) {
      console.error(problems.join("\n"));
      return 1;
    }
  } else {
    console.log(`🎭 ${PROBE_NOTICE} – mit dem eigenen Modell: npm run slides -- --ausfuehren`);
  }
  const { decks, failed } = await buildSlides(filters, { configured, handout: values.notizen === true });
  if (decks.length === 0) {
    console.error(`Kein Notebook passt zu: ${filters.join(" ")}`);
    return 1;
  }
  for (const d of decks) console.log(`🖼️  ${d.file}${d.handout ? `\n📝 ${d.handout}` : ""}`);
  console.log(`\n${estimateTable(filters, speeds)}`);
  console.log(`\nFolien: ${dirname(decks[0]!.file)} (im Browser öffnen; Taste S: Referentenansicht mit Notizen)`);
  if (failed.length > 0)
    console.log(`⚠️ Fehler beim Ausführen von ${failed.join(", ")} – die Folien zeigen die Ausgaben bis dahin.`);
  return failed.length > 0 ? 1 : 0;
}
