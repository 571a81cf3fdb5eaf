// The workshop day's slots, in one place: the instructor guide's day table is this data rendered
// (test/slides/estimate.test.ts compares them), and the slides stage checks each Teil deck's estimated
// time against its slot (scripts/apps/slides/estimate.ts).

export interface Slot {
  minutes: number;
  /** The block as the guide's table shows it (German Markdown). */
  block: string;
  /** The presentation notebook shown in this slot (its name without .ipynb). */
  deck?: string;
}

export const DAY_START = "09:00";

export const DAY_PLAN: readonly Slot[] = [
  { minutes: 20, deck: "00-start", block: "Begrüßung, Ziel des Tages, `npm run workshop`, `00-start` bei allen" },
  {
    minutes: 35,
    deck: "10-teil-1-lokales-llm",
    block: "**Teil 1** Vorführung: lokales Modell, Chat-Vorlage, Halluzinationen, System-Prompt, Verlauf, Sampling",
  },
  { minutes: 35, block: "**Aufgabe 1** (30 min Übung, 5 min Lösung)" },
  { minutes: 15, block: "Pause" },
  { minutes: 45, deck: "20-teil-2-rag", block: "**Teil 2** Vorführung: Sätze, Chunks, Embeddings, FAISS, RAG-Antwort" },
  { minutes: 45, block: "**Aufgabe 2** (40 + 5 min)" },
  { minutes: 60, block: "Mittagspause" },
  {
    minutes: 50,
    deck: "30-teil-3-mcp-werkzeuge",
    block: "**Teil 3** Vorführung: MCP-Server, Tool-Katalog, Halb-Agent, Tool-Historie",
  },
  { minutes: 40, block: "**Aufgabe 3** (35 + 5 min)" },
  { minutes: 15, block: "Pause" },
  {
    minutes: 50,
    deck: "40-teil-4-agent",
    block:
      "**Teil 4** Vorführung: Plan, `$ref`, Validierung, Agenten-Schleife, parallele Tools, Neuplanung, Freigabe (Vertiefungen bleiben im Notebook)",
  },
  { minutes: 40, block: "**Aufgabe 4** (35 + 5 min)" },
  {
    minutes: 30,
    block:
      'Abschluss: `npm start -- "Wie ist heute das Wetter in Barcelona?"` (der ganze Stapel auf der Kommandozeile), Fragen, Ausblick',
  },
];

/** The slot that shows `deck`, if the day plan has one. */
export function slotOf(deck: string): Slot | undefined {
  return DAY_PLAN.find((s) => s.deck === deck);
}

const clock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** The guide's day table (Markdown), start times added up from DAY_START. */
export function dayPlanTable(plan: readonly Slot[] = DAY_PLAN): string {
  const [h, m] = DAY_START.split(":").map(Number) as [number, number];
  let at = h * 60 + m;
  const rows = plan.map((s) => {
    const row = `| ${clock(at)} | ${s.minutes} min | ${s.block} |`;
    at += s.minutes;
    return row;
  });
  return ["| Zeit | Dauer | Block |", "| --- | --- | --- |", ...rows].join("\n");
}
