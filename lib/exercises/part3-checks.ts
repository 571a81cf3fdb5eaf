// Self-checks for Aufgabe 3 (MCP half-agent): one tool call out of messy model output, missing
// required arguments, and the stored coordinates for a follow-up question.
import { defineCheck } from "./check-runner.js";
import { showValue } from "./show.js";

/** One tool call as the half-agent format has it: {"tool": "<name>", "arguments": {…}}. */
export interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** One entry of the tool history: what was called and what came back (result or error). */
export interface HistoryEntry {
  tool: string;
  arguments: Record<string, unknown>;
  result?: unknown;
  error?: string;
}

/** The participant's function: the tool call in a model reply (a known tool name and its arguments), or null. */
export type ParseToolCallFn = (text: string, toolNames: string[]) => ToolCall | null | Promise<ToolCall | null>;
/** The participant's function: the required arguments of `inputSchema` that `args` lacks. */
export type MissingArgumentsFn = (
  args: Record<string, unknown>,
  inputSchema: Record<string, unknown>,
) => string[] | Promise<string[]>;
/** The participant's function: the coordinates of `destination` from an earlier geocode call, or null. */
export type CoordinatesFromHistoryFn = (
  history: HistoryEntry[],
  destination: string,
) => { lat: number; lon: number } | null | Promise<{ lat: number; lon: number } | null>;

// ---------------------------------------------------------------------------------------------
// Task 1: parseToolCall

export const TRAVEL_TOOL_NAMES = ["geocode", "get_weather", "get_parks", "get_spots", "rank_spots"];
const GEO = '{"tool": "geocode", "arguments": {"destination": "Barcelona"}}';
const GEO_CALL: ToolCall = { tool: "geocode", arguments: { destination: "Barcelona" } };

function callCase(name: string, text: string, expected: ToolCall | null) {
  return { name, args: [text, TRAVEL_TOOL_NAMES] as [string, string[]], expect: expected };
}

/** Self-test of the participant's `parseToolCall` (Einen Tool-Aufruf aus der Modellantwort lesen). */
export const checkParseToolCall = defineCheck<ParseToolCallFn>({
  functionName: "parseToolCall",
  title: "Einen Tool-Aufruf aus der Modellantwort lesen",
  cases: [
    callCase("Reines JSON", GEO, GEO_CALL),
    callCase("In einem ```json-Block", "```json\n" + GEO + "\n```", GEO_CALL),
    callCase("In einem Block ohne Sprachangabe, mit Leerzeilen", "```\n\n" + GEO + "\n\n```", GEO_CALL),
    callCase(
      "Mit Text davor und danach",
      `Dafür brauche ich die Koordinaten.\n${GEO}\nIch melde mich gleich wieder.`,
      GEO_CALL,
    ),
    callCase("Mit Rollen-Präfix „assistant“ davor", `assistant\n\n${GEO}`, GEO_CALL),
    callCase("Geschweifte Klammer schon im Text davor", `Ich nutze {geocode}: ${GEO}`, GEO_CALL),
    callCase(
      "Klammern innerhalb eines Textwerts",
      '{"tool": "geocode", "arguments": {"destination": "Rom {Italien}"}}',
      { tool: "geocode", arguments: { destination: "Rom {Italien}" } },
    ),
    callCase(
      "Verschachtelte Argumente mit Zahlen bleiben erhalten",
      'Plan: {"tool": "rank_spots", "arguments": {"lat": 41.39, "lon": 2.17, "start_date": "2025-06-01", "end_date": "2025-06-03", "activity": "joggen", "top_k": 3}}',
      {
        tool: "rank_spots",
        arguments: {
          lat: 41.39,
          lon: 2.17,
          start_date: "2025-06-01",
          end_date: "2025-06-03",
          activity: "joggen",
          top_k: 3,
        },
      },
    ),
    callCase('Ohne "arguments" → leeres Objekt', '{"tool": "geocode"}', { tool: "geocode", arguments: {} }),
    callCase("Normale Textantwort → null", "Barcelona ist im Juni warm und sonnig.", null),
    callCase("Kaputtes JSON (abgeschnitten) → null", '{"tool": "geocode", "arguments": {"destination": "Barc', null),
    callCase("Unbekanntes Tool → null", '{"tool": "book_hotel", "arguments": {"city": "Barcelona"}}', null),
    callCase('"arguments" ist kein Objekt → null', '{"tool": "geocode", "arguments": ["Barcelona"]}', null),
    callCase(
      "Zwei Tool-Aufrufe in einer Antwort (eine Kette) → null",
      `${GEO}\n{"tool": "get_weather", "arguments": {"lat": 41.39, "lon": 2.17, "start_date": "2025-06-01", "end_date": "2025-06-01"}}`,
      null,
    ),
    callCase("Leere Antwort → null", "", null),
  ],
});

// ---------------------------------------------------------------------------------------------
// Task 2: missingArguments

const WEATHER_SCHEMA = {
  type: "object",
  properties: {
    lat: { type: "number" },
    lon: { type: "number" },
    start_date: { type: "string" },
    end_date: { type: "string" },
    include_raw: { type: "boolean" },
  },
  required: ["lat", "lon", "start_date", "end_date"],
};
const GEOCODE_SCHEMA = { type: "object", properties: { destination: { type: "string" } }, required: ["destination"] };
const FULL = { lat: 41.39, lon: 2.17, start_date: "2025-06-01", end_date: "2025-06-02" };

const SCHEMA_NAMES = new Map<unknown, string>([
  [WEATHER_SCHEMA, "wetterSchema"],
  [GEOCODE_SCHEMA, "geocodeSchema"],
]);

