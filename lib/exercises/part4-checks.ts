// Self-checks for Aufgabe 4 (plan executor): `$ref` resolution, the ids a call depends on, and which
// planned calls are ready to run.
import { defineCheck } from "./check-runner.js";
import { showValue } from "./show.js";

/** The participant's function: replace every `$ref` in `value` by what it points to in `results` or `user`. */
export type ResolveRefsFn = (
  value: unknown,
  results: Record<string, unknown>,
  user: Record<string, unknown>,
) => unknown;
/** The participant's function: the tool ids whose results `value` references. */
export type ReferencedIdsFn = (value: unknown) => string[] | Promise<string[]>;

/** One planned tool call of a plan step. */
export interface PlannedCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** The participant's function: the ids of the calls that may run now, given the finished ones. */
export type ReadyCallsFn = (calls: PlannedCall[], finished: string[]) => string[] | Promise<string[]>;

// ---------------------------------------------------------------------------------------------
// Task 1: resolveRefs

const GEO_BCN = { query: "Barcelona", lat: 41.3874, lon: 2.1686, display_name: "Barcelona, Spanien" };
const RESULTS: Record<string, unknown> = {
  geo_bcn: GEO_BCN,
  orte: {
    spots: [
      { name: "Parc de la Ciutadella", score: 0.91 },
      { name: "Montjuïc", score: 0.84 },
    ],
  },
  leer: { wert: null },
};
const USER: Record<string, unknown> = {
  raw: "Wie ist das Wetter in Barcelona?",
  today: "2025-06-01",
  reise: { ziel: "Barcelona", tage: 3 },
};

// Every case runs against the same `results` and `user`; the verdict shows them once (context) and each
// failing input only names them.
const refArgs = (value: unknown) =>
  [value, RESULTS, USER] as [unknown, Record<string, unknown>, Record<string, unknown>];
const refInput = (value: unknown) => `resolveRefs(${showValue(value)}, results, user)`;

function refCase(name: string, value: unknown, expected: unknown) {
  return { name, args: refArgs(value), input: refInput(value), expect: expected };
}

function refErrorCase(name: string, value: unknown, ref: string) {
  return {
    name,
    args: refArgs(value),
    input: refInput(value),
    throws: { messageIncludes: [ref] },
    expectation: `ein Fehler (throw), dessen Meldung „${ref}“ nennt`,
  };
}

