// McpToolClient: one persistent session, normalized results, timeouts, reconnect after a server restart.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  connectTravelClient,
  connectTravelClientStdio,
  McpConnectionError,
  McpToolTimeoutError,
  normalizeToolResult,
  startTravelServer,
  type McpToolClient,
  type TravelServerHandle,
} from "../../lib/mcp/index.js";
import { startHttpServer, type RunningHttpServer } from "../../mcp-server-travel/src/transports/http.js";

async function sessions(url: string): Promise<number> {
  const r = await fetch(new URL("/healthz", url));
  return ((await r.json()) as { sessions: number }).sessions;
}

describe("McpToolClient against the travel server", () => {
  let server: TravelServerHandle;
  let client: McpToolClient;
  before(async () => {
    server = await startTravelServer({ offline: true });
    client = await connectTravelClient(server.url);
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
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => client.callTool("geocode", { destination: i % 2 ? "Berlin" : "Rom" })));
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

  it("close() ends the session on the server", async () => {
    const other = await connectTravelClient(server.url);
    assert.equal(await sessions(server.url), 2);
    await other.close();
    assert.equal(await sessions(server.url), 1);
    await assert.rejects(other.callTool("geocode", { destination: "Rom" }), McpConnectionError);
  });
});

describe("normalizeToolResult", () => {
  it("prefers structuredContent, else parses JSON text, else keeps the text", () => {
    assert.deepEqual(normalizeToolResult({ content: [{ type: "text", text: "hallo" }], structuredContent: { a: 1 } }), { isError: false, data: { a: 1 }, text: "hallo" });
    assert.deepEqual(normalizeToolResult({ content: [{ type: "text", text: ' {"a": [1, 2]} ' }] }), { isError: false, data: { a: [1, 2] }, text: ' {"a": [1, 2]} ' });
    assert.deepEqual(normalizeToolResult({ content: [{ type: "text", text: "{kaputt" }], isError: true }), { isError: true, data: "{kaputt", text: "{kaputt" });
    assert.deepEqual(normalizeToolResult({ content: [] }), { isError: false, data: "", text: "" });
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
        s.registerTool("json_text", { description: "JSON nur als Text", inputSchema: {} }, async () => ({ content: [{ type: "text", text: '{"temp": 21}' }] }));
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
    client = await connectTravelClient(http.url);
  });
  after(async () => {
    await client?.close();
    await http?.close();
  });

  it("falls back to the JSON-parsed text when there is no structuredContent", async () => {
    const r = await client.callTool("json_text", {});
    assert.deepEqual(r, { isError: false, data: { temp: 21 }, text: '{"temp": 21}' });
  });

  it("turns a call that takes too long into McpToolTimeoutError and stays usable", async () => {
    await assert.rejects(client.callTool("slow", { ms: 5000 }, { timeoutMs: 100 }), (e: unknown) => {
      assert.ok(e instanceof McpToolTimeoutError);
      assert.deepEqual(e.input, { tool: "slow", args: { ms: 5000 }, timeoutMs: 100 });
      return true;
    });
    const r = await client.callTool("slow", { ms: 1 });
    assert.equal(r.text, "fertig");
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
    const client = await connectTravelClient(first.url);
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
    await assert.rejects(connectTravelClient(url), (e: unknown) => {
      assert.ok(e instanceof McpConnectionError);
      assert.equal(e.input.target, url);
      assert.match(e.message, /Keine Verbindung zum MCP-Server/);
      return true;
    });
  });
});

describe("stdio client", () => {
  it("starts the server over stdio, calls a tool and stops it on close", async () => {
    const client = await connectTravelClientStdio({ offline: true });
    try {
      const tools = await client.listTools();
      assert.equal(tools.length, 5);
      const r = await client.callTool("geocode", { destination: "Lissabon" });
      assert.equal((r.data as { source: string }).source, "offline");
      assert.equal(client.sessionId, undefined);
    } finally {
      await client.close();
    }
  });
});
