// The HTTP transport on a classroom network (issue 15): JSON-RPC errors for every bad request, −32602 for
// non-object arguments, a session cap with idle eviction, IPv6 loopback, and binds beyond loopback that
// need an explicit Host list. Real server subprocesses, raw HTTP.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTravelServer, TravelServerStartError, type TravelServerHandle } from "../../lib/mcp/index.js";
import { assertArgumentsGuarded, INITIALIZE, MCP_HEADERS, openSession, rawRequest, rpc } from "./helpers.js";

function assertJsonRpcError(r: { status: number; body: string }, status: number, code: number, message: RegExp): void {
  assert.equal(r.status, status, r.body);
  const parsed = JSON.parse(r.body) as { jsonrpc: string; error: { code: number; message: string } };
  assert.equal(parsed.jsonrpc, "2.0");
  assert.equal(parsed.error.code, code);
  assert.match(parsed.error.message, message);
  assert.doesNotMatch(
    r.body,
    /node_modules|\bat [\w.]+ \(|<html|<pre|SyntaxError|\/work\/|\\\\/i,
    "no paths, stack traces or HTML",
  );
}

describe("every non-2xx answer is a JSON-RPC error; invalid arguments are −32602", () => {
  let server: TravelServerHandle;
  before(async () => {
    server = await startTravelServer({ offline: true, env: { TRAVEL_TODAY: "2025-06-10" } });
  });
  after(() => server?.stop());

  it("answers invalid JSON, null, NaN and an oversized body with a JSON-RPC error without stack trace", async () => {
    const post = (body: string) => rawRequest(server.url, { method: "POST", headers: MCP_HEADERS, body });
    assertJsonRpcError(await post("{ not json"), 400, -32700, /Ungültiges JSON/);
    assertJsonRpcError(await post("null"), 400, -32700, /Ungültiges JSON/);
    assertJsonRpcError(await post('{"jsonrpc":"2.0","id":NaN,"method":"initialize"}'), 400, -32700, /Ungültiges JSON/);
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { pad: "x".repeat(150_000) } });
    assertJsonRpcError(await post(big), 413, -32600, /Anfrage zu groß: höchstens 100 kB/);
  });

  it("answers unknown paths and methods with JSON-RPC errors too", async () => {
    const base = new URL(server.url);
    assertJsonRpcError(
      await rawRequest(new URL("/nope", base).href, { method: "GET" }),
      404,
      -32000,
      /Unbekannter Pfad/,
    );
    assertJsonRpcError(
      await rawRequest(server.url, { method: "PUT", headers: MCP_HEADERS, body: "{}" }),
      405,
      -32000,
      /Methode PUT/,
    );
  });

  it("answers arguments that are an array, null or a string with −32602 in German", async () => {
    const session = await openSession(server.url);
    await assertArgumentsGuarded(server.url, session, "geocode", '{"destination": "Rom"}');
    const ok = await rpc(server.url, session, {
      jsonrpc: "2.0",
      id: 8,
      method: "tools/call",
      params: { name: "geocode", arguments: { destination: "Rom" } },
    });
    assert.match(ok.body, /"source":"offline"/);
  });
});

describe("sessions", () => {
  it("keeps at most --max-sessions open, evicting the one idle longest, and closes idle ones after --session-idle", async () => {
    const server = await startTravelServer({
      offline: true,
      env: { TRAVEL_MAX_SESSIONS: "3", TRAVEL_SESSION_IDLE_S: "1.5" },
    });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await openSession(server.url));
      const list = (id: string) => rpc(server.url, id, { jsonrpc: "2.0", id: 2, method: "tools/list" });
      assert.equal((await list(ids[0]!)).status, 200, "touch the first: now the second is idle longest");
      ids.push(await openSession(server.url));
      ids.push(await openSession(server.url));
      const health = async () =>
        (JSON.parse((await rawRequest(new URL("/healthz", server.url).href, {})).body) as { sessions: number })
          .sessions;
      assert.equal(await health(), 3);
      assert.equal((await list(ids[1]!)).status, 404, "second evicted");
      assert.equal((await list(ids[2]!)).status, 404, "third evicted");
      assert.equal((await list(ids[0]!)).status, 200, "first kept (recently used)");
      assert.equal((await list(ids[4]!)).status, 200);
      assert.match(server.logs(), /Höchstzahl von 3 Sitzungen erreicht/);
      const until = Date.now() + 5000;
      while ((await health()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      assert.equal(await health(), 0, "idle sessions closed");
    } finally {
      await server.stop();
    }
  });
});

describe("bind addresses", () => {
  it("serves on IPv6 loopback (--host ::1) under its own printed URL", async () => {
    const server = await startTravelServer({ offline: true, host: "::1" });
    try {
      assert.match(server.url, /^http:\/\/\[::1\]:\d+\/mcp$/);
      await openSession(server.url);
    } finally {
      await server.stop();
    }
  });

  it("refuses a bind beyond loopback without an explicit Host list, in German", async () => {
    for (const host of ["::", "0.0.0.0"]) {
      await assert.rejects(startTravelServer({ offline: true, host, timeoutMs: 20_000 }), (e: unknown) => {
        assert.ok(e instanceof TravelServerStartError);
        assert.match(
          e.output,
          new RegExp(
            `--host ${host.replace(/\./g, "\\.")} macht den Reise-Server im ganzen Netz erreichbar.*TRAVEL_ALLOWED_HOSTS`,
          ),
        );
        return true;
      });
    }
  });

  it("with --host :: and a Host list: warns, prints a URL it accepts, and accepts only the listed names", async () => {
    const server = await startTravelServer({ offline: true, host: "::", env: { TRAVEL_ALLOWED_HOSTS: "localhost" } });
    try {
      assert.match(server.url, /^http:\/\/localhost:\d+\/mcp$/);
      assert.match(
        server.logs(),
        /WARNUNG: Der Reise-Server lauscht auf :: und ist damit für jedes Gerät im Netz erreichbar/,
      );
      await openSession(server.url);
      const port = new URL(server.url).port;
      const other = await rawRequest(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: MCP_HEADERS,
        body: INITIALIZE,
      });
      assert.equal(other.status, 403, "127.0.0.1 is not in the list");
      assert.match(other.body, /Invalid Host/);
    } finally {
      await server.stop();
    }
  });
});
