// `npm run bench -- hub --realistisch [--n 10]`: the Klassenraum-Hub with what each participant really holds
// at the height of the day, measured instead of assumed. N participants log in at the same moment (Chromium);
// each opens their first notebook, imports lib and starts the MCP travel server in its kernel; every second
// one also opens Teil 3 and does the same in a second kernel (Teil N and Aufgabe N open). Then memory (PSS
// over all of a participant's processes: Jupyter server, kernels, MCP servers; RSS beside it) and CPU-seconds
// (utime + stime of those processes and their waited-for children, from /proc) per participant, set against
// the figures `npm run klassenraum` and `doctor --klassenraum` plan with (scripts/apps/klassenraum/class-sizing.ts).
// No model is loaded (the class server's memory is planned from the model file): no llama-server needed.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { HUB_BYTES, PARTICIPANT_DAY_MAX_BYTES } from "../scripts/apps/klassenraum/class-sizing.js";
import { FIRST_NOTEBOOK } from "../scripts/apps/workshop/notebook-ui.js";
import { launchChromium, logIn, openNotebook, runCell, startHubProcess } from "../test/helpers/hub-process.js";
import { runCommand } from "../test/helpers/run-script.js";
import { processesWhere } from "../scripts/node/processes.js";
import { delay } from "../lib/util.js";
import { printMarkdownTable } from "./markdown-table.js";
import { cpuSeconds } from "./proc.js";
import { reportGoal, reportNumericGoal } from "./summary.js";

const MB = 1024 * 1024;
const TICKS_PER_SECOND = 100; // Linux USER_HZ
const SECOND_NOTEBOOK = "30-teil-3-mcp-werkzeuge.ipynb";
const KERNEL_WORK =
  'import * as kit from "./lib/index";\nconst reise = await kit.startTravelServer();\nconsole.log("Reise-Server", reise.pid);';

const read = (path: string) => {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return "";
  }
};
const kb = (text: string, field: RegExp) => Number(field.exec(text)?.[1] ?? 0) * 1024;

interface Usage {
  pss: number;
  rss: number;
  cpuSeconds: number;
  processes: number;
  kernels: number;
  /** PSS and CPU-seconds per kind of process (where a participant's start goes). */
  byKind: Record<ProcessKind, { pss: number; cpuSeconds: number }>;
}

const KINDS = ["Jupyter server", "tslab kernels", "MCP servers", "other"] as const;
type ProcessKind = (typeof KINDS)[number];

function kindOf(cmd: string): ProcessKind {
  if (/jupyterhub-singleuser|notebook/.test(cmd) && /python/.test(cmd)) return "Jupyter server";
  if (/mcp-server-(travel|math)/.test(cmd)) return "MCP servers";
  if (/tslab|kernel-[\w-]+\.json/.test(cmd)) return "tslab kernels";
  return "other";
}

/** What the processes whose environment holds `entry` use now (the hub gives each participant KURS_NAME). */
export function usageOf(entry: string, command?: RegExp): Usage {
  const latin1Entry = Buffer.from(entry).toString("latin1"); // /proc is read as latin1: "ä" is two characters there
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { pss: 0, cpuSeconds: 0 }])) as Usage["byKind"];
  const usage: Usage = { pss: 0, rss: 0, cpuSeconds: 0, processes: 0, kernels: 0, byKind };
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    if (!read(`/proc/${pid}/environ`).split("\0").includes(latin1Entry)) continue;
    const cmd = read(`/proc/${pid}/cmdline`).replace(/\0/g, " ");
    if (command && !command.test(cmd)) continue;
    const stat = read(`/proc/${pid}/stat`).split(") ")[1]?.split(" ") ?? [];
    // fields 14–17 of stat (utime, stime, cutime, cstime) are 12–15 after "pid (comm) "
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(stat[i] ?? 0), 0);
    const pss = kb(read(`/proc/${pid}/smaps_rollup`), /^Pss:\s+(\d+) kB/m);
    usage.pss += pss;
    usage.rss += kb(read(`/proc/${pid}/status`), /VmRSS:\s+(\d+) kB/);
    usage.cpuSeconds += ticks / TICKS_PER_SECOND;
    byKind[kindOf(cmd)].pss += pss;
    byKind[kindOf(cmd)].cpuSeconds += ticks / TICKS_PER_SECOND;
    usage.processes += 1;
    if (/kernel-[\w-]+\.json/.test(cmd)) usage.kernels += 1; // the server names the kit kernel in its options, too
  }
  return usage;
}