/** Self-test of the participant's `resolveRefs` ($ref-Verweise auflösen). */
export const checkResolveRefs = defineCheck<ResolveRefsFn>({
  functionName: "resolveRefs",
  title: "$ref-Verweise auflösen",
  cases: [
    refCase('Objekt-Form {"$ref": "geo_bcn.lat"}', { lat: { $ref: "geo_bcn.lat" } }, { lat: 41.3874 }),
    refCase('Text-Form "$ref:geo_bcn.lon"', { lon: "$ref:geo_bcn.lon" }, { lon: 2.1686 }),
    refCase(
      "Verweis auf das ganze Ergebnis (nur die id) → das ganze Objekt",
      { ort: { $ref: "geo_bcn" } },
      { ort: GEO_BCN },
    ),
    refCase("Der Wert selbst ist ein Verweis", { $ref: "geo_bcn.lat" }, 41.3874),
    refCase(
      "user.raw: die Nachricht des Nutzers",
      { frage: "$ref:user.raw" },
      { frage: "Wie ist das Wetter in Barcelona?" },
    ),
    refCase("Verschachtelter user-Pfad", { ziel: { $ref: "user.reise.ziel" } }, { ziel: "Barcelona" }),
    refCase("Zahl im Pfad = Index in einer Liste", { name: { $ref: "orte.spots.1.name" } }, { name: "Montjuïc" }),
    refCase("Ein Feld mit dem Wert null ist ein gültiges Ziel", { w: { $ref: "leer.wert" } }, { w: null }),
    {
      ...refCase(
        "Normale Werte bleiben, wie sie sind; Eingabe wird nicht verändert",
        {
          lat: { $ref: "geo_bcn.lat" },
          lon: "$ref:geo_bcn.lon",
          start_date: "2025-06-01",
          radius_km: 5,
          include_raw: false,
          notiz: null,
        },
        { lat: 41.3874, lon: 2.1686, start_date: "2025-06-01", radius_km: 5, include_raw: false, notiz: null },
      ),
      unchangedInput: true,
    },
    refCase(
      "Verweise in Listen",
      { punkte: [{ $ref: "geo_bcn.lat" }, "$ref:geo_bcn.lon", 3] },
      { punkte: [41.3874, 2.1686, 3] },
    ),
    refCase(
      "null in Listen bleibt null (auch als Verweisziel), nicht undefined",
      { werte: [null, { $ref: "leer.wert" }, 0] },
      { werte: [null, null, 0] },
    ),
    refCase("Tief verschachtelte Objekte", { a: { b: { c: "$ref:user.today" } } }, { a: { b: { c: "2025-06-01" } } }),
    refCase(
      "Text, der nur mittendrin „$ref:“ enthält, ist kein Verweis",
      { text: "Preis laut $ref:geo_bcn.lat" },
      { text: "Preis laut $ref:geo_bcn.lat" },
    ),
    refErrorCase("Unbekannte id → Fehler, der den Verweis nennt", { lat: { $ref: "geo_rom.lat" } }, "geo_rom.lat"),
    refErrorCase("Fehlendes Feld → Fehler, der den Verweis nennt", { h: "$ref:geo_bcn.hoehe" }, "geo_bcn.hoehe"),
    refErrorCase("Index außerhalb der Liste → Fehler", { name: { $ref: "orte.spots.5.name" } }, "orte.spots.5.name"),
    refErrorCase(
      "Geerbte Felder sind keine Daten: user.__proto__",
      { x: { $ref: "user.__proto__" } },
      "user.__proto__",
    ),
  ],
  context: [`results = ${showValue(RESULTS)}`, `user = ${showValue(USER)}`],
});

// ---------------------------------------------------------------------------------------------
// Task 2: referencedIds

/** Self-test of the participant's `referencedIds` (Von welchen Ergebnissen hängt ein Aufruf ab?). */
export const checkReferencedIds = defineCheck<ReferencedIdsFn>({
  functionName: "referencedIds",
  title: "Von welchen Ergebnissen hängt ein Aufruf ab?",
  cases: [
    { name: "Ohne Verweise → []", args: [{ destination: "Barcelona" }], expect: [] },
    {
      name: "Beide Formen, dieselbe id nur einmal",
      args: [{ lat: { $ref: "geo_a.lat" }, lon: "$ref:geo_a.lon" }],
      expect: ["geo_a"],
      unchangedInput: true,
    },
    {
      name: "Mehrere ids in der Reihenfolge ihres Auftretens",
      args: [{ a: "$ref:wetter_b.days", b: { $ref: "geo_a.lat" } }],
      expect: ["wetter_b", "geo_a"],
    },
    {
      name: "user.* ist kein Tool → zählt nicht",
      args: [{ frage: "$ref:user.raw", lat: { $ref: "geo_a.lat" } }],
      expect: ["geo_a"],
    },
    { name: "Verweis auf ein ganzes Ergebnis", args: [{ ort: { $ref: "geo_a" } }], expect: ["geo_a"] },
    {
      name: "Auch in Listen und verschachtelten Objekten",
      args: [{ punkte: [{ p: { $ref: "geo_b.lat" } }, "$ref:geo_c.lon"] }],
      expect: ["geo_b", "geo_c"],
    },
    { name: "Text mit „$ref:“ mittendrin ist kein Verweis", args: [{ text: "siehe $ref:geo_a.lat" }], expect: [] },
  ],
});

// ---------------------------------------------------------------------------------------------
// Task 3: readyCalls

