// CPU seconds of a participant's kernel, step by step, on the real tslab kernel (as the hub starts it):
// the start until the first kernel_info reply, `import ... from "./lib/index"` in the first cell, a trivial
// second cell; and the kernel's RSS after them. CPU-seconds (utime + stime of the kernel process and its
// children) do not depend on the machine's load the way wall times do.
//
// npm run bench -- kernel-cpu      Env: KERNEL_CPU_RUNS=3
import { readFileSync } from "node:fs";
import { executeContent, startTslabKernel, until } from "../test/helpers/tslab-kernel.js";
import { printMarkdownTable } from "./markdown-table.js";
import { cpuSeconds, statusMb } from "./proc.js";

const RUNS = Number(process.env.KERNEL_CPU_RUNS ?? 3);

async function runCell(kernel: Awaited<ReturnType<typeof startTslabKernel>>, code: string): Promise<string> {
  const client = kernel.client();
  const id = await client.request("execute_request", executeContent(code));
  await until(() => client.replies.some((r) => r.parent_header.msg_id === id), 300_000);
  const reply = client.replies.find((r) => r.parent_header.msg_id === id)!;
  return String(reply.content.status);
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  for (let run = 1; run <= RUNS; run++) {
    const kernel = await startTslabKernel({
      cwd: "notebooks",
      env: process.env.KERNEL_NODE_OPTIONS ? { NODE_OPTIONS: process.env.KERNEL_NODE_OPTIONS } : {},
    });
    const pid = kernel.pid;
    const start = cpuSeconds(pid, { children: true });
    const imported = await runCell(kernel, 'import * as kit from "./lib/index";');
    const importCpu = cpuSeconds(pid, { children: true }) - start;
    const before = cpuSeconds(pid, { children: true });
    const trivial = await runCell(kernel, "const x = 1 + 1;\nx");
    const trivialCpu = cpuSeconds(pid, { children: true }) - before;
    rows.push([
      String(run),
      start.toFixed(2),
      `${importCpu.toFixed(2)} (${imported})`,
      `${trivialCpu.toFixed(2)} (${trivial})`,
      String(statusMb(pid, "VmRSS")),
    ]);
    kernel.stop();
  }
  console.log(
    `\ntslab kernel, CPU seconds per step (${RUNS} runs; load ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})\n`,
  );
  printMarkdownTable(
    ["run", "start → kernel_info (CPU-s)", "import ./lib/index (CPU-s)", "trivial cell (CPU-s)", "RSS after (MB)"],
    rows,
  );
}

await main();
