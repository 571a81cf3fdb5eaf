// Sizing the Klassenraum-Hub by measurement: a real llama-server (tiny model) as the class server, the hub
// (`npm run hub`, real JupyterHub), and N participants (default 5) who log in at the same moment in
// Chromium, open Aufgabe 1's solution notebook and run all its cells (set-up against the class server,
// self-checks, chat calls). Reports the hub's start time, login → kernel ready and "Run All" per
// participant (p50/p95), RSS per participant (their Jupyter server + kernel, found by KURS_NAME in the
// process environment) and the class total (hub + proxy + class server + participants).
//
// npm run bench -- hub [--n 5]      (or Env: HUB_BENCH_PARTICIPANTS=5)
// npm run bench -- hub --realistisch [--n 10]: each participant as at the height of the day (bench/hub-day.ts)
import { mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tinyModelPaths } from "../lib/config.js";
import { launchChromium, logIn, openNotebook, startHubProcess, type HubProcess } from "../test/helpers/hub-process.js";
import { llamaServerSkip, startLlamaServer, type LlamaServer } from "../test/helpers/llama-server.js";
import { runCommand } from "../test/helpers/run-script.js";
import { jupyterhubMissing } from "../scripts/apps/hub/start.js";
import { realisticDay } from "./hub-day.js";
import { notebookDay } from "./hub-notebook-day.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportGoal } from "./summary.js";

const N = Number(process.env.HUB_BENCH_PARTICIPANTS ?? 5);
const CODE = "bench-hub-5";
const NOTEBOOK = "loesungen/loesung-1-lokales-llm.ipynb";
const MB = 1024 * 1024;

const ALL_DONE = `!Jupyter.notebook.get_cells().some((c) => c.cell_type === "code" && (c.input_prompt_number === "*" || c.input_prompt_number === null)) &&
  document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`;
const ERRORS = `Jupyter.notebook.get_cells().flatMap((c) => (c.output_area ? c.output_area.outputs : []).filter((o) => o.output_type === "error").map((o) => o.ename + ": " + o.evalue))`;

function rssOf(pid: string): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Proportional set size: shared pages (the Node binary, the mapped model) split among their users. */
function pssOf(pid: string): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function envOf(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
  } catch {
    return [];
  }
}

function cmdOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

/** RSS (or PSS) summed over the processes whose environment holds `entry` (and whose command matches `cmd`, if given). */
function rssWhere(entry: string, cmd?: RegExp, size: (pid: string) => number = rssOf): number {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p) && envOf(p).includes(entry) && (!cmd || cmd.test(cmdOf(p))))
    .reduce((sum, p) => sum + size(p), 0);
}

function pct(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
}

const fmtS = (ms: number) => `${(ms / 1000).toFixed(1).replace(".", ",")} s`;
const fmtMb = (b: number) => `${Math.round(b / MB)} MB`;

