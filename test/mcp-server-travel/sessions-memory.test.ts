// Memory of the HTTP sessions (issue 15): what every session's server can share is built once per process,
// a session does not keep the answers it sent, closed and evicted sessions are released, and the session
// pool evicts the session idle longest. In-process, no timing; the RSS numbers are in bench/classroom.bench.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { findProjectRoot } from "../../lib/config.js";
import { SERVER_V8_FLAGS } from "../../lib/mcp/server-command.js";
import { createMathMcpServer } from "../../mcp-server-math/src/server.js";
import { dataConfigFromEnv } from "../../mcp-server-travel/src/config.js";
import { loadOfflineData } from "../../mcp-server-travel/src/offline/data.js";
import { createTravelMcpServer } from "../../mcp-server-travel/src/server.js";
import { offlineServices } from "../../mcp-server-travel/src/services/create.js";
import type { TravelServices } from "../../mcp-server-travel/src/services/types.js";
import { startHttpServer, type RunningHttpServer } from "../../mcp-server-shared/src/transports/http.js";
import { heldStreamCount } from "../../mcp-server-shared/src/transports/json-responses.js";
import { SessionPool } from "../../mcp-server-shared/src/transports/sessions.js";
import { INITIALIZE, MCP_HEADERS } from "./helpers.js";

const log = () => undefined;
let services: TravelServices;
before(async () => {
  services = offlineServices(await loadOfflineData(dataConfigFromEnv({}).dataDir));
});
const travelServer = () =>
  createTravelMcpServer(services, { today: () => 20_249, log, workspaceDir: "/nonexistent-workspace" });

/** The SDK's per-server internals this test looks at. */
function internals(server: McpServer) {
  const s = server as unknown as {
    _registeredTools: Record<string, { inputSchema?: unknown; outputSchema?: unknown }>;
    server: { _jsonSchemaValidator?: unknown; transport?: StreamableHTTPServerTransport };
  };
  return { tools: s._registeredTools, validator: s.server._jsonSchemaValidator, transport: s.server.transport };
}

describe("per-process state shared by all sessions", () => {
  for (const [name, create] of [
    ["travel", travelServer],
    ["math", () => createMathMcpServer({ log })],
  ] as const) {
    it(`${name}: two sessions' servers share the tool schemas and the JSON Schema validator`, () => {
      const a = internals(create());
      const b = internals(create());
      assert.ok(Object.keys(a.tools).length >= 5);
      assert.deepEqual(Object.keys(a.tools), Object.keys(b.tools));
      for (const tool of Object.keys(a.tools)) {
        assert.ok(a.tools[tool]!.inputSchema, tool);
        assert.equal(a.tools[tool]!.inputSchema, b.tools[tool]!.inputSchema, `${tool}: input schema built once`);
        assert.equal(a.tools[tool]!.outputSchema, b.tools[tool]!.outputSchema, `${tool}: output schema built once`);
      }
      assert.ok(a.validator);
      assert.equal(a.validator, b.validator, "one validator (a new Ajv per session was the largest part of a session)");
    });
  }
});

