// The math server as a real child process, over Streamable HTTP (startMathServer + lib's client) and
// over stdio (connectMathClientStdio): every tool, exact results, German isError results, Host/Origin checks.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  MathServerStartError,
  McpToolClient,
  startMathServer,
  type ServerHandle,
  type ToolCallResult,
} from "../../lib/mcp/index.js";
import { connectMathClientStdio } from "../../lib/mcp/client.js";
import { parseCli, UsageError } from "../../mcp-server-math/src/cli.js";
import {
  assertArgumentsGuarded,
  INITIALIZE,
  MCP_HEADERS,
  isAlive,
  openSession,
  rawRequest,
  waitGone,
} from "../mcp-server-travel/helpers.js";

const data = (r: ToolCallResult) =>
  r.data as { result: number | string; text: string; exact: boolean; note?: string; ausdruck?: string };

/** The same checks over either transport. */
function toolChecks(client: () => McpToolClient): void {
  it("lists five tools, each with input and output schema", async () => {
    const tools = await client().listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "addition",
      "division",
      "multiplikation",
      "rechne",
      "subtraktion",
    ]);
    for (const tool of tools) {
      assert.ok(tool.outputSchema, tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true);
      assert.match(tool.description, /exakt/);
    }
    const mult = tools.find((t) => t.name === "multiplikation")!;
    const a = (mult.inputSchema.properties as Record<string, { type?: string[] }>).a!;
    assert.deepEqual(a.type, ["number", "string"]);
    assert.match(JSON.stringify(mult.outputSchema), /2\^53/);
  });

  it("computes every tool exactly", async () => {
    const c = client();
    const mult = await c.callTool("multiplikation", { a: 58952, b: 21448 });
    assert.equal(mult.isError, false);
    assert.deepEqual(data(mult), { result: 1264402496, text: "1264402496", exact: true });
    assert.match(mult.text, /58952 × 21448 = 1264402496/);
    assert.deepEqual(data(await c.callTool("addition", { a: "9007199254740993", b: 1 })).result, "9007199254740994");
    assert.deepEqual(data(await c.callTool("subtraktion", { a: 21.5, b: "8,25" })).result, 13.25);
    assert.deepEqual(data(await c.callTool("division", { a: 1, b: 8 })), { result: 0.125, text: "0.125", exact: true });
    const third = data(await c.callTool("division", { a: 2, b: 3 }));
    assert.equal(third.exact, false);
    assert.match(String(third.result), /^0\.6{33}7$/);
    const expr = data(await c.callTool("rechne", { ausdruck: "(58952 × 21448) - 2^64" }));
    assert.deepEqual(expr, {
      result: "-18446744072445149120",
      text: "-18446744072445149120",
      exact: true,
      ausdruck: "(58952 * 21448) - 2^64",
    });
  });

  it("returns products beyond 2^53 as text with every digit", async () => {
    const r = await client().callTool("multiplikation", { a: "12345678901234567890", b: "98765432109876543210" });
    assert.equal(data(r).result, "1219326311370217952237463801111263526900");
    assert.equal(BigInt(data(r).text), 12345678901234567890n * 98765432109876543210n);
  });

  it("answers bad input with German isError results and keeps serving", async () => {
    const c = client();
    const zero = await c.callTool("division", { a: 5, b: 0 });
    assert.equal(zero.isError, true);
    assert.match(zero.text, /Division durch 0 ist nicht definiert/);
    const word = await c.callTool("addition", { a: "drei", b: 4 });
    assert.equal(word.isError, true);
    assert.match(word.text, /a ist keine Zahl: "drei"/);
    const missing = await c.callTool("multiplikation", { a: 3 });
    assert.equal(missing.isError, true);
    assert.match(
      missing.text,
      /Ungültige Argumente für das Tool multiplikation: b fehlt oder ist weder Zahl noch Text/,
    );
    const wrongType = await c.callTool("subtraktion", { a: true, b: 1 });
    assert.equal(wrongType.isError, true);
    assert.match(wrongType.text, /a fehlt oder ist weder Zahl noch Text/);
    const expr = await c.callTool("rechne", { ausdruck: "require('fs')" });
    assert.equal(expr.isError, true);
    assert.match(expr.text, /Funktionen/);
    const unknown = await c.callTool("wurzel", { a: 2 });
    assert.equal(unknown.isError, true);
    const good = await c.callTool("addition", { a: 2, b: 2 });
    assert.deepEqual(data(good).result, 4);
  });
}

