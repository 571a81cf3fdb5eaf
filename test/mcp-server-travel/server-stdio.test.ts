// The travel server over stdio (as MCP Inspector or Claude Desktop run it), with the SDK's stdio client.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { childEnv, travelServerCommand } from "../../lib/mcp/server-command.js";
import { waitGone } from "./helpers.js";

let client: Client;
let transport: StdioClientTransport;
let stderr = "";
const BCN = { lat: 41.3874, lon: 2.1686 };

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
const data = (r: CallToolResult) => r.structuredContent as Record<string, unknown>;

before(async () => {
  const cmd = travelServerCommand(["--stdio", "--offline"]);
  transport = new StdioClientTransport({
    command: cmd.command,
    args: cmd.args,
    cwd: cmd.cwd,
    env: childEnv({ TRAVEL_TODAY: "2025-06-10" }),
    stderr: "pipe",
  });
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  client = new Client({ name: "stdio-test", version: "0" });
  await client.connect(transport);
});
after(async () => {
  await client?.close();
});

describe("travel server over stdio (offline)", () => {
  it("keeps stdout for the protocol and logs to stderr", async () => {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 6);
    assert.match(stderr, /Reise-Server \(MCP\) bereit über stdio \(Modus: offline\)/);
  });

  it("serves every tool", async () => {
    const geo = await call("geocode", { destination: "Paris" });
    assert.equal(data(geo).source, "offline");
    const at = { lat: data(geo).lat as number, lon: data(geo).lon as number };
    const weather = await call("get_weather", { ...at, start_date: "2025-12-30", end_date: "2026-01-02" });
    assert.deepEqual(
      (data(weather).days as { date: string }[]).map((d) => d.date),
      ["2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02"],
    );
    assert.equal(data(weather).is_estimate, true);
    const parks = await call("get_parks", { ...at, radius_km: 10 });
    assert.ok((data(parks).count as number) > 0);
    const spots = await call("get_spots", { ...at, radius_km: 10, activity: "museum" });
    assert.equal(data(spots).activity, "sightseeing");
    const ranked = await call("rank_spots", {
      ...at,
      start_date: "2025-06-12",
      end_date: "2025-06-14",
      activity: "laufen",
      top_k: 2,
    });
    assert.equal((data(ranked).ranking as unknown[]).length, 2);
  });

  it("reports invalid arguments as isError and keeps serving", async () => {
    const bad = await call("get_parks", { ...BCN, radius_km: 1000 });
    assert.equal(bad.isError, true);
    const good = await call("get_parks", { ...BCN, radius_km: 3 });
    assert.equal(good.isError, undefined);
  });

  it("ends the server process when the client closes", async () => {
    const pid = transport.pid;
    assert.ok(pid);
    await client.close();
    assert.equal(await waitGone(pid), true);
  });
});
