// A travel or math server's start, as a notebook pays it: CPU seconds and RSS of the server process until it
// logs "bereit", from its prebuilt bundle (what notebooks run) and from its sources through tsx (the fallback),
// paired run by run so both see the same load.
//
// npm run bench -- mcp-start      Env: MCP_START_RUNS=5
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { findProjectRoot } from "../lib/config.js";
import { freshServerBundle } from "../lib/mcp/server-bundle.js";
import { SERVER_V8_FLAGS } from "../lib/mcp/server-command.js";
import { ensureMcpBundles } from "../scripts/dev/build-mcp-bundles.js";
import { printMarkdownTable } from "./markdown-table.js";
import { cpuSeconds, statusMb } from "./proc.js";
import { reportNumericGoal } from "./summary.js";

const RUNS = Number(process.env.MCP_START_RUNS ?? 5);
const ROOT = findProjectRoot();
const TSX = pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("tsx")).href;

/** Starts `args` with the server flags, measures it once it is ready, stops it. */
function startOnce(args: string[]): Promise<{ cpu: number; rssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVER_V8_FLAGS, ...args, "--port", "0"], {
      cwd: ROOT,
      env: { ...process.env, TRAVEL_OFFLINE: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk;
      if (!/bereit/.test(log) || child.exitCode !== null) return;
      const measured = { cpu: cpuSeconds(child.pid!), rssMb: statusMb(child.pid!, "VmRSS") };
      child.kill();
      resolve(measured);
    });
    child.once("exit", (code) => {
      if (!/bereit/.test(log)) reject(new Error(`server exited with ${code} before it was ready:\n${log}`));
    });
  });
}

async function main(): Promise<void> {
  console.log(ensureMcpBundles(ROOT));
  const rows: string[][] = [];
  const ratios: number[] = [];
  for (const folder of ["mcp-server-travel", "mcp-server-math"]) {
    const bundle = freshServerBundle(ROOT, folder)!;
    const sources = ["--import", TSX, join(folder, "src", "main.ts")];
    for (let run = 1; run <= RUNS; run++) {
      const fromSources = await startOnce(sources);
      const fromBundle = await startOnce([bundle]);
      ratios.push(fromBundle.cpu / fromSources.cpu);
      rows.push([
        folder,
        String(run),
        fromSources.cpu.toFixed(2),
        fromBundle.cpu.toFixed(2),
        String(fromSources.rssMb),
        String(fromBundle.rssMb),
      ]);
    }
  }
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`\nMCP server start until "bereit" (${RUNS} paired runs each; load ${load})\n`);
  printMarkdownTable(["server", "run", "tsx CPU-s", "bundle CPU-s", "tsx RSS MB", "bundle RSS MB"], rows);
  const median = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
  reportNumericGoal("MCP server start from the bundle, CPU-s relative to tsx (median)", median, 0.6, { digits: 2 });
}

await main();
