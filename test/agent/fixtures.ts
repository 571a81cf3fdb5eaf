// In-process travel-like tools for the agent tests (schemas shaped like the travel server's).
import type { ToolInfo } from "../../lib/mcp/types.js";
import { InMemoryToolClient, ToolReportedError, type InMemoryTool } from "../../lib/testing/in-memory-tools.js";
import { buildPlannerSystemPrompt } from "../../lib/agent/prompts.js";
import { delay } from "../../lib/util.js";

export const CITIES: Record<string, { lat: number; lon: number }> = {
  Barcelona: { lat: 41.3874, lon: 2.1686 },
  Berlin: { lat: 52.52, lon: 13.405 },
  Rom: { lat: 41.8933, lon: 12.4829 },
};

export const geocodeInfo: ToolInfo = {
  name: "geocode",
  description: "Koordinaten zu einem Ortsnamen.",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { destination: { type: "string", minLength: 1 } },
    required: ["destination"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: { lat: { type: "number" }, lon: { type: "number" }, display_name: { type: "string" } },
    required: ["lat", "lon"],
  },
  annotations: { readOnlyHint: true },
};

export const weatherInfo: ToolInfo = {
  name: "get_weather",
  description: "Tageswetter für Koordinaten und Zeitraum.",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      lat: { type: "number", minimum: -90, maximum: 90 },
      lon: { type: "number", minimum: -180, maximum: 180 },
      start_date: { type: "string", format: "date" },
      end_date: { type: "string", format: "date" },
      include_raw: { type: "boolean", default: false },
    },
    required: ["lat", "lon", "start_date", "end_date"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

export const parksInfo: ToolInfo = {
  name: "get_parks",
  description: "Parks in der Nähe.",
  inputSchema: {
    type: "object",
    properties: {
      lat: { type: "number" },
      lon: { type: "number" },
      radius_km: { type: "number", exclusiveMinimum: 0 },
    },
    required: ["lat", "lon", "radius_km"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

export const bookingInfo: ToolInfo = {
  name: "book_hotel",
  description: "Bucht ein Hotel (verändert etwas).",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" }, nights: { type: "integer", minimum: 1 } },
    required: ["city", "nights"],
  },
  annotations: { readOnlyHint: false, destructiveHint: false },
};

export const TRAVEL_TOOLS: ToolInfo[] = [geocodeInfo, weatherInfo, parksInfo];

export interface TravelFakeOptions {
  /** Per-tool latency in ms (default 0). */
  latencyMs?: Partial<Record<string, number>>;
  /** Extra or replacing handlers. */
  handlers?: Partial<Record<string, InMemoryTool["handler"]>>;
  withBooking?: boolean;
}

export function geocodeHandler(args: Record<string, unknown>) {
  const name = String(args.destination);
  const hit = CITIES[name];
  if (!hit) throw new ToolReportedError(`Ort "${name}" nicht gefunden.`);
  return { ...hit, display_name: name, source: "test" };
}

export function weatherHandler(args: Record<string, unknown>) {
  return {
    lat: args.lat,
    lon: args.lon,
    days: [{ date: args.start_date, temp_max: 18.5, temp_min: 9.1, precipitation_mm: 0 }],
    source: "offline",
  };
}

export function createTravelFake(options: TravelFakeOptions = {}): InMemoryToolClient {
  const defaults: Record<string, InMemoryTool["handler"]> = {
    geocode: geocodeHandler,
    get_weather: weatherHandler,
    get_parks: (args) => ({ parks: [{ name: `Park bei ${String(args.lat)}`, distance_km: 0.8 }] }),
    book_hotel: (args) => ({ booked: true, city: args.city }),
  };
  const infos = options.withBooking ? [...TRAVEL_TOOLS, bookingInfo] : TRAVEL_TOOLS;
  return new InMemoryToolClient(
    infos.map((info) => ({
      info,
      handler: async (args, ctx) => {
        const latency = options.latencyMs?.[info.name] ?? 0;
        if (latency > 0) await delay(latency, ctx.signal);
        const handler = options.handlers?.[info.name] ?? defaults[info.name];
        if (!handler) throw new Error(`no handler for ${info.name}`);
        return handler(args, ctx);
      },
    })),
  );
}

/** A latch: `wait()` resolves once `open()` was called (bounded by `timeoutMs` so a test never hangs). */
export function latch(timeoutMs = 2000): {
  open: () => void;
  wait: (signal?: AbortSignal) => Promise<void>;
  isOpen: () => boolean;
} {
  let opened = false;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    open: () => {
      opened = true;
      release();
    },
    isOpen: () => opened,
    wait: (signal) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`latch not opened within ${timeoutMs} ms`)), timeoutMs);
        signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            reject(signal.reason ?? new Error("aborted"));
          },
          { once: true },
        );
        void gate.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

export const TODAY = "2026-01-29";

/** geocode → get_weather; `stringRefs` writes lon as "$ref:…" (not allowed by the grammar for numbers). */
export function geoWeatherPlan(city = "Barcelona", date = TODAY, stringRefs = false) {
  const id = `geo_${city.toLowerCase()}`;
  return {
    steps: [
      { description: "Koordinaten bestimmen", tools: [{ id, name: "geocode", arguments: { destination: city } }] },
      {
        description: "Wetter abrufen",
        tools: [
          {
            id: `wetter_${city.toLowerCase()}`,
            name: "get_weather",
            arguments: {
              lat: { $ref: `${id}.lat` },
              lon: stringRefs ? `$ref:${id}.lon` : { $ref: `${id}.lon` },
              start_date: date,
              end_date: date,
              include_raw: null,
            },
          },
        ],
      },
    ],
    final: null,
  };
}

/**
 * The tiny-model runs' shared setup: the weather question for Barcelona over the in-memory travel
 * tools, with the compact planner prompt (it fits the tiny GGUF's context).
 */
export async function tinyModelWeatherRun() {
  const tools = createTravelFake();
  const catalog = await tools.listTools();
  const systemPrompt = buildPlannerSystemPrompt(catalog, { compact: true, userFields: ["raw", "today"] });
  return { question: "Wie ist heute das Wetter in Barcelona?", tools, catalog, systemPrompt, today: TODAY };
}
