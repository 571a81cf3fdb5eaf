// The rehearsal script: for each question the Teil notebooks ask, what a good model would say — plain
// text, a half-agent tool call, or a `$ref` plan whose answer is written from the real tool results.
// Matched on the question text (first entry whose `match` occurs in it); everything else gets NOT_SCRIPTED.

/** What the scripted model knows about one request. */
export interface ScriptContext {
  question: string;
  /** The system messages, joined (persona, rules, RAG excerpts). */
  system: string;
  /** Everything the model sees except the question (history, tool history, context). */
  seen: string;
  /** The agent's today: the date of its "Heutiges Datum" message, else the local date. */
  today: string;
  /** ISO date in the question, else `today`. */
  date: string;
  /** Which of several scripted wordings: 0 at temperature 0, else the seed (as a model samples differently per seed). */
  variant: number;
}

export interface PlanCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
export type Results = ReadonlyMap<string, unknown>;

export interface ScriptEntry {
  match: string;
  /** Chat reply (Teil 1, 2). */
  chat?: string | ((ctx: ScriptContext) => string);
  /** Half-agent proposal (Teil 3): one tool call. */
  call?: (ctx: ScriptContext) => { tool: string; arguments: Record<string, unknown> };
  /** Half-agent answer round: text from the tool history the model was given. */
  answer?: (ctx: ScriptContext) => string;
  /** Plan agent (Teil 4): the steps; `final` from the real results once every call has one. */
  plan?: (ctx: ScriptContext) => PlanCall[][];
  final?: (results: Results, ctx: ScriptContext) => string;
}

export const NOT_SCRIPTED =
  "Probelauf: Ich kenne nur das Drehbuch der Workshop-Notebooks – auf diese Frage habe ich keine vorbereitete Antwort.";

const num = (x: unknown) => (typeof x === "number" ? x.toLocaleString("de-DE") : "?");
const localDate = () => new Date().toLocaleDateString("sv-SE");
/** The ISO date `days` after `iso`. */
const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** One of several wordings, chosen by the context's variant. */
const pick = (wordings: readonly string[], c: ScriptContext) => wordings[c.variant % wordings.length]!;

/** "Barcelona: sonnig, 9 bis 17 °C, 0 mm Regen" from a get_weather result. */
export function weatherLine(place: string, result: unknown): string {
  const day = (result as { days?: Record<string, unknown>[] } | undefined)?.days?.[0];
  if (!day) return `${place}: keine Wetterdaten`;
  return `${place}: ${String(day.weather)}, ${num(day.tmin_c)} bis ${num(day.tmax_c)} °C, ${num(day.precip_mm)} mm Regen`;
}

/** The first number after `"key":` in text the model was shown (tool history, results). */
function numberAfter(text: string, key: string): number | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*"?(-?\\d+(?:\\.\\d+)?)`).exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The place names of a rank_spots result, also from its shortened text (the answer writer sees at most 1,500 characters). */
function rankedNames(result: unknown): string[] {
  if (typeof result === "string") return [...result.matchAll(/"rank":\d+,"name":"([^"]+)"/g)].map((m) => m[1]!);
  return ((result as { ranking?: { name: string }[] } | undefined)?.ranking ?? []).map((s) => s.name);
}

const geocode = (id: string, destination: string): PlanCall => ({ id, name: "geocode", arguments: { destination } });
const weather = (id: string, geo: string, date: string): PlanCall => ({
  id,
  name: "get_weather",
  arguments: { lat: { $ref: `${geo}.lat` }, lon: `$ref:${geo}.lon`, start_date: date, end_date: date },
});
const geoThenWeather = (city: string, date: string) => [[geocode("geo", city)], [weather("wetter", "geo", date)]];
const weatherFinal = (city: string) => (r: Results, ctx: ScriptContext) =>
  `Heute (${ctx.date}) – ${weatherLine(city, r.get("wetter"))}.`;

const HALLUCINATED_WEATHER =
  "Morgen wird es in Barcelona sonnig und warm, mit bis zu 24 °C und einer leichten Brise vom Meer.";
const NO_LIVE_DATA =
  "Das kann ich ohne aktuelle Daten nicht wissen. Schau kurz vor der Reise bei einem Wetterdienst nach, z. B. beim spanischen AEMET.";

