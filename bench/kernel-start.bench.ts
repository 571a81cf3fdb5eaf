// A participant's kernel start, paired: the plain tslab start against the start from the V8 startup snapshot
// (scripts/apps/workshop/kernel-snapshot/), alternating which goes first. Per run: CPU-seconds of the kernel
// process from its start to the first cell's result (`const x: number = 1; x`), RSS and PSS after it, and
// after `import * as kit from "./lib/index"`. CPU-seconds (utime + stime) hardly depend on the machine's load.
//
// npm run bench -- kernel-start      Env: KERNEL_START_RUNS=5
import { readFileSync } from "node:fs";
import { findProjectRoot } from "../lib/config.js";
import { ensureKernelSnapshot } from "../scripts/apps/workshop/kernel-snapshot/kernel-snapshot.js";
import { executeContent, startTslabKernel, until, type TslabKernel } from "../test/helpers/tslab-kernel.js";
import { printMarkdownTable } from "./markdown-table.js";
import { cpuSeconds } from "./proc.js";
import { reportNumericGoal } from "./summary.js";

const RUNS = Number(process.env.KERNEL_START_RUNS ?? 5);
/** RSS and PSS in MB (smaps_rollup). */
function memoryMb(pid: number): { rss: number; pss: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
  return { rss: Math.round(kb("Rss") / 1024), pss: Math.round(kb("Pss") / 1024) };
}

async function runCell(kernel: TslabKernel, code: string): Promise<string> {
  const client = kernel.client();
  const id = await client.request("execute_request", executeContent(code));
  await until(() => client.replies.some((r) => r.parent_header.msg_id === id), 300_000);
  return String(client.replies.find((r) => r.parent_header.msg_id === id)!.content.status);
}

interface Sample {
  cpu: number;
  /** CPU-seconds from the start to the end of the `./lib/index` import cell (what a notebook's set-up pays). */
  cpuWithLib: number;
  first: { rss: number; pss: number };
  lib: { rss: number; pss: number };
}

async function sample(snapshot: boolean): Promise<Sample> {
  const kernel = await startTslabKernel({ cwd: "notebooks", env: { KIT_KERNEL_SNAPSHOT: snapshot ? "1" : "0" } });
  try {
    const status = await runCell(kernel, "const x: number = 1;\nx");
    const cpu = cpuSeconds(kernel.pid, { children: true });
    if (status !== "ok") throw new Error(`first cell: ${status}\n${kernel.log()}`);
    const first = memoryMb(kernel.pid);
    const imported = await runCell(kernel, 'import * as kit from "./lib/index";');
    if (imported !== "ok") throw new Error(`import ./lib/index: ${imported}\n${kernel.log()}`);
    return { cpu, cpuWithLib: cpuSeconds(kernel.pid, { children: true }), first, lib: memoryMb(kernel.pid) };
  } finally {
    kernel.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const built = await ensureKernelSnapshot(findProjectRoot());
  console.log(`snapshot: ${built.detail}`);
  const plain: Sample[] = [];
  const fast: Sample[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternate the order, so a change of the machine's load hits both sides alike.
    if (run % 2 === 0) {
      plain.push(await sample(false));
      fast.push(await sample(true));
    } else {
      fast.push(await sample(true));
      plain.push(await sample(false));
    }
  }
  const row = (name: string, s: Sample[]) => [
    name,
    median(s.map((x) => x.cpu)).toFixed(2),
    s.map((x) => x.cpu.toFixed(2)).join(" "),
    median(s.map((x) => x.cpuWithLib)).toFixed(2),
    `${median(s.map((x) => x.first.rss))} / ${median(s.map((x) => x.first.pss))}`,
    `${median(s.map((x) => x.lib.rss))} / ${median(s.map((x) => x.lib.pss))}`,
  ];
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`\ntslab kernel start → first cell result, ${RUNS} paired runs (load ${load})\n`);
  printMarkdownTable(
    [
      "start",
      "CPU-s (median)",
      "CPU-s (each run)",
      "CPU-s to ./lib/index imported (median)",
      "RSS / PSS after 1st cell (MB)",
      "RSS / PSS after ./lib/index (MB)",
    ],
    [row("plain tslab", plain), row("V8 snapshot", fast)],
  );
  const before = median(plain.map((x) => x.cpu));
  const after = median(fast.map((x) => x.cpu));
  reportNumericGoal("kernel start → first cell, CPU-s snapshot / plain", after / before, 0.5, {
    detail: `${after.toFixed(2)} vs ${before.toFixed(2)} CPU-s`,
  });
}

await main();