describe("HTTP sessions", () => {
  let running: RunningHttpServer;
  let created: McpServer[] = [];
  before(async () => {
    running = await startHttpServer({
      host: "127.0.0.1",
      port: 0,
      log,
      maxSessions: 3,
      createServer: () => {
        const server = travelServer();
        created.push(server);
        return server;
      },
    });
  });
  after(() => running?.close());

  const post = async (body: unknown, session?: string) => {
    const r = await fetch(running.url, {
      method: "POST",
      headers: {
        ...MCP_HEADERS,
        ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } : {}),
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, text, session: r.headers.get("mcp-session-id") };
  };
  const open = async () => {
    const r = await post(INITIALIZE);
    assert.equal(r.status, 200, r.text);
    assert.ok(r.session);
    return r.session;
  };

  it("a session does not keep the answers it has sent (SDK JSON-response leak, json-responses.ts)", async () => {
    created = [];
    const session = await open();
    const { transport } = internals(created[0]!);
    assert.ok(transport);
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
    for (let i = 0; i < 10; i++) {
      const r = await post(
        {
          jsonrpc: "2.0",
          id: 10 + i,
          method: "tools/call",
          params: { name: "geocode", arguments: { destination: "Rom" } },
        },
        session,
      );
      assert.match(r.text, /"source":"offline"/);
    }
    const batch = await post(
      [
        { jsonrpc: "2.0", id: 50, method: "tools/list" },
        { jsonrpc: "2.0", id: 51, method: "ping" },
      ],
      session,
    );
    assert.equal(batch.status, 200, batch.text);
    const held = heldStreamCount(transport);
    assert.notEqual(
      held,
      undefined,
      "SDK transport internals changed: check mcp-server-shared/src/transports/json-responses.ts",
    );
    assert.equal(held, 0, "no per-request entry left after the answers were sent");
  });

  it("releases sessions that were evicted by the cap or closed with DELETE", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    created = [];
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await open()); // cap 3: the first three are evicted
    const r = await fetch(running.url, {
      method: "DELETE",
      headers: { ...MCP_HEADERS, "mcp-session-id": ids[5]!, "mcp-protocol-version": "2025-06-18" },
    });
    await r.text();
    assert.equal(r.status, 200);
    assert.equal(running.sessionCount(), 2);
    assert.equal(created.length, 6);
    const refs = created.map((server) => new WeakRef(server));
    created = [];
    // WeakRefs are cleared between jobs: collect, then yield to the event loop, a few times.
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const alive = refs.map((ref) => ref.deref() !== undefined);
    assert.deepEqual(
      alive,
      [false, false, false, true, true, false],
      "only the two open sessions' servers are still reachable",
    );
  });
});

describe("SessionPool", () => {
  function fakeSession(closed: string[], id: string) {
    return {
      transport: { close: async () => void closed.push(`transport ${id}`) } as unknown as StreamableHTTPServerTransport,
      server: { close: async () => void closed.push(`server ${id}`) } as unknown as McpServer,
    };
  }

  it("evicts the session idle longest, never a busy one, and closes its transport and server", async () => {
    let now = 0;
    const closed: string[] = [];
    const pool = new SessionPool(2, 60_000, log, () => now);
    try {
      pool.add("a", fakeSession(closed, "a"));
      now = 1;
      pool.add("b", fakeSession(closed, "b"));
      now = 2;
      let release!: () => void;
      const busy = pool.use(pool.get("a")!, () => new Promise<void>((resolve) => (release = resolve)));
      assert.equal(pool.makeRoom(), true, "b is idle: evicted although a is older");
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(closed, ["transport b", "server b"]);
      assert.equal(pool.get("b"), undefined);
      assert.ok(pool.get("a"));
      pool.add("c", fakeSession(closed, "c"));
      pool.use(pool.get("c")!, () => new Promise(() => undefined)).catch(() => undefined); // c stays busy
      assert.equal(pool.makeRoom(), false, "every session busy: no room");
      release();
      await busy;
      assert.equal(pool.makeRoom(), true, "a is idle again");
      assert.equal(pool.size, 1);
      assert.ok(pool.get("c"));
    } finally {
      await pool.closeAll();
    }
  });
});

describe("the servers' V8 memory flags", () => {
  it("npm run travel-server / math-server pass the same flags as lib's child processes, and node accepts them", () => {
    const scripts = (
      JSON.parse(readFileSync(join(findProjectRoot(), "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    for (const name of ["travel-server", "math-server"]) {
      assert.equal(scripts[name]?.split(" --import tsx ")[0], `node ${SERVER_V8_FLAGS.join(" ")}`, name);
    }
    // node refuses to start with an unknown or misspelt V8 flag ("bad option").
    const r = spawnSync(process.execPath, [...SERVER_V8_FLAGS, "-e", "process.exit(0)"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  });
});