/** CPU-seconds this machine has spent busy (all processes, all cores) since boot, from /proc/stat. */
function machineBusySeconds(): number {
  const fields = read("/proc/stat").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0); // idle + iowait
  return (fields.reduce((a, b) => a + b, 0) - idle) / TICKS_PER_SECOND;
}

const pct = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(q * values.length) - 1)]!;
const fmtMb = (b: number) => `${Math.round(b / MB)} MB`;
const fmtS = (s: number) => `${s.toFixed(1).replace(".", ",")} s`;

/** Seconds the room sits idle before memory is measured again (HUB_BENCH_IDLE_S). */
const IDLE_SECONDS = Number(process.env.HUB_BENCH_IDLE_S ?? 60);

/** The Linux kernel's KSM thread, when KSM is switched on (the hub does that; scripts/apps/hub/ksm.ts). */
function ksmdPid(): number | undefined {
  if (read("/sys/kernel/mm/ksm/run").trim() !== "1") return undefined;
  return processesWhere((pid) => read(`/proc/${pid}/comm`).trim() === "ksmd")[0];
}

async function kernelWithTravelServer(page: Page, userUrl: string, notebook: string): Promise<void> {
  await openNotebook(page, userUrl, notebook, 10 * 60_000);
  const printed = await runCell(page, KERNEL_WORK, 10 * 60_000);
  if (!/Reise-Server \d+/.test(printed)) throw new Error(`${notebook}: ${printed.slice(0, 300)}`);
}

