// McpToolClient: one persistent session, normalized results, timeouts, reconnect after a server restart.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  McpConnectionError,
  ToolTimeoutError,
  startTravelServer,
  McpToolClient,
  type TravelServerHandle,
} from "../../lib/mcp/index.js";
import { normalizeToolResult } from "../../lib/mcp/sdk-results.js";
import { startHttpServer, type RunningHttpServer } from "../../mcp-server-shared/src/transports/http.js";
import { isAlive, waitGone } from "../mcp-server-travel/helpers.js";

async function sessions(url: string): Promise<number> {
  const r = await fetch(new URL("/healthz", url));
  return ((await r.json()) as { sessions: number }).sessions;
}

describe("McpToolClient against the travel server", () => {
  let server: TravelServerHandle;
  let client: McpToolClient;
  before(async () => {
    server = await startTravelServer({ offline: true });
    client = await McpToolClient.connect(server.url);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  it("lists tools with schemas and annotations as ToolInfo", async () => {
    const tools = await client.listTools();
    const geocode = tools.find((t) => t.name === "geocode");
    assert.ok(geocode);
    assert.deepEqual(geocode.inputSchema.required, ["destination"]);
    assert.equal((geocode.outputSchema?.properties as Record<string, unknown>).lat !== undefined, true);
    assert.equal(geocode.annotations?.readOnlyHint, true);
  });

  it("reuses one session for all calls, also concurrent ones", async () => {
    const id = client.sessionId;
    assert.ok(id);
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => client.callTool("geocode", { destination: i % 2 ? "Berlin" : "Rom" })),
    );
    assert.ok(results.every((r) => !r.isError));
    assert.equal(client.sessionId, id);
    assert.equal(await sessions(server.url), 1);
    assert.equal(client.reconnects, 0);
  });

  it("normalizes results: structuredContent as data, the German text as text", async () => {
    const r = await client.callTool("geocode", { destination: "Wien" });
    assert.equal(r.isError, false);
    assert.equal((r.data as { source: string }).source, "offline");
    assert.match(r.text, /^Wien, .*lat 48\./);
    const bad = await client.callTool("get_parks", { lat: 48.2, lon: 16.37, radius_km: 999 });
    assert.equal(bad.isError, true);
    assert.equal(bad.data, bad.text);
    assert.match(bad.text, /radius_km darf höchstens 50 km/);
  });

  it("answers wrong-typed arguments and unknown tools in German, without the SDK's English frame", async () => {
    const wrongType = await client.callTool("get_parks", { lat: "Norden", lon: 16.37, radius_km: 5 });
    assert.equal(wrongType.isError, true);
    assert.equal(
      wrongType.text,
      "Ungültige Argumente für das Tool get_parks: lat fehlt oder ist keine Zahl (Breitengrad in Grad, -90 bis 90). (Feld lat)",
    );
    const two = await client.callTool("get_weather", {
      lat: 48.2,
      lon: true,
      start_date: 20250701,
      end_date: "2025-07-02",
    });
    assert.deepEqual(two.text.split("\n"), [
      "Ungültige Argumente für das Tool get_weather: lon fehlt oder ist keine Zahl (Längengrad in Grad, -180 bis 180). (Feld lon)",
      "start_date fehlt oder ist kein Text (Format JJJJ-MM-TT). (Feld start_date)",
    ]);
    const unknown = await client.callTool("hotel_buchen", {});
    assert.equal(unknown.isError, true);
    assert.equal(unknown.text, 'Ein Tool "hotel_buchen" gibt es auf diesem Server nicht.');
    for (const r of [wrongType, two, unknown])
      assert.doesNotMatch(r.text, /MCP error|Input validation|Invalid arguments|not found| at /);
  });

  it("close() ends the session on the server; a later call opens a new one (Run All runs the clean-up cell)", async () => {
    const other = await McpToolClient.connect(server.url);
    assert.equal(await sessions(server.url), 2);
    await other.close();
    assert.equal(await sessions(server.url), 1);
    assert.equal((await other.callTool("geocode", { destination: "Rom" })).isError, false);
    assert.equal(await sessions(server.url), 2);
    await other.close();
    assert.equal(await sessions(server.url), 1);
  });
});

