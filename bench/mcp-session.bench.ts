// How much cheaper is one persistent MCP session than a new session per call (the anchor's pattern)?
// Same travel server (offline mode, subprocess), same tool call, concurrency 1/8/32.
// Run: npx tsx bench/mcp-session.bench.ts [--calls N]
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectTravelClient, startTravelServer } from "../lib/mcp/index.js";

const { values } = parseArgs({ options: { calls: { type: "string", default: "256" } } });
const CALLS = Math.max(32, Number(values.calls));
const CONCURRENCY = [1, 8, 32];
const TOOL = { name: "geocode", arguments: { destination: "Barcelona" } };

interface Row {
  mode: string;
  concurrency: number;
  calls: number;
  wallMs: number;
  meanLatencyMs: number;
}

/** Runs `calls` calls with `concurrency` workers; returns wall time and mean latency. */
async function run(calls: number, concurrency: number, one: () => Promise<void>): Promise<{ wallMs: number; meanLatencyMs: number }> {
  let next = 0;
  let latencySum = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        next++;
        const t = performance.now();
        await one();
        latencySum += performance.now() - t;
      }
    }),
  );
  return { wallMs: performance.now() - start, meanLatencyMs: latencySum / calls };
}

async function main(): Promise<void> {
  const server = await startTravelServer({ offline: true });
  const rows: Row[] = [];
  try {
    const endpoint = new URL(server.url);
    const sessionPerCall = async () => {
      const client = new Client({ name: "bench-per-call", version: "0" });
      const transport = new StreamableHTTPClientTransport(endpoint);
      await client.connect(transport);
      const r = await client.callTool(TOOL);
      if (r.isError) throw new Error("tool failed");
      await transport.terminateSession();
      await client.close();
    };
    const persistent = await connectTravelClient(server.url);
    const persistentCall = async () => {
      const r = await persistent.callTool(TOOL.name, TOOL.arguments);
      if (r.isError) throw new Error("tool failed");
    };

    await run(20, 4, sessionPerCall); // warm-up (JIT, sockets)
    await run(50, 4, persistentCall);
    for (const c of CONCURRENCY) {
      const perCallCalls = Math.max(c * 2, Math.floor(CALLS / 4));
      rows.push({ mode: "session-per-call", concurrency: c, calls: perCallCalls, ...(await run(perCallCalls, c, sessionPerCall)) });
      rows.push({ mode: "persistent", concurrency: c, calls: CALLS, ...(await run(CALLS, c, persistentCall)) });
    }
    await persistent.close();
  } finally {
    await server.stop();
  }

  console.log(`MCP session benchmark: travel server (offline), tool geocode("Barcelona"), Node ${process.version}`);
  console.log("goal (issue 5): a persistent session is at least 10x cheaper per call than a session per call\n");
  console.log("mode               conc  calls   ms/call  calls/s  mean latency ms");
  for (const r of rows) {
    const msPerCall = r.wallMs / r.calls;
    console.log(
      `${r.mode.padEnd(18)} ${String(r.concurrency).padStart(4)} ${String(r.calls).padStart(6)} ${msPerCall.toFixed(3).padStart(9)} ${(1000 / msPerCall).toFixed(0).padStart(8)} ${r.meanLatencyMs.toFixed(2).padStart(16)}`,
    );
  }
  console.log("\nconc  session-per-call ms/call  persistent ms/call   ratio  goal >=10x");
  for (const c of CONCURRENCY) {
    const a = rows.find((r) => r.mode === "session-per-call" && r.concurrency === c)!;
    const b = rows.find((r) => r.mode === "persistent" && r.concurrency === c)!;
    const ratio = a.wallMs / a.calls / (b.wallMs / b.calls);
    console.log(
      `${String(c).padStart(4)} ${(a.wallMs / a.calls).toFixed(3).padStart(25)} ${(b.wallMs / b.calls).toFixed(3).padStart(19)} ${ratio.toFixed(1).padStart(6)}x  ${ratio >= 10 ? "met" : "missed"}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
