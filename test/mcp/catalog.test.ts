// formatToolsForPrompt: the German tool catalog for system prompts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatToolsForPrompt, type ToolInfo } from "../../lib/mcp/index.js";
import { describeType, typeWithGerman } from "../../lib/schema/text.js";

const weather: ToolInfo = {
  name: "get_weather",
  description: "Tageswetter für Koordinaten.",
  inputSchema: {
    type: "object",
    properties: {
      lat: { type: "number", minimum: -90, maximum: 90, description: "Breitengrad" },
      radius_km: { type: "number", exclusiveMinimum: 0, maximum: 50 },
      include_raw: { type: "boolean", default: false },
      mode: { type: "string", enum: ["schnell", "genau"] },
    },
    required: ["lat"],
  },
  outputSchema: {
    type: "object",
    properties: {
      source: { type: "string", enum: ["forecast", "offline"] },
      days: {
        type: "array",
        items: {
          type: "object",
          properties: {
            date: { type: "string", description: "Tag" },
            tmax_c: { anyOf: [{ type: "number" }, { type: "null" }] },
          },
        },
      },
    },
  },
  annotations: { readOnlyHint: true },
};

describe("formatToolsForPrompt", () => {
  const text = formatToolsForPrompt([
    weather,
    { name: "ping", description: "", inputSchema: { type: "object", properties: {} } },
  ]);

  it("names each tool with its description", () => {
    assert.match(text, /^Werkzeug: get_weather\n {2}Beschreibung: Tageswetter für Koordinaten\./);
    assert.match(text, /\n\nWerkzeug: ping\n {2}Beschreibung: \(keine Beschreibung\)/);
  });

  it("summarises the input: type, required/optional, range, default, enum, description", () => {
    assert.match(text, /- lat \(Zahl, Pflicht, von -90 bis 90\): Breitengrad/);
    assert.match(text, /- radius_km \(Zahl, optional, größer als 0, höchstens 50\)/);
    assert.match(text, /- include_raw \(true\/false, optional, Standard false\)/);
    assert.match(text, /- mode \(einer von "schnell", "genau", optional\)/);
    assert.match(text, /Eingabe \(arguments\): keine Feld/);
  });

  it("summarises the output including nested list items", () => {
    assert.match(text, /Ausgabe \(result\):\n {4}- source \(einer von "forecast", "offline"\)/);
    assert.match(text, /- days \(Liste von Objekten\)\n {8}- date \(Text\): Tag\n {8}- tmax_c \(Zahl oder null\)/);
    assert.match(text, /Ausgabe \(result\): \(nicht angegeben\)/);
    assert.match(text, /Hinweis: liest nur Daten/);
  });

  it("appends the raw JSON schemas on request", () => {
    const withJson = formatToolsForPrompt([weather], { includeJson: true });
    assert.ok(withJson.includes(`Eingabe-Schema (JSON): ${JSON.stringify(weather.inputSchema)}`));
    assert.ok(!text.includes("Eingabe-Schema (JSON)"));
  });

  it("returns an empty string for no tools", () => {
    assert.equal(formatToolsForPrompt([]), "");
  });
});

describe("describeType", () => {
  it("reads common JSON Schema shapes in German", () => {
    assert.equal(describeType({ type: "integer" }), "ganze Zahl");
    assert.equal(describeType({ type: ["string", "null"] }), "Text oder null");
    assert.equal(describeType({ type: "array", items: { type: "number" } }), "Liste von Zahlen");
    assert.equal(describeType({ const: "x" }), 'genau "x"');
    assert.equal(describeType({}), "beliebiger Wert");
  });
  it("passes unknown type names through as they are, also names of Object.prototype (schemas are server input)", () => {
    assert.equal(describeType({ type: "constructor" }), "constructor");
    assert.equal(typeWithGerman("toString"), "toString");
    assert.equal(describeType({ type: "array", items: { type: "hasOwnProperty" } }), "Liste von hasOwnProperty");
  });
});
