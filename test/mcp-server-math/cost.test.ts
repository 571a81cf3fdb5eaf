// The math server's cost bounds, over Streamable HTTP against the real child process: huge results
// refused, expensive expressions refused before they block the server, so another session's `1+2`
// stays fast; out-of-range exponents as errors; HTTP error answers name the math server.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { McpToolClient, startMathServer, type ServerHandle } from "../../lib/mcp/index.js";
import { MCP_HEADERS, rawRequest } from "../mcp-server-travel/helpers.js";

/** `term` joined with `op` as often as fits into 489 characters (the expressions). */
const chain = (term: string, op = "*") =>
  Array.from({ length: 200 }, () => term)
    .join(op)
    .slice(0, 489)
    .replace(/[-+*/]?[^-+*/]*$/, "");

describe("math server: bounded cost per call (HTTP)", () => {
  let server: ServerHandle;
  const clients: McpToolClient[] = [];
  const connect = async () => {
    const client = await McpToolClient.connect(server.url);
    clients.push(client);
    return client;
  };
  before(async () => {
    server = await startMathServer();
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.stop();
  });

  it("refuses an integer product beyond the digit limit instead of sending 262,804 characters", async () => {
    const result = await (await connect()).callTool("rechne", { ausdruck: chain("9^5000") });
    assert.equal(result.isError, true);
    assert.match(result.text, /mehr als 10000 Stellen/);
    assert.ok(result.text.length < 500);
  });

  it("six expensive calls do not make 1+2 from another session wait", async () => {
    const expensive = chain("1.1^3000");
    const busy = await Promise.all(Array.from({ length: 6 }, () => connect()));
    const other = await connect();
    const calls = busy.map((c) => c.callTool("rechne", { ausdruck: expensive }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const small = await other.callTool("rechne", { ausdruck: "1+2" });
    const waited = performance.now() - started;
    assert.equal(small.data && (small.data as { result: number }).result, 3);
    for (const r of await Promise.all(calls)) assert.equal(r.isError, true);
    assert.ok(waited < 1000, `1+2 wartete ${waited.toFixed(0)} ms`);
  });

  it("an exponent beyond the range is an error, not 0 with exact: true", async () => {
    const client = await connect();
    const expression = await client.callTool("rechne", { ausdruck: "1e-99999999999999999999" });
    assert.equal(expression.isError, true);
    assert.match(expression.text, /zu groß oder zu klein/);
    const operand = await client.callTool("addition", { a: "1e-99999999999999999999", b: 1 });
    assert.equal(operand.isError, true);
  });

  it("its HTTP error answers name the math server, not the travel server", async () => {
    const missing = await rawRequest(server.url.replace(/\/mcp$/, "/nirgends"), {});
    assert.equal(missing.status, 404);
    assert.match(missing.body, /der Rechen-Server antwortet unter \/mcp/);
    const broken = await rawRequest(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, "Content-Encoding": "gzip" },
      body: "kein gzip",
    });
    assert.equal(broken.status, 500);
    assert.match(broken.body, /Interner Fehler im Rechen-Server/);
    assert.doesNotMatch(missing.body + broken.body, /Reise-Server/);
  });
});