describe("normalizeToolResult", () => {
  it("prefers structuredContent, else parses JSON text, else keeps the text", () => {
    assert.deepEqual(normalizeToolResult({ content: [{ type: "text", text: "hallo" }], structuredContent: { a: 1 } }), {
      isError: false,
      data: { a: 1 },
      text: "hallo",
    });
    assert.deepEqual(normalizeToolResult({ content: [{ type: "text", text: ' {"a": [1, 2]} ' }] }), {
      isError: false,
      data: { a: [1, 2] },
      text: ' {"a": [1, 2]} ',
    });
    assert.deepEqual(normalizeToolResult({ content: [{ type: "text", text: "{kaputt" }], isError: true }), {
      isError: true,
      data: "{kaputt",
      text: "{kaputt",
    });
    assert.deepEqual(normalizeToolResult({ content: [] }), { isError: false, data: "", text: "" });
  });

  it("puts the SDK's English error frame into German and keeps the details (by McpError's InvalidParams frame and the called tool)", () => {
    const sdk = (name: string, text: string, isError = true) =>
      normalizeToolResult({ content: [{ type: "text", text }], isError }, name).text;
    assert.equal(
      sdk(
        "get_spots",
        "MCP error -32602: Input validation error: Invalid arguments for tool get_spots: activity darf nicht leer sein. at activity\nZu groß at radius_km",
      ),
      "Ungültige Argumente für das Tool get_spots: activity darf nicht leer sein. (Feld activity)\nZu groß (Feld radius_km)",
    );
    assert.equal(
      sdk(
        "t",
        "MCP error -32602: Input validation error: Invalid arguments for tool t: Ungültige Eingabe at object root",
      ),
      "Ungültige Argumente für das Tool t: Ungültige Eingabe",
    );
    assert.equal(
      sdk("t", "MCP error -32602: Input validation error: Invalid arguments for tool t: Falsch at stops[2].name"),
      "Ungültige Argumente für das Tool t: Falsch (Feld stops[2].name)",
    );
    assert.equal(
      sdk("teleport", "MCP error -32602: Tool teleport not found"),
      'Ein Tool "teleport" gibt es auf diesem Server nicht.',
    );
    assert.equal(
      sdk("geocode", 'Kein Ort gefunden für "X".'),
      'Kein Ort gefunden für "X".',
      "the server's own messages stay",
    );
    assert.equal(
      sdk("teleport", "MCP error -32602: Tool teleport not found", false),
      "MCP error -32602: Tool teleport not found",
      "only error results",
    );
    assert.equal(
      sdk("teleport", "MCP error -32603: Tool teleport not found"),
      "MCP error -32603: Tool teleport not found",
      "only InvalidParams",
    );
    assert.equal(
      normalizeToolResult({
        content: [{ type: "text", text: "MCP error -32602: Tool teleport not found" }],
        isError: true,
      }).text,
      "MCP error -32602: Tool teleport not found",
      "without the called tool: as sent",
    );
  });
});