export async function realisticDay(n: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hub-day-"));
  chmodSync(dir, 0o755);
  const root = join(dir, "hub");
  const code = "bench-tag-5";
  const browser = await launchChromium();
  const hub = await startHubProcess(["--root", root, "--code", code, "--max", String(n)], { TRAVEL_OFFLINE: "1" });
  try {
    const names = Array.from({ length: n }, (_, i) => `Bench Tag ${i + 1}`);
    const busyBefore = machineBusySeconds();
    const runs = await Promise.all(
      names.map(async (name, i) => {
        const context = await browser.newContext({ locale: "de-DE" });
        const page = await context.newPage();
        const start = performance.now();
        const error = await logIn(page, hub.url, name, code);
        if (error) throw new Error(`${name}: ${error}`);
        await page.waitForURL(/\/user\/[^/]+\/notebooks\//, { timeout: 10 * 60_000 });
        const userUrl = page.url().replace(/\/notebooks\/.*$/, "");
        await kernelWithTravelServer(page, userUrl, FIRST_NOTEBOOK);
        const firstResult = (performance.now() - start) / 1000;
        if (i % 2 === 1) await kernelWithTravelServer(await context.newPage(), userUrl, SECOND_NOTEBOOK);
        return { name, firstResult };
      }),
    );
    const busy = machineBusySeconds() - busyBefore;
    const people = names.map((name) => ({ name, ...usageOf(`KURS_NAME=${name}`) }));
    const hubId = (
      JSON.parse(readFileSync(join(root, ".hub", "settings.json"), "utf8")) as { kernelEnv: { KURS_HUB_ID: string } }
    ).kernelEnv.KURS_HUB_ID;
    const hubUsage = usageOf(`KURS_HUB_ID=${hubId}`, /jupyterhub -f|configurable-http-proxy/);
    const one = people.filter((p) => p.kernels === 1);
    const two = people.filter((p) => p.kernels === 2);
    const row = (label: string, group: Usage[]): string[] =>
      group.length === 0
        ? [label, "–", "–", "–"]
        : [
            `${label} (${group.length})`,
            `${fmtMb(
              pct(
                group.map((p) => p.pss),
                0.5,
              ),
            )} / ${fmtMb(Math.max(...group.map((p) => p.pss)))}`,
            `${fmtMb(
              pct(
                group.map((p) => p.rss),
                0.5,
              ),
            )} / ${fmtMb(Math.max(...group.map((p) => p.rss)))}`,
            `${fmtS(
              pct(
                group.map((p) => p.cpuSeconds),
                0.5,
              ),
            )} / ${fmtS(Math.max(...group.map((p) => p.cpuSeconds)))}`,
          ];
    const ready = runs.map((r) => r.firstResult);
    console.log(
      `\nKlassenraum-Hub, ${n} participants at once: each a kernel with lib and the travel server, every second one two\n`,
    );
    printMarkdownTable(
      ["participants", "PSS p50 / max", "RSS p50 / max", "CPU-s p50 / max"],
      [row("one kernel + travel server", one), row("two kernels + two travel servers", two)],
    );
    // The issue's own measure: memory once the room sits idle for a minute (also the time KSM needs to merge).
    const ksmd = ksmdPid();
    const ksmdBefore = ksmd ? cpuSeconds(ksmd) : 0;
    await delay(IDLE_SECONDS * 1000);
    const idle = names.map((name) => usageOf(`KURS_NAME=${name}`)).filter((p) => p.kernels === 2);
    console.log(
      `\n${IDLE_SECONDS} s later, idle: two kernels + two travel servers PSS p50 / max ${fmtMb(
        pct(
          idle.map((p) => p.pss),
          0.5,
        ),
      )} / ${fmtMb(Math.max(...idle.map((p) => p.pss)))}; KSM ${ksmd ? `on, ksmd ${fmtS(cpuSeconds(ksmd) - ksmdBefore)} CPU meanwhile` : "off"}`,
    );
    console.log("\nWhere it goes: per process kind, median over the participants with two kernels (else all)\n");
    const basis = two.length > 0 ? two : people;
    printMarkdownTable(
      ["process kind", "PSS p50", "CPU-s p50"],
      KINDS.map((kind) => [
        kind,
        fmtMb(
          pct(
            basis.map((p) => p.byKind[kind].pss),
            0.5,
          ),
        ),
        fmtS(
          pct(
            basis.map((p) => p.byKind[kind].cpuSeconds),
            0.5,
          ),
        ),
      ]),
    );
    console.log("");
    printMarkdownTable(
      ["Measure", "Value"],
      [
        [
          "login → first result (lib + travel server), p50 / p95 / max",
          `${fmtS(pct(ready, 0.5))} / ${fmtS(pct(ready, 0.95))} / ${fmtS(Math.max(...ready))}`,
        ],
        [
          `CPU bound: all work on this machine meanwhile / ${cpus().length} cores (participants, hub, Chromium)`,
          `${fmtS(busy / cpus().length)} (${fmtS(busy)} CPU)`,
        ],
        [
          "all participants: PSS / CPU-s",
          `${fmtMb(people.reduce((s, p) => s + p.pss, 0))} / ${fmtS(people.reduce((s, p) => s + p.cpuSeconds, 0))}`,
        ],
        ["hub + proxy: RSS / CPU-s", `${fmtMb(hubUsage.rss)} / ${fmtS(hubUsage.cpuSeconds)}`],
        [
          "planned (class-sizing.ts): participant's day max / hub",
          `${fmtMb(PARTICIPANT_DAY_MAX_BYTES)} / ${fmtMb(HUB_BYTES)}`,
        ],
      ],
    );
    // Nobody waits much longer than the machine needs for everyone's work: a serial step or a lost message
    // (a 60 s stall) would show as a p95 far above the CPU bound.
    const bound = busy / cpus().length;
    reportNumericGoal(
      `hub --realistisch, ${n} participants: login → first result p95 / CPU bound`,
      pct(ready, 0.95) / bound,
      1.5,
      {
        detail: `p95 ${fmtS(pct(ready, 0.95))}, bound ${fmtS(bound)}`,
      },
    );
    const worst = Math.max(...people.map((p) => p.pss));
    reportGoal({
      metric: `hub --realistisch, ${n} participants: PSS of the heaviest participant`,
      goal: `≤ planned ${fmtMb(PARTICIPANT_DAY_MAX_BYTES)}`,
      measured: fmtMb(worst),
      met: worst <= PARTICIPANT_DAY_MAX_BYTES,
    });
  } catch (error) {
    // The hub's log holds JupyterHub's, the participants' servers' and their kernels' output.
    console.error(`hub log (end):\n${hub.output().slice(-6000)}`);
    throw error;
  } finally {
    await browser.close();
    await hub.stop();
    if (process.getuid?.() === 0) await runCommand("hub", ["--aufraeumen", "--root", root]);
    rmSync(dir, { recursive: true, force: true });
  }
}
