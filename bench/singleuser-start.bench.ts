// A participant's Jupyter server (Notebook 6, as the hub starts it), from its start until it has served the
// kernel list, one notebook page and the notebook's contents: CPU seconds and peak RSS, with the hub's settings
// (scripts/apps/hub/singleuser/sitecustomize.py on PYTHONPATH, SETUPTOOLS_USE_DISTUTILS=stdlib) and without,
// paired run by run so both see the same load. Started as `jupyterhub-singleuser` would need a running hub, so
// this starts `jupyter-notebook` under that name (the sitecustomize goes by the program's name).
//
// npm run bench -- singleuser-start      Env: SINGLEUSER_START_RUNS=5
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectRoot } from "../lib/config.js";
import { delay } from "../lib/util.js";
import { freePort } from "../scripts/node/free-port.js";
import { printMarkdownTable } from "./markdown-table.js";
import { cpuSeconds, statusMb } from "./proc.js";
import { reportNumericGoal } from "./summary.js";

const RUNS = Number(process.env.SINGLEUSER_START_RUNS ?? 5);
const ROOT = findProjectRoot();
const NOTEBOOK = "11-aufgabe-1-lokales-llm.ipynb";

interface Usage {
  cpu: number;
  peakMb: number;
}

async function get(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5000) })).status;
  } catch {
    return 0;
  }
}

async function serveOnce(dir: string, program: string, withKit: boolean): Promise<Usage> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, JUPYTER_PATH: join(ROOT, ".jupyter-prefix", "share", "jupyter") };
  delete env.PYTHONPATH;
  if (withKit) {
    env.PYTHONPATH = join(ROOT, "scripts", "apps", "hub", "singleuser");
    env.SETUPTOOLS_USE_DISTUTILS = "stdlib";
  }
  const args = ["-W", "ignore", program, "--no-browser", `--port=${port}`, "--NotebookApp.token=t", "--allow-root"];
  const server = spawn("/usr/bin/python3", args, { cwd: dir, env, stdio: "ignore" });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; (await get(`${base}/api?token=t`)) !== 200; i++) {
      if (i > 300 || server.exitCode !== null) throw new Error(`the Notebook server did not start (${program})`);
      await delay(100);
    }
    for (const path of ["/api/kernelspecs", `/notebooks/${NOTEBOOK}`, `/api/contents/${NOTEBOOK}`]) {
      const status = await get(`${base}${path}?token=t`);
      if (status !== 200) throw new Error(`${path}: HTTP ${status}`);
    }
    return { cpu: cpuSeconds(server.pid!), peakMb: statusMb(server.pid!, "VmHWM") };
  } finally {
    server.kill();
  }
}

async function main(): Promise<void> {
  if (spawnSync("/usr/bin/python3", ["-c", "import notebook"]).status !== 0) {
    console.log("singleuser-start: skipped, no Notebook 6 for /usr/bin/python3 (Debian: apt install jupyterhub)");
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "kit-singleuser-"));
  try {
    copyFileSync(join(ROOT, "notebooks", NOTEBOOK), join(dir, NOTEBOOK));
    const program = join(dir, "jupyterhub-singleuser");
    symlinkSync(spawnSync("sh", ["-c", "command -v jupyter-notebook"], { encoding: "utf8" }).stdout.trim(), program);
    const rows: string[][] = [];
    const ratios: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const plain = await serveOnce(dir, program, false);
      const kit = await serveOnce(dir, program, true);
      ratios.push(kit.cpu / plain.cpu);
      rows.push([String(run), plain.cpu.toFixed(2), kit.cpu.toFixed(2), String(plain.peakMb), String(kit.peakMb)]);
    }
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    console.log(
      `\nJupyter server: start, kernel list, one notebook page and its contents (${RUNS} paired runs; load ${load})\n`,
    );
    printMarkdownTable(["run", "plain CPU-s", "hub settings CPU-s", "plain peak MB", "hub settings peak MB"], rows);
    const median = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!;
    reportNumericGoal("Jupyter server start with the hub's settings, CPU-s relative to plain (median)", median, 0.8, {
      digits: 2,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