const CHAIN: PlannedCall[] = [
  { id: "geo_bcn", name: "geocode", arguments: { destination: "Barcelona" } },
  {
    id: "wetter_bcn",
    name: "get_weather",
    arguments: {
      lat: { $ref: "geo_bcn.lat" },
      lon: "$ref:geo_bcn.lon",
      start_date: "2025-06-01",
      end_date: "2025-06-01",
    },
  },
];
const weather = (id: string, geo: string): PlannedCall => ({
  id,
  name: "get_weather",
  arguments: {
    lat: { $ref: `${geo}.lat` },
    lon: { $ref: `${geo}.lon` },
    start_date: "2025-06-01",
    end_date: "2025-06-01",
  },
});
const TWO_CITIES: PlannedCall[] = [
  { id: "geo_a", name: "geocode", arguments: { destination: "Lissabon" } },
  { id: "geo_b", name: "geocode", arguments: { destination: "Porto" } },
  weather("wetter_a", "geo_a"),
  weather("wetter_b", "geo_b"),
  {
    id: "vergleich",
    name: "compare",
    arguments: { links: { $ref: "wetter_a.aggregates" }, rechts: "$ref:wetter_b.aggregates" },
  },
];

// The two plans are shared by the cases: inputs name them, the verdict shows them once (one call a line).
const PLAN_NAMES = new Map<PlannedCall[], string>([
  [CHAIN, "kette"],
  [TWO_CITIES, "zweiStaedte"],
]);

function readyCase(name: string, calls: PlannedCall[], finished: string[], expected: string[]) {
  return {
    name,
    args: [calls, finished] as [PlannedCall[], string[]],
    input: `readyCalls(${PLAN_NAMES.get(calls) ?? showValue(calls)}, ${showValue(finished)})`,
    expect: expected,
  };
}

/** Self-test of the participant's `readyCalls` (Welche Tools dürfen jetzt laufen?). */
export const checkReadyCalls = defineCheck<ReadyCallsFn>({
  functionName: "readyCalls",
  title: "Welche Tools dürfen jetzt laufen?",
  cases: [
    { ...readyCase("Kette, noch nichts fertig → nur geocode", CHAIN, [], ["geo_bcn"]), unchangedInput: true },
    readyCase("Kette, geocode fertig → jetzt das Wetter", CHAIN, ["geo_bcn"], ["wetter_bcn"]),
    readyCase("Alles fertig → nichts mehr zu tun", CHAIN, ["geo_bcn", "wetter_bcn"], []),
    readyCase("Zwei Städte, nichts fertig → beide geocodes gleichzeitig", TWO_CITIES, [], ["geo_a", "geo_b"]),
    readyCase(
      "Ein geocode fertig → das andere und das passende Wetter (Plan-Reihenfolge)",
      TWO_CITIES,
      ["geo_a"],
      ["geo_b", "wetter_a"],
    ),
    readyCase(
      "Ein Aufruf mit zwei Abhängigkeiten wartet auf beide",
      TWO_CITIES,
      ["geo_a", "geo_b", "wetter_a"],
      ["wetter_b"],
    ),
    readyCase(
      "… und läuft, sobald beide fertig sind (Reihenfolge von finished egal)",
      TWO_CITIES,
      ["wetter_b", "geo_b", "wetter_a", "geo_a"],
      ["vergleich"],
    ),
    readyCase(
      "Verweise nur auf user.* → sofort bereit",
      [{ id: "geo_x", name: "geocode", arguments: { destination: "$ref:user.reise.ziel" } }],
      [],
      ["geo_x"],
    ),
    readyCase(
      "Verweis auf eine id, die nie fertig wird → nicht bereit",
      [{ id: "wetter_z", name: "get_weather", arguments: { lat: { $ref: "geo_z.lat" }, lon: { $ref: "geo_z.lon" } } }],
      ["geo_a"],
      [],
    ),
  ],
  context: [...PLAN_NAMES].flatMap(([calls, name]) => calls.map((call, i) => `${name}[${i}] = ${showValue(call)}`)),
});