describe("math server over Streamable HTTP (startMathServer)", () => {
  let server: ServerHandle;
  let client: McpToolClient;
  before(async () => {
    server = await startMathServer();
    client = await McpToolClient.connect(server.url);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  toolChecks(() => client);

  it("answers rechne with arguments that are an array, null or a string with −32602 in German (the travel server's guard)", async () => {
    await assertArgumentsGuarded(server.url, await openSession(server.url), "rechne", '{"ausdruck": "2 + 3"}');
  });

  it("rejects a foreign Host or Origin header (DNS rebinding)", async () => {
    const host = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, Host: "evil.example:80" },
      body: INITIALIZE,
    });
    assert.equal(host.status, 403);
    const origin = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, Origin: "http://evil.example" },
      body: INITIALIZE,
    });
    assert.equal(origin.status, 403);
    const ok = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, Origin: "http://localhost:3000" },
      body: INITIALIZE,
    });
    assert.equal(ok.status, 200);
  });

  it("a busy port fails with a German MathServerStartError and leaves nothing behind", async () => {
    const port = Number(new URL(server.url).port);
    await assert.rejects(startMathServer({ port }), (e: unknown) => {
      assert.ok(e instanceof MathServerStartError);
      assert.match(e.message, /Der Rechen-Server hat sich beim Start beendet/);
      assert.match(e.message, new RegExp(`Port ${port} ist bereits belegt \\(läuft der Rechen-Server schon\\?\\)`));
      assert.ok(e.input.pid && !isAlive(e.input.pid));
      return true;
    });
  });

  it("refuses a bind beyond loopback without a Host list, naming itself (shared bind check)", async () => {
    await assert.rejects(startMathServer({ host: "0.0.0.0" }), (e: unknown) => {
      assert.ok(e instanceof MathServerStartError);
      assert.match(
        e.message,
        /--host 0\.0\.0\.0 macht den Rechen-Server im ganzen Netz erreichbar.*--allowed-host kurs-pc\.local, mehrfach möglich/,
      );
      assert.doesNotMatch(e.message, /TRAVEL_ALLOWED_HOSTS|Start fehlgeschlagen/);
      return true;
    });
  });

  it("stop() leaves no process behind", async () => {
    const other = await startMathServer();
    assert.match(other.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(other.logs(), /Rechen-Server \(MCP\) bereit unter/);
    await other.stop();
    assert.equal(isAlive(other.pid), false);
  });
});

describe("math server over stdio (connectMathClientStdio)", () => {
  let client: McpToolClient;
  before(async () => {
    client = await connectMathClientStdio();
  });
  after(async () => {
    await client?.close();
  });

  toolChecks(() => client);

  it("ends the server process when the client closes", async () => {
    const pid = client.serverPid;
    assert.ok(pid);
    await client.close();
    assert.equal(await waitGone(pid), true);
  });
});

describe("math server command line", () => {
  it("reads its flags and explains wrong ones in German", () => {
    assert.deepEqual(parseCli([]), {
      host: "127.0.0.1",
      port: 8766,
      stdio: false,
      parentPid: undefined,
      allowedHosts: undefined,
    });
    assert.deepEqual(parseCli(["--stdio", "--port", "0", "--allowed-host", "kurs.local"]).allowedHosts, ["kurs.local"]);
    assert.throws(
      () => parseCli(["--port", "x"]),
      (e: unknown) => e instanceof UsageError && /--port muss eine ganze Zahl/.test(e.message),
    );
    assert.throws(
      () => parseCli(["--offline"]),
      (e: unknown) => e instanceof UsageError && e.exitCode === 2,
    );
    assert.throws(
      () => parseCli(["--help"]),
      (e: unknown) => e instanceof UsageError && e.exitCode === 0 && /npm run math-server/.test(e.message),
    );
  });
});
