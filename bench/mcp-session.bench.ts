// How much cheaper is one persistent MCP session than a new session per call (the anchor's pattern)?
// Same travel server (offline mode, subprocess), same tool call, concurrency 1/8/32.
// And how close does a persistent-session call come to the HTTP floor: a bare JSON POST round trip
// (fetch, like the MCP client) to a minimal Node server in its own process, measured interleaved with
// the MCP call in the same run (goal ≤ 1.5×).
// The same call through a minimal SDK server (bench/minimal-mcp-server.ts) shows the MCP SDK's own floor.
// Run: npx tsx bench/mcp-session.bench.ts [--calls N]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTravelServer, McpToolClient } from "../lib/mcp/index.js";
import { reportGoal } from "./summary.js";

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
async function run(
  calls: number,
  concurrency: number,
  one: () => Promise<void>,
): Promise<{ wallMs: number; meanLatencyMs: number }> {
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

/** A minimal Node HTTP server in a child process: reads the JSON body, answers a small JSON-RPC result. */
const BARE_SERVER = `
const http = require("node:http");
const srv = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString());
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { lat: 41.39, lon: 2.17, name: "Barcelona" } }));
  });
});
srv.listen(0, "127.0.0.1", () => console.log(srv.address().port));
`;

/** Median per-call latency of each function, called in turn every round (same machine state for all). */
async function interleaved(rounds: number, fns: (() => Promise<void>)[]): Promise<number[]> {
  const times = fns.map(() => [] as number[]);
  for (let i = 0; i < rounds; i++) {
    for (const [k, fn] of fns.entries()) {
      const t = performance.now();
      await fn();
      times[k]!.push(performance.now() - t);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1] ?? Number.NaN;
  return times.map(median);
}

/** Starts a child process that prints its port on stdout; returns the port and the child. */
async function startChild(args: string[]) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  return { child, port: Number(chunk.toString().trim()) };
}

async function bareHttpVsMcp(persistentCall: () => Promise<void>): Promise<void> {
  const bareServer = await startChild(["-e", BARE_SERVER]);
  // The SDK's floor: the same tool call through a minimal SDK server (bench/minimal-mcp-server.ts).
  const minimalServer = await startChild(["--import", "tsx", "bench/minimal-mcp-server.ts"]);
  const minimal = await McpToolClient.connect(`http://127.0.0.1:${minimalServer.port}/mcp`);
  try {
    const url = `http://127.0.0.1:${bareServer.port}/`;
    let id = 0;
    const bare = async () => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: TOOL });
      const r = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body,
      });
      await r.json();
    };
    const minimalCall = async () => {
      if ((await minimal.callTool(TOOL.name, TOOL.arguments)).isError) throw new Error("tool failed");
    };
    const rounds = Math.max(200, CALLS);
    await interleaved(100, [bare, minimalCall, persistentCall]); // warm-up
    const [bareMs, minimalMs, mcpMs] = (await interleaved(rounds, [bare, minimalCall, persistentCall])) as [
      number,
      number,
      number,
    ];
    const ratio = mcpMs / bareMs;
    console.log(
      `\nPersistent MCP call vs bare HTTP POST (fetch to a minimal Node server process), interleaved, median of ${rounds}:`,
    );
    console.log(
      `  bare HTTP POST ${bareMs.toFixed(3)} ms · MCP geocode ${mcpMs.toFixed(3)} ms · ratio ${ratio.toFixed(2)}×`,
    );
    console.log(
      `  SDK floor: the same call to a minimal SDK server (plain node:http, one trivial tool) ${minimalMs.toFixed(3)} ms · ${(minimalMs / bareMs).toFixed(2)}× the bare POST`,
    );
    reportGoal({
      metric: "MCP geocode call (persistent session) vs bare HTTP POST",
      goal: "≤ 1.5×",
      measured: `${ratio.toFixed(2)}× (${mcpMs.toFixed(2)} vs ${bareMs.toFixed(2)} ms; minimal SDK server ${(minimalMs / bareMs).toFixed(2)}×)`,
      met: ratio <= 1.5,
    });
  } finally {
    await minimal.close();
    bareServer.child.kill();
    minimalServer.child.kill();
  }
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
    const persistent = await McpToolClient.connect(server.url);
    const persistentCall = async () => {
      const r = await persistent.callTool(TOOL.name, TOOL.arguments);
      if (r.isError) throw new Error("tool failed");
    };

    await run(20, 4, sessionPerCall); // warm-up (JIT, sockets)
    await run(50, 4, persistentCall);
    await bareHttpVsMcp(persistentCall);
    for (const c of CONCURRENCY) {
      const perCallCalls = Math.max(c * 2, Math.floor(CALLS / 4));
      rows.push({
        mode: "session-per-call",
        concurrency: c,
        calls: perCallCalls,
        ...(await run(perCallCalls, c, sessionPerCall)),
      });
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
    if (c === 1)
      reportGoal({
        metric: "persistent MCP session vs session per call (conc. 1)",
        goal: "≥ 10× cheaper",
        measured: `${ratio.toFixed(1)}×`,
        met: ratio >= 10,
      });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