describe("McpToolClient against a small in-process server", () => {
  let http: RunningHttpServer;
  let client: McpToolClient;
  before(async () => {
    http = await startHttpServer({
      host: "127.0.0.1",
      port: 0,
      log: () => undefined,
      createServer: () => {
        const s = new McpServer({ name: "mini", version: "0" });
        s.registerTool("json_text", { description: "JSON nur als Text", inputSchema: {} }, async () => ({
          content: [{ type: "text", text: '{"temp": 21}' }],
        }));
        s.registerTool("slow", { description: "langsam", inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
          await new Promise((resolve) => {
            const t = setTimeout(resolve, ms);
            extra.signal.addEventListener("abort", () => {
              clearTimeout(t);
              resolve(undefined);
            });
          });
          return { content: [{ type: "text", text: "fertig" }] };
        });
        return s;
      },
    });
    client = await McpToolClient.connect(http.url);
  });
  after(async () => {
    await client?.close();
    await http?.close();
  });

  it("falls back to the JSON-parsed text when there is no structuredContent", async () => {
    const r = await client.callTool("json_text", {});
    assert.deepEqual(r, { isError: false, data: { temp: 21 }, text: '{"temp": 21}' });
  });

  it("turns a call that takes too long into ToolTimeoutError and stays usable", async () => {
    await assert.rejects(client.callTool("slow", { ms: 5000 }, { timeoutMs: 100 }), (e: unknown) => {
      assert.ok(e instanceof ToolTimeoutError);
      assert.deepEqual([e.toolName, e.timeoutMs], ["slow", 100]);
      return true;
    });
    const r = await client.callTool("slow", { ms: 1 });
    assert.equal(r.text, "fertig");
  });

  it("a call with a signal has no timer of its own: the caller owns the time limit", async () => {
    const quick = await McpToolClient.connect(http.url, { timeoutMs: 100 });
    try {
      await assert.rejects(quick.callTool("slow", { ms: 400 }), ToolTimeoutError, "standalone: the client's limit");
      const r = await quick.callTool("slow", { ms: 400 }, { signal: new AbortController().signal });
      assert.equal(r.text, "fertig", "with a signal the client adds no 100 ms timer on top");
    } finally {
      await quick.close();
    }
  });

  it("passes an AbortSignal through", async () => {
    const controller = new AbortController();
    const pending = client.callTool("slow", { ms: 5000 }, { signal: controller.signal });
    controller.abort();
    await assert.rejects(pending);
    assert.equal((await client.callTool("slow", { ms: 1 })).text, "fertig");
  });
});

describe("reconnect", () => {
  it("opens a new session once when the server restarted on the same port", async () => {
    const first = await startTravelServer({ offline: true });
    const port = Number(new URL(first.url).port);
    const client = await McpToolClient.connect(first.url);
    let second: TravelServerHandle | undefined;
    try {
      const before = client.sessionId;
      assert.equal((await client.callTool("geocode", { destination: "Rom" })).isError, false);
      await first.stop();
      second = await startTravelServer({ offline: true, port });
      const r = await client.callTool("geocode", { destination: "Paris" });
      assert.equal(r.isError, false);
      assert.equal((r.data as { display_name: string }).display_name.startsWith("Paris"), true);
      assert.equal(client.reconnects, 1);
      assert.notEqual(client.sessionId, before);
      await second.stop();
      await assert.rejects(client.callTool("geocode", { destination: "Rom" }), (e: unknown) => {
        assert.ok(e instanceof McpConnectionError);
        assert.match(e.message, /Läuft der Server\?/);
        return true;
      });
    } finally {
      await client.close();
      await first.stop();
      await second?.stop();
    }
  });

  it("says where it tried to connect when nothing listens", async () => {
    const server = await startTravelServer({ offline: true });
    const url = server.url;
    await server.stop();
    await assert.rejects(McpToolClient.connect(url), (e: unknown) => {
      assert.ok(e instanceof McpConnectionError);
      assert.equal(e.input.target, url);
      assert.match(e.message, /Keine Verbindung zum MCP-Server/);
      return true;
    });
  });
});

describe("stdio client", () => {
  it("starts the server over stdio, calls a tool and stops it on close", async () => {
    const client = await McpToolClient.connectStdio({ offline: true });
    let pid: number | undefined;
    try {
      pid = client.serverPid;
      assert.ok(pid !== undefined && isAlive(pid), "the stdio server runs as a child process");
      const tools = await client.listTools();
      assert.equal(tools.length, 6);
      const r = await client.callTool("geocode", { destination: "Lissabon" });
      assert.equal((r.data as { source: string }).source, "offline");
      assert.equal(client.sessionId, undefined);
    } finally {
      await client.close();
    }
    assert.equal(client.serverPid, undefined);
    assert.equal(await waitGone(pid!, 10_000), true, `server process ${pid} still runs after close()`);
  });
});