/** A case whose input names the shared schemas (printed once as context) instead of repeating them. */
function missingCase(name: string, args: Record<string, unknown>, schema: Record<string, unknown>, expected: string[]) {
  return {
    name,
    args: [args, schema] as [Record<string, unknown>, Record<string, unknown>],
    input: `missingArguments(${showValue(args)}, ${SCHEMA_NAMES.get(schema) ?? showValue(schema)})`,
    expect: expected,
  };
}

/** Self-test of the participant's `missingArguments` (Fehlende Pflicht-Argumente finden). */
export const checkMissingArguments = defineCheck<MissingArgumentsFn>({
  functionName: "missingArguments",
  title: "Fehlende Pflicht-Argumente finden",
  cases: [
    { ...missingCase("Alles da → []", FULL, WEATHER_SCHEMA, []), unchangedInput: true },
    missingCase("Ein Pflichtfeld fehlt", { lat: 41.39, lon: 2.17, start_date: "2025-06-01" }, WEATHER_SCHEMA, [
      "end_date",
    ]),
    missingCase("Mehrere fehlen → in der Reihenfolge von required", { start_date: "2025-06-01" }, WEATHER_SCHEMA, [
      "lat",
      "lon",
      "end_date",
    ]),
    missingCase("null zählt als fehlend", { ...FULL, lon: null }, WEATHER_SCHEMA, ["lon"]),
    missingCase("Leerer Text (auch nur Leerzeichen) zählt als fehlend", { destination: "  " }, GEOCODE_SCHEMA, [
      "destination",
    ]),
    missingCase(
      "0 und false sind gültige Werte",
      { lat: 0, lon: 0, start_date: "2025-06-01", end_date: "2025-06-01", include_raw: false },
      WEATHER_SCHEMA,
      [],
    ),
    missingCase("Optionale Felder (nicht in required) fehlen nie", FULL, WEATHER_SCHEMA, []),
    missingCase("Schema ohne required → []", {}, { type: "object", properties: { q: { type: "string" } } }, []),
    missingCase("Zusätzliche Argumente stören nicht", { destination: "Rom", land: "Italien" }, GEOCODE_SCHEMA, []),
  ],
  context: [...SCHEMA_NAMES].map(([schema, name]) => `${name} = ${showValue(schema)}`),
});

// ---------------------------------------------------------------------------------------------
// Task 3: coordinatesFromHistory

const geocodeEntry = (destination: string, lat: number, lon: number): HistoryEntry => ({
  tool: "geocode",
  arguments: { destination },
  result: {
    query: destination,
    lat,
    lon,
    display_name: `${destination}, Spanien`,
    country: "Spanien",
    source: "offline",
  },
});
const BARCELONA = geocodeEntry("Barcelona", 41.3874, 2.1686);
const WEATHER_ENTRY: HistoryEntry = {
  tool: "get_weather",
  arguments: { lat: 40.4, lon: -3.7, start_date: "2025-06-01", end_date: "2025-06-01" },
  result: { lat: 40.4, lon: -3.7, days: [], source: "offline" },
};

const BARCELONA_OLD = geocodeEntry("Barcelona", 41.0, 2.0);
// History entries shared by the cases: inputs name them, the verdict shows each once.
const ENTRY_NAMES = new Map<HistoryEntry, string>([
  [BARCELONA, "barcelona"],
  [BARCELONA_OLD, "barcelonaAlt"],
  [WEATHER_ENTRY, "wetter"],
]);

function historyCase(
  name: string,
  history: HistoryEntry[],
  destination: string,
  expected: { lat: number; lon: number } | null,
) {
  const shown = history.map((entry) => ENTRY_NAMES.get(entry) ?? showValue(entry)).join(", ");
  return {
    name,
    args: [history, destination] as [HistoryEntry[], string],
    input: `coordinatesFromHistory([${shown}], ${showValue(destination)})`,
    expect: expected,
  };
}

const BCN_COORDINATES = { lat: 41.3874, lon: 2.1686 };

/** Self-test of the participant's `coordinatesFromHistory` (Koordinaten aus der Tool-Historie wiederverwenden). */
export const checkCoordinatesFromHistory = defineCheck<CoordinatesFromHistoryFn>({
  functionName: "coordinatesFromHistory",
  title: "Koordinaten aus der Tool-Historie wiederverwenden",
  cases: [
    {
      ...historyCase("Ein geocode-Ergebnis → nur lat und lon", [BARCELONA], "Barcelona", BCN_COORDINATES),
      unchangedInput: true,
    },
    historyCase(
      "Ziel unabhängig von Groß-/Kleinschreibung und Leerzeichen",
      [BARCELONA],
      "  barcelona ",
      BCN_COORDINATES,
    ),
    historyCase(
      "Andere Tools mit lat/lon zählen nicht (nur geocode)",
      [WEATHER_ENTRY, BARCELONA],
      "Barcelona",
      BCN_COORDINATES,
    ),
    historyCase("Nur ein anderes Tool in der Historie → null", [WEATHER_ENTRY], "Barcelona", null),
    historyCase(
      "Fehlgeschlagene Aufrufe (error) werden übersprungen",
      [{ tool: "geocode", arguments: { destination: "Barcelona" }, error: "Zeitüberschreitung" }],
      "Barcelona",
      null,
    ),
    historyCase(
      "Gibt es mehrere, gilt das neueste Ergebnis",
      [BARCELONA_OLD, WEATHER_ENTRY, BARCELONA],
      "Barcelona",
      BCN_COORDINATES,
    ),
    historyCase("Anderes Ziel → null", [BARCELONA], "Madrid", null),
    historyCase("Leere Historie → null", [], "Barcelona", null),
  ],
  context: [...ENTRY_NAMES].map(([entry, name]) => `${name} = ${showValue(entry)}`),
});
