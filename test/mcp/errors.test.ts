// The start errors of the two MCP servers: siblings under one base, same German message shape.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MathServerStartError, ServerStartError, TravelServerStartError } from "../../lib/mcp/index.js";

test("travel and math start errors share ServerStartError, neither is the other", () => {
  const input = { command: ["node", "server.js"], timeoutMs: 1000 };
  const math = new MathServerStartError("Rechen-Server nicht gestartet.", input, "Port belegt\n");
  const travel = new TravelServerStartError("Reise-Server nicht gestartet.", input, "");
  assert.ok(math instanceof ServerStartError && travel instanceof ServerStartError);
  assert.ok(!(math instanceof TravelServerStartError) && !(travel instanceof MathServerStartError));
  assert.equal(math.name, "MathServerStartError");
  assert.equal(math.message, "Rechen-Server nicht gestartet.\n--- Ausgabe des Servers (stderr) ---\nPort belegt");
  assert.equal(travel.message, "Reise-Server nicht gestartet.");
  assert.deepEqual([math.input, math.output], [input, "Port belegt\n"]);
});