async function main(): Promise<void> {
  if (process.env.HUB_BENCH_DAY === "1") {
    if (jupyterhubMissing())
      reportGoal({ metric: "hub --tageslauf", goal: "runs", measured: "skipped: no JupyterHub", met: undefined });
    else await notebookDay();
    return;
  }
  if (process.env.HUB_BENCH_REALISTIC === "1") {
    if (jupyterhubMissing())
      reportGoal({ metric: "hub --realistisch", goal: "runs", measured: "skipped: no JupyterHub", met: undefined });
    else await realisticDay(N);
    return;
  }
  const skip = llamaServerSkip() || (jupyterhubMissing() ? "no JupyterHub" : false);
  if (skip) {
    reportGoal({ metric: "Klassenraum-Hub sizing", goal: "runs", measured: `skipped: ${skip}`, met: undefined });
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "hub-bench-"));
  chmodSync(dir, 0o755);
  const root = join(dir, "hub");
  let llm: LlamaServer | undefined;
  let hub: HubProcess | undefined;
  const browser = await launchChromium();
  try {
    llm = await startLlamaServer({ model: tinyModelPaths().gguf, parallel: 4, ctx: 4 * 8192, threads: 1, jinja: true });
    await runCommand("hub", ["--loesungen-freigeben", "--root", root]);
    const t0 = performance.now();
    hub = await startHubProcess(["--root", root, "--code", CODE, "--llm-url", llm.baseUrl, "--max", String(N)]);
    const hubStartMs = performance.now() - t0;
    const names = Array.from({ length: N }, (_, i) => `Bench ${i + 1}`);
    const runs = await Promise.all(
      names.map(async (name, i) => {
        const page = await (await browser.newContext()).newPage();
        const start = performance.now();
        const error = await logIn(page, hub!.url, name, CODE);
        if (error) throw new Error(`${name}: ${error}`);
        await openNotebook(page, new URL(`/user/kurs-bench-${i + 1}`, hub!.url).href, NOTEBOOK, 5 * 60_000);
        const readyMs = performance.now() - start;
        const runStart = performance.now();
        await page.evaluate("Jupyter.notebook.execute_all_cells()");
        await page.waitForTimeout(500);
        await page.waitForFunction(ALL_DONE, undefined, { timeout: 10 * 60_000, polling: 250 });
        const runAllMs = performance.now() - runStart;
        const errors = (await page.evaluate(ERRORS)) as string[];
        return { name, readyMs, runAllMs, errors, page };
      }),
    );
    // Memory with every participant's kernel still open (Run All ends with kit.close(), the kernel stays).
    const perPerson = names.map((name) => ({
      name,
      server: rssWhere(`KURS_NAME=${name}`, /jupyterhub-singleuser/),
      kernel: rssWhere(`KURS_NAME=${name}`, /tslab/),
      // everything the participant runs (server, kernels, MCP servers), shared pages split
      pss: rssWhere(`KURS_NAME=${name}`, undefined, pssOf),
    }));
    const hubId = (
      JSON.parse(readFileSync(join(root, ".hub", "settings.json"), "utf8")) as { kernelEnv: { KURS_HUB_ID: string } }
    ).kernelEnv.KURS_HUB_ID;
    const hubRss = rssWhere(`KURS_HUB_ID=${hubId}`, /jupyterhub -f|configurable-http-proxy/);
    const llmPid = readdirSync("/proc").find(
      (p) =>
        /^\d+$/.test(p) &&
        cmdOf(p).includes(`--port ${new URL(llm!.origin).port}`) &&
        cmdOf(p).includes("llama-server"),
    );
    const llmRss = llmPid ? rssOf(llmPid) : 0;
    const participantRss = perPerson.map((p) => p.server + p.kernel);
    const total = hubRss + llmRss + participantRss.reduce((a, b) => a + b, 0);

    const ready = runs.map((r) => r.readyMs);
    const runAll = runs.map((r) => r.runAllMs);
    console.log(
      `\nKlassenraum-Hub, ${N} participants logging in at once (Chromium), ${NOTEBOOK} run in each against llama-server (tiny model, --parallel 4, -t 1)\n`,
    );
    printMarkdownTable(
      ["Measure", "Value"],
      [
        ["hub start (npm run hub → login page answers)", fmtS(hubStartMs)],
        [
          "login → kernel ready, p50 / p95 / max",
          `${fmtS(pct(ready, 0.5))} / ${fmtS(pct(ready, 0.95))} / ${fmtS(Math.max(...ready))}`,
        ],
        ["Run All of Aufgabe 1 (solution), p50 / p95", `${fmtS(pct(runAll, 0.5))} / ${fmtS(pct(runAll, 0.95))}`],
        [
          "RSS per participant (Jupyter server + kernel), p50 / max",
          `${fmtMb(pct(participantRss, 0.5))} / ${fmtMb(Math.max(...participantRss))}`,
        ],
        [
          "PSS per participant (all their processes), p50 / max",
          `${fmtMb(
            pct(
              perPerson.map((p) => p.pss),
              0.5,
            ),
          )} / ${fmtMb(Math.max(...perPerson.map((p) => p.pss)))}`,
        ],
        [
          "  of it Jupyter server / kernel (p50)",
          `${fmtMb(
            pct(
              perPerson.map((p) => p.server),
              0.5,
            ),
          )} / ${fmtMb(
            pct(
              perPerson.map((p) => p.kernel),
              0.5,
            ),
          )}`,
        ],
        ["hub + proxy RSS", fmtMb(hubRss)],
        ["class server RSS (tiny model)", fmtMb(llmRss)],
        [`class total (${N} participants)`, fmtMb(total)],
        ["cell errors", String(runs.reduce((n, r) => n + r.errors.length, 0))],
      ],
    );
    for (const r of runs) if (r.errors.length) console.log(`${r.name}: ${r.errors.join(" | ")}`);
    reportGoal({
      metric: `hub: ${N} participants, login → kernel ready p95`,
      goal: "≤ 60 s",
      measured: fmtS(pct(ready, 0.95)),
      met: pct(ready, 0.95) <= 60_000,
    });
    reportGoal({
      metric: `hub: ${N} participants, cell errors in Aufgabe 1`,
      goal: "0",
      measured: String(runs.reduce((n, r) => n + r.errors.length, 0)),
      met: runs.every((r) => r.errors.length === 0),
    });
    reportGoal({
      metric: "hub: RSS per participant (server + kernel)",
      goal: "measured",
      measured: fmtMb(pct(participantRss, 0.5)),
      met: undefined,
    });
  } finally {
    await browser.close();
    await hub?.stop();
    await llm?.close();
    if (process.getuid?.() === 0) await runCommand("hub", ["--aufraeumen", "--root", root]);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
