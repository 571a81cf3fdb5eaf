// CompositeToolClient: several tool clients behind one ToolClient, names namespaced only on collision.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { InMemoryToolClient, ToolReportedError, type InMemoryTool } from "../../lib/testing/in-memory-tools.js";
import {
  CompositeToolClient,
  combineToolClients,
  mergeToolNames,
  ToolClientSetupError,
} from "../../lib/mcp/composite.js";
import { McpConnectionError, McpToolClient, startMathServer, type ServerHandle } from "../../lib/mcp/index.js";
import { connectMathClientStdio } from "../../lib/mcp/client.js";

const tool = (name: string, handler: InMemoryTool["handler"]): InMemoryTool => ({
  info: { name, description: `${name} (Test)`, inputSchema: { type: "object", properties: { x: { type: "number" } } } },
  handler,
});

describe("naming rule", () => {
  it("keeps unique names and prefixes every copy of a shared one with its alias", () => {
    const merged = mergeToolNames({ reise: ["geocode", "get_weather", "suche"], mathe: ["addition", "suche"] });
    assert.deepEqual(Object.fromEntries(merged), {
      geocode: { alias: "reise", tool: "geocode" },
      get_weather: { alias: "reise", tool: "get_weather" },
      "reise.suche": { alias: "reise", tool: "suche" },
      addition: { alias: "mathe", tool: "addition" },
      "mathe.suche": { alias: "mathe", tool: "suche" },
    });
  });

  it("refuses a set whose names still clash after prefixing, and bad aliases", () => {
    assert.throws(
      () => mergeToolNames({ a: ["x", "b.x"], b: ["x"] }),
      (e: unknown) => e instanceof ToolClientSetupError && /"b\.x" entsteht doppelt/.test(e.message),
    );
    const client = new InMemoryToolClient([]);
    assert.throws(() => new CompositeToolClient({}), ToolClientSetupError);
    assert.throws(() => new CompositeToolClient({ "re ise": client }), /Ungültiges Kürzel "re ise"/);
    assert.throws(() => new CompositeToolClient({ reise: {} as never }), /kein Tool-Client/);
  });
});

describe("CompositeToolClient with in-process clients", () => {
  const reise = new InMemoryToolClient([tool("geocode", () => ({ lat: 1 })), tool("suche", () => ({ von: "reise" }))]);
  const mathe = new InMemoryToolClient([
    tool("suche", () => ({ von: "mathe" })),
    tool("fehler", () => {
      throw new ToolReportedError("kaputt");
    }),
  ]);
  const both = new CompositeToolClient({ reise, mathe });

  it("lists a merged catalog with the original descriptions and schemas", async () => {
    const tools = await both.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["geocode", "reise.suche", "mathe.suche", "fehler"],
    );
    assert.equal(tools[2]!.description, "suche (Test)");
    assert.deepEqual(tools[2]!.inputSchema, { type: "object", properties: { x: { type: "number" } } });
  });

  it("routes each call to the client that offers the tool, under its own name there", async () => {
    assert.deepEqual((await both.callTool("reise.suche", {})).data, { von: "reise" });
    assert.deepEqual((await both.callTool("mathe.suche", { x: 1 })).data, { von: "mathe" });
    assert.deepEqual((await both.callTool("geocode", {})).data, { lat: 1 });
    assert.deepEqual((await both.callTool("reise.geocode", {})).data, { lat: 1 }); // qualified names work too
    assert.deepEqual(
      mathe.calls.map((c) => [c.name, c.args]),
      [["suche", { x: 1 }]],
    );
    assert.equal((await both.callTool("fehler", {})).text, "kaputt");
  });

  it("answers unknown and ambiguous names with a German isError result", async () => {
    const ambiguous = await both.callTool("suche", {});
    assert.equal(ambiguous.isError, true);
    assert.match(ambiguous.text, /bieten mehrere Server an; nimm einen dieser Namen: reise\.suche, mathe\.suche/);
    const unknown = await both.callTool("wurzel", {});
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /Ein Werkzeug "wurzel" gibt es bei keinem der Server \(reise, mathe\)/);
    assert.equal((await both.callTool("mathe.geocode", {})).isError, true);
  });

  it("lists tools on the first call when the catalog was not asked for yet", async () => {
    const fresh = new CompositeToolClient({ reise, mathe });
    assert.deepEqual((await fresh.callTool("mathe.suche", {})).data, { von: "mathe" });
  });

  it("passes a single client through and closes all clients of a composite", async () => {
    assert.equal(combineToolClients(reise), reise);
    const record = { reise, mathe };
    assert.ok(combineToolClients(record) instanceof CompositeToolClient);
    assert.equal(combineToolClients(record), combineToolClients(record), "one composite per record object");
    await both.close();
    await assert.rejects(reise.callTool("geocode", {}), /geschlossen/);
    await assert.rejects(mathe.callTool("suche", {}), /geschlossen/);
  });
});

describe("CompositeToolClient over two real servers that offer the same tools", () => {
  let server: ServerHandle;
  let http: McpToolClient;
  let stdio: McpToolClient;
  let both: CompositeToolClient;
  before(async () => {
    server = await startMathServer();
    [http, stdio] = await Promise.all([McpToolClient.connect(server.url), connectMathClientStdio()]);
    both = new CompositeToolClient({ mathe: http, rechner: stdio });
  });
  after(async () => {
    await both?.close();
    await server?.stop();
  });

  it("prefixes every shared name and routes calls to the right server", async () => {
    const names = (await both.listTools()).map((t) => t.name);
    assert.equal(names.length, 10);
    assert.ok(names.includes("mathe.multiplikation") && names.includes("rechner.multiplikation"));
    assert.ok(names.every((n) => /^(mathe|rechner)\./.test(n)));
    const viaHttp = await both.callTool("mathe.multiplikation", { a: 58952, b: 21448 });
    assert.equal((viaHttp.data as { result: number }).result, 1264402496);
    const viaStdio = await both.callTool("rechner.addition", { a: "9007199254740993", b: 1 });
    assert.equal((viaStdio.data as { result: string }).result, "9007199254740994");
    // A server that goes away breaks only the calls routed to it.
    await server.stop();
    await assert.rejects(both.callTool("mathe.addition", { a: 1, b: 1 }), McpConnectionError);
    assert.equal(((await both.callTool("rechner.addition", { a: 1, b: 1 })).data as { result: number }).result, 2);
    // A closed session (a notebook's clean-up cell) opens a new one on its next call.
    await stdio.close();
    assert.equal(((await both.callTool("rechner.addition", { a: 2, b: 3 })).data as { result: number }).result, 5);
  });
});
