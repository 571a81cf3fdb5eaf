// The MCP server: five read-only tools and save_trip_plan (writes into the workspace folder, tools/trip-plan.ts) with zod input and output schemas, structuredContent plus a
// German text rendering. Tool errors come back as `isError` results; the server keeps serving.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { guardToolArguments } from "../../mcp-server-shared/src/arguments-guard.js";
import { TravelError } from "./errors.js";
import { sessionServer, toolSchema } from "../../mcp-server-shared/src/per-process.js";
import { readOnlyAnnotations, toolErrorResult, toolResult } from "../../mcp-server-shared/src/tool-results.js";
import type { TravelServices } from "./services/types.js";
import * as handlers from "./tools/handlers.js";
import * as render from "./tools/render.js";
import { registerSaveTripPlan, workspaceDirFromEnv } from "./tools/trip-plan.js";
import {
  geocodeInput,
  geocodeOutput,
  parksInput,
  parksOutput,
  rankInput,
  rankOutput,
  spotsInput,
  spotsOutput,
  weatherInput,
  weatherOutput,
} from "./tools/schemas.js";

export const SERVER_NAME = "travel";
export const SERVER_VERSION = "0.1.0";

// Built once per process, shared by every session's server (per-process.ts).
const SCHEMAS = {
  geocode: { input: toolSchema(geocodeInput), output: toolSchema(geocodeOutput) },
  weather: { input: toolSchema(weatherInput), output: toolSchema(weatherOutput) },
  parks: { input: toolSchema(parksInput), output: toolSchema(parksOutput) },
  spots: { input: toolSchema(spotsInput), output: toolSchema(spotsOutput) },
  rank: { input: toolSchema(rankInput), output: toolSchema(rankOutput) },
};

const isTravelError = (error: unknown): error is TravelError => error instanceof TravelError;

export interface TravelServerOptions {
  /** UTC day number of today; called per request so a long-running server moves on at midnight. */
  today: () => number;
  log: (line: string) => void;
  /** Folder save_trip_plan writes into (default TRAVEL_WORKSPACE_DIR or <project>/workspace). */
  workspaceDir?: string;
}

export function createTravelMcpServer(services: TravelServices, options: TravelServerOptions): McpServer {
  const server = sessionServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    "Reise-Werkzeuge: erst geocode für Koordinaten, dann get_weather, get_parks, get_spots oder rank_spots mit lat/lon. " +
      "Jedes Ergebnis nennt seine Datenquelle (source).",
  );
  const annotations = (title: string) => readOnlyAnnotations(title, services.mode === "online");

  async function run<T extends object>(
    tool: string,
    args: unknown,
    signal: AbortSignal,
    work: (ctx: handlers.ToolContext) => Promise<T>,
    text: (r: T) => string,
  ): Promise<CallToolResult> {
    try {
      const result = await work({ today: options.today(), signal });
      return toolResult(text(result), result);
    } catch (error) {
      return toolErrorResult(error, {
        server: "Reise-Server",
        tool,
        args,
        isOwnError: isTravelError,
        log: options.log,
      });
    }
  }

  server.registerTool(
    "geocode",
    {
      title: "Ort → Koordinaten",
      description:
        "Wandelt ein Reiseziel (Stadt oder Ort, optional mit Land) in Koordinaten um. Liefert lat/lon in Dezimalgrad, " +
        "den vollständigen Ortsnamen und die Datenquelle. lat und lon aus diesem Ergebnis sind die Eingabe für die anderen Werkzeuge.",
      inputSchema: SCHEMAS.geocode.input,
      outputSchema: SCHEMAS.geocode.output,
      annotations: annotations("Ort → Koordinaten"),
    },
    (args, extra) =>
      run("geocode", args, extra.signal, (ctx) => handlers.geocode(services, args, ctx), render.renderGeocode),
  );

  server.registerTool(
    "get_weather",
    {
      title: "Tageswetter",
      description:
        "Tageswetter für Koordinaten und einen Zeitraum (start_date bis end_date, Format JJJJ-MM-TT, höchstens 92 Tage). " +
        "Pro Tag: Tiefst- und Höchsttemperatur, Niederschlag, stärkster Wind, Wettercode; dazu eine Zusammenfassung " +
        "(Tiefst- und Höchstwert, Niederschlagssumme, Regentage, Spitzenwind). Die Quelle wird nach Datum gewählt: " +
        "Vorhersage bis 16 Tage voraus, Messwerte für die Vergangenheit, Mittelwerte vergangener Jahre für spätere Zeiträume. " +
        "source, is_estimate und reference_years sagen, woher die Werte stammen.",
      inputSchema: SCHEMAS.weather.input,
      outputSchema: SCHEMAS.weather.output,
      annotations: annotations("Tageswetter"),
    },
    (args, extra) =>
      run("get_weather", args, extra.signal, (ctx) => handlers.getWeather(services, args, ctx), render.renderWeather),
  );

  server.registerTool(
    "get_parks",
    {
      title: "Parks in der Nähe",
      description:
        "Parks und Grünanlagen im Umkreis von radius_km um die Koordinaten, der nächstgelegene zuerst, jeweils mit Luftlinie in km.",
      inputSchema: SCHEMAS.parks.input,
      outputSchema: SCHEMAS.parks.output,
      annotations: annotations("Parks in der Nähe"),
    },
    (args, extra) =>
      run("get_parks", args, extra.signal, (ctx) => handlers.getParks(services, args, ctx), render.renderParks),
  );

  server.registerTool(
    "get_spots",
    {
      title: "Orte für eine Aktivität",
      description:
        "Orte für eine Aktivität im Umkreis von radius_km, der nächstgelegene zuerst. Aktivitäten: wandern/hiking, " +
        "joggen/laufen/running, strand/beach, kultur/museum/sightseeing. Eine unbekannte Aktivität wird als " +
        "sightseeing behandelt; activity_note sagt das dann.",
      inputSchema: SCHEMAS.spots.input,
      outputSchema: SCHEMAS.spots.output,
      annotations: annotations("Orte für eine Aktivität"),
    },
    (args, extra) =>
      run("get_spots", args, extra.signal, (ctx) => handlers.getSpots(services, args, ctx), render.renderSpots),
  );

  server.registerTool(
    "rank_spots",
    {
      title: "Orte bewerten",
      description:
        "Bewertet Orte für eine Aktivität in einem Zeitraum und sortiert sie nach Punktzahl (0 bis 100). Die Punktzahl " +
        "setzt sich nachvollziehbar aus Entfernung, Regentagen, Temperatur und Wind zusammen (score_parts, weights, explanation). " +
        "Je Ort: Entfernung in km und geschätzte Anreisezeit in Minuten.",
      inputSchema: SCHEMAS.rank.input,
      outputSchema: SCHEMAS.rank.output,
      annotations: annotations("Orte bewerten"),
    },
    (args, extra) =>
      run("rank_spots", args, extra.signal, (ctx) => handlers.rankSpots(services, args, ctx), render.renderRank),
  );

  registerSaveTripPlan(server, { workspaceDir: () => options.workspaceDir ?? workspaceDirFromEnv(), log: options.log });

  guardToolArguments(server);
  return server;
}
