// The HTTP session's fetch (lib/mcp/client.ts sessionFetch) and the server's event streams:
// requests do not pile up abort listeners on the session's signal, closing the session still ends an
// open event stream, and server notifications arrive over the session's GET event stream.
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { sessionFetch } from "../../lib/mcp/client.js";
import { startHttpServer, type RunningHttpServer } from "../../mcp-server-shared/src/transports/http.js";
import { holdsGetStream } from "../../mcp-server-shared/src/transports/json-responses.js";

describe("sessionFetch", () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === "/events") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: one\n\n");
        if (req.headers["x-end"] === "1") res.end("data: two\n\n");
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("leaves no abort listener on the session's signal once JSON answers are in", async () => {
    const session = new AbortController();
    for (let i = 0; i < 50; i++) {
      const r = await sessionFetch(`${base}/json`, { method: "POST", body: "{}", signal: session.signal });
      assert.deepEqual(await r.json(), { ok: true });
    }
    assert.equal(getEventListeners(session.signal, "abort").length, 0);
  });

  it("warns about no listener leak when many requests of a session run at once", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const session = new AbortController();
      const answers = await Promise.all(
        Array.from({ length: 32 }, () =>
          sessionFetch(`${base}/json`, { method: "POST", body: "{}", signal: session.signal }),
        ),
      );
      await Promise.all(answers.map((r) => r.json()));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings, []);
      assert.equal(getEventListeners(session.signal, "abort").length, 0);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("keeps an event stream tied to the session until it ends", async () => {
    const session = new AbortController();
    const r = await sessionFetch(`${base}/events`, { headers: { "x-end": "1" }, signal: session.signal });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/event-stream");
    assert.equal(await r.text(), "data: one\n\ndata: two\n\n");
    assert.equal(getEventListeners(session.signal, "abort").length, 0, "released at the end of the stream");
  });

  it("closing the session ends an open event stream", async () => {
    const session = new AbortController();
    const r = await sessionFetch(`${base}/events`, { signal: session.signal });
    const reader = r.body!.getReader();
    assert.equal(new TextDecoder().decode((await reader.read()).value), "data: one\n\n");
    assert.equal(getEventListeners(session.signal, "abort").length, 1);
    session.abort();
    await assert.rejects(reader.read());
  });

  it("rejects at once for a closed session", async () => {
    const session = new AbortController();
    session.abort();
    await assert.rejects(sessionFetch(`${base}/json`, { signal: session.signal }), { name: "AbortError" });
  });
});

/** Whether the server's transport holds the session's GET event stream (false once the session is closed). */
function serverHoldsGetStream(server: McpServer): boolean {
  const transport = server.server.transport as StreamableHTTPServerTransport | undefined;
  if (!transport) return false;
  const held = holdsGetStream(transport);
  assert.notEqual(held, undefined, "the SDK internals json-responses.ts reads have changed");
  return held!;
}

describe("server notifications over the session's GET event stream", () => {
  let running: RunningHttpServer;
  const servers: McpServer[] = [];
  before(async () => {
    running = await startHttpServer({
      host: "127.0.0.1",
      port: 0,
      log: () => undefined,
      createServer: () => {
        const server = new McpServer({ name: "events", version: "0" });
        server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({
          content: [{ type: "text", text }],
        }));
        servers.push(server);
        return server;
      },
    });
  });
  after(() => running?.close());

  it("delivers a notification the server sends between calls, and ends the stream when the session closes", async () => {
    const client = new Client({ name: "events-test", version: "0" });
    const transport = new StreamableHTTPClientTransport(new URL(running.url), { fetch: sessionFetch });
    await client.connect(transport);
    const notified = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    const echoed = await client.callTool({ name: "echo", arguments: { text: "hallo" } });
    assert.deepEqual(echoed.content, [{ type: "text", text: "hallo" }]);
    // The client opens its GET event stream after initialization; wait until the server holds it.
    const stream = () => serverHoldsGetStream(servers[0]!);
    for (let i = 0; i < 100 && !stream(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(stream(), "GET event stream open");
    servers[0]!.sendToolListChanged();
    await notified;
    await transport.terminateSession();
    await client.close();
    assert.equal(running.sessionCount(), 0);
    assert.equal(stream(), false, "stream released with the session");
  });

  it("lets go of the GET event stream when the client goes away without ending the session", async () => {
    const client = new Client({ name: "events-test", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { fetch: sessionFetch }));
    await client.callTool({ name: "echo", arguments: { text: "x" } });
    const stream = () => serverHoldsGetStream(servers.at(-1)!);
    for (let i = 0; i < 100 && !stream(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(stream(), "GET event stream open");
    await client.close(); // aborts its requests, sends no DELETE
    for (let i = 0; i < 100 && stream(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(stream(), false, "the server cancelled the stream of the connection that went away");
    assert.equal(running.sessionCount(), 1, "the session itself stays until DELETE or idle timeout");
  });
});