/** Teil 1 (chat), Teil 2 (RAG), Teil 3 (half-agent), Teil 4 (plans); more specific questions first. */
export const SCRIPT: readonly ScriptEntry[] = [
  // 00-start, Teil 1
  { match: "Sag Hallo auf Deutsch", chat: "Hallo! Schön, dass du da bist." },
  { match: "Hauptstadt von Portugal", chat: "Die Hauptstadt von Portugal ist Lissabon." },
  {
    match: "Wie wird das Wetter morgen in Barcelona",
    chat: (c) => (c.system.includes("Reiseplaner") ? NO_LIVE_DATA : HALLUCINATED_WEATHER),
  },
  {
    match: "Was frisst der Laternenbilch und wo kann man ihn beobachten",
    chat: (c) => {
      if (c.system.includes("Auszüge")) {
        return (
          "Im Herbst frisst der Laternenbilch vor allem Bucheckern, Haselnüsse und Samen der Weißtanne, " +
          "gelegentlich auch Eier aus Vogelnestern. Beobachten kann man ihn im Bayerischen Wald, etwa in den " +
          "Blockhalden am Lusen – nachts, mit Rücksicht auf die Schutzregeln (Quelle: Broschüre)."
        );
      }
      return (
        "Der Laternenbilch ist ein kleiner Nager aus den Alpen, der sich von Beeren und Insekten ernährt. " +
        "Am besten beobachtet man ihn im Frühsommer am Großglockner in der Dämmerung."
      );
    },
  },
  {
    match: "Zum Blauen Kranich",
    chat: "Das Café „Zum Blauen Kranich“ liegt bei 50,9413° N, 6,9583° O, direkt am Kölner Dom.",
  },
  {
    match: "angesagtesten Bars in Lissabon",
    chat: "1. Bar Azul Noite 2. Terraço Fado 3. Lx Garden 4. Casa Sardinha 5. Rooftop Alfama – alle diese Woche eröffnet.",
  },
  { match: "Käsekuchen", chat: "Dazu kann ich nichts sagen – ich helfe dir gern bei deiner Reiseplanung." },
  {
    match: "Regentag in Wien",
    chat: "Bei Regen in Wien: das Kunsthistorische Museum, ein langes Frühstück im Kaffeehaus und am Nachmittag die Albertina. Öffnungszeiten prüfst du am besten vorher.",
  },
  {
    match: "plane im Mai ein Wochenende in Lissabon",
    chat: "Hallo Max! Lissabon im Mai ist eine schöne Wahl: mild, sonnig und noch nicht zu voll. Soll ich dir ein Programm für zwei Tage vorschlagen?",
  },
  {
    match: "Wie heiße ich, und wohin reise ich",
    chat: (c) =>
      c.seen.includes("Max Mustermann")
        ? "Du heißt Max Mustermann und reist im Mai für ein Wochenende nach Lissabon."
        : "Das weiß ich nicht – du hast mir deinen Namen und dein Reiseziel noch nicht verraten.",
  },
  {
    match: "Beschreibe Barcelona in einem Satz",
    chat: (c) =>
      pick(
        [
          "Barcelona verbindet Gaudís Architektur mit Strand, Tapas und langen Abenden am Meer.",
          "Zwischen Sagrada Família und Barceloneta mischt Barcelona Jugendstil und Mittelmeer.",
          "Barcelona: tagsüber Gaudí bestaunen, abends Tapas essen, nachts am Meer spazieren.",
        ],
        c,
      ),
  },
  { match: "Nenne drei Sehenswürdigkeiten in Rom", chat: "Kolosseum, Pantheon und Trevi-Brunnen." },
  { match: "Was ist 58952 × 21448? Antworte nur mit der Zahl", chat: "1264392496" },
  { match: "Was ist 12,75 × 3,4", chat: "43,35" },
  // Teil 2
  {
    match: "Lusen einen Skilift",
    chat: "Dazu steht in den Auszügen nichts – einen Skilift oder Preise für eine Tageskarte nennen sie nicht.",
  },
  {
    match: "UV-Lampe nach den Tieren leuchten",
    chat: "Nein. Zwischen dem 1. Mai und dem 15. Juli ist es verboten, Laternenbilche mit UV-Licht anzuleuchten; danach nur mit höchstens 1 Watt und höchstens 3 Sekunden lang.",
  },
  // Teil 3 (half-agent) and Teil 4 (plans)
  {
    match: "Was ist 58952 × 21448?",
    call: () => ({ tool: "multiplikation", arguments: { a: 58952, b: 21448 } }),
    answer: (c) =>
      `58952 × 21448 = ${/"result"\s*:\s*"?(-?\d+(?:\.\d+)?)/.exec(c.seen)?.[1] ?? "(kein Ergebnis in der Tool-Historie)"} – vom Rechen-Server exakt berechnet.`,
  },
  { match: "in Valencia", call: () => ({ tool: "geocode", arguments: { destination: "Valencia" } }) },
  {
    match: "Wo genau liegt Barcelona",
    call: () => ({ tool: "geocode", arguments: { destination: "Barcelona" } }),
    answer: (c) =>
      `Barcelona liegt bei ${num(numberAfter(c.seen, "lat"))}° N und ${num(numberAfter(c.seen, "lon"))}° O (laut geocode).`,
  },
  {
    match: "Und wie wird dort heute",
    call: (c) => ({
      tool: "get_weather",
      arguments: {
        lat: numberAfter(c.seen, "lat"),
        lon: numberAfter(c.seen, "lon"),
        start_date: c.date,
        end_date: c.date,
      },
    }),
    answer: (c) =>
      `Heute in Barcelona: ${/"weather"\s*:\s*"([^"]+)"/.exec(c.seen)?.[1] ?? "keine Angabe"}, ` +
      `${num(numberAfter(c.seen, "tmin_c"))} bis ${num(numberAfter(c.seen, "tmax_c"))} °C (laut get_weather).`,
  },
  {
    match: "in Oberösterreich",
    call: () => ({ tool: "geocode", arguments: { destination: "Linz" } }),
    plan: (c) => geoThenWeather("Linz", c.date),
    final: (r, c) =>
      `Der erste sichere Nachweis gelang 2021 in Linz (Pöstlingberg). Heute (${c.date}) – ${weatherLine("Linz", r.get("wetter"))}.`,
  },
  {
    match: "das Wetter in Barcelona und in Madrid",
    plan: (c) => [
      [geocode("geo_bcn", "Barcelona"), geocode("geo_mad", "Madrid")],
      [weather("wetter_bcn", "geo_bcn", c.date), weather("wetter_mad", "geo_mad", c.date)],
    ],
    final: (r, c) =>
      `Heute (${c.date}) – ${weatherLine("Barcelona", r.get("wetter_bcn"))}; ${weatherLine("Madrid", r.get("wetter_mad"))}.`,
  },
  {
    match: "das Wetter in Barcelona?",
    call: () => ({ tool: "geocode", arguments: { destination: "Barcelona" } }),
    answer: (c) =>
      `Barcelona liegt bei ${num(numberAfter(c.seen, "lat"))}° N – für das Wetter bräuchte ich einen zweiten Aufruf.`,
    plan: (c) => geoThenWeather("Barcelona", c.date),
    final: weatherFinal("Barcelona"),
  },
  {
    match: "in Barcelona joggen",
    plan: () => [
      [geocode("geo_bcn", "Barcelona")],
      [
        {
          id: "lauf_bcn",
          name: "rank_spots",
          arguments: {
            lat: { $ref: "geo_bcn.lat" },
            lon: { $ref: "geo_bcn.lon" },
            start_date: { $ref: "user.today" },
            end_date: "$ref:user.today",
            activity: "joggen",
            radius_km: null,
            top_k: 3,
          },
        },
      ],
    ],
    final: (r, c) => {
      const spots = rankedNames(r.get("lauf_bcn"));
      const name = c.seen.includes("Max Mustermann") ? "Max Mustermann, z" : "Z";
      return `${name}um Joggen heute in Barcelona passen am besten: ${spots.join(", ") || "leider keine Orte"}.`;
    },
  },
  {
    match: "in Rom?",
    plan: (c) => geoThenWeather("Rom", c.date),
    final: (r, c) => `Am ${c.date} – ${weatherLine("Rom", r.get("wetter"))}.`,
  },
  {
    match: "Und übermorgen?",
    plan: (c) => geoThenWeather("Rom", addDays(c.today, 2)),
    final: (r, c) => `Übermorgen (${addDays(c.today, 2)}) – ${weatherLine("Rom", r.get("wetter"))}.`,
  },
];

/** Questions to try from the command line (`npm start -- --probe "<Frage>"`): the script answers each with tools. */
export const PROBE_EXAMPLES = [
  "Wie ist heute das Wetter in Barcelona?",
  "Wie ist heute das Wetter in Barcelona und in Madrid?",
  "Ich möchte heute in Barcelona joggen gehen. Wo geht das am besten?",
  "Welche Koordinaten hat Berlin?",
] as const;

/** The entry for a question (or undefined: not in the script). */
export function scriptFor(question: string): ScriptEntry | undefined {
  return SCRIPT.find((e) => question.includes(e.match));
}

/** The agent's today from its date message ("Heutiges Datum: …", `todayMessage`), else the local date. */
export function todayIn(system: string): string {
  return /Heutiges Datum: (\d{4}-\d{2}-\d{2})/.exec(system)?.[1] ?? localDate();
}

/** The ISO date in the question, else `today` (default: the local date). */
export function dateIn(question: string, today = localDate()): string {
  return /\d{4}-\d{2}-\d{2}/.exec(question)?.[0] ?? today;
}
