// The clean-up cell ends its kernel (issue 46: a participant who had finished a notebook kept its ~185 MB
// kernel and its MCP servers running all day). A real Notebook 6 server started the participant's way
// (`npm run workshop -- --uebung`, German), real Chromium, Aufgabe 3 (its set-up cell starts the travel and
// the math server): as the end of a queued run ("Run All") the cell keeps the kernel and says how to end it;
// run on its own it ends the kernel with all its processes, the cell says so in German, Jupyter shows its
// German dead-kernel dialog, and Kernel → Neu starten from the menu brings a working kernel back.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { KERNEL_ENDS, KERNEL_STAYS_AFTER_RUN_ALL } from "../../lib/notebook/index.js";
import { practiceEnvironment } from "../../scripts/apps/models/model-help.js";
import { browserCheckMissing } from "../../scripts/dev/browser-check.js";
import { ensureNotebookLib } from "../../scripts/dev/build-notebook-lib.js";
import { spawnNotebookServer } from "../../scripts/dev/notebook-server.js";
import { processesWhere } from "../../scripts/node/processes.js";
import { until } from "../helpers/tslab-kernel.js";
import { launchChromium } from "../helpers/hub-process.js";

const root = findProjectRoot();
const NOTEBOOK = "31-aufgabe-3-mcp-werkzeuge.ipynb";
const missing = browserCheckMissing() ?? false;

const IN_PAGE = {
  kernelReady: `Boolean(window.Jupyter?.notebook?.kernel?.is_connected()) &&
    document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`,
  allDone: `!Jupyter.notebook.get_cells().some((c) => c.cell_type === "code" && c.input_prompt_number === "*") &&
    document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`,
  // The kit wraps long lines to the cell's width: compared with single spaces.
  lastOutput: `Jupyter.notebook.get_cells().at(-1).output_area.outputs.map((o) => o.text ?? "").join("").replace(/\\s+/g, " ")`,
};

/** The kernel's process and everything below it. */
function processTree(kernelId: string): number[] {
  const [kernel] = processesWhere((pid) =>
    readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(`kernel-${kernelId}.json`),
  );
  if (kernel === undefined) return [];
  const parentOf = (pid: string) => Number(readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]?.split(" ")[1]);
  const tree = [kernel];
  for (let grew = true; grew;) {
    const next = processesWhere((pid) => tree.includes(parentOf(pid)) && !tree.includes(Number(pid)));
    tree.push(...next);
    grew = next.length > 0;
  }
  return tree;
}

test(
  "the clean-up cell keeps the kernel after Run All and ends it, with its servers, when run on its own",
  { skip: missing, timeout: 600_000 },
  async () => {
    ensureNotebookLib();
    const server = await spawnNotebookServer(join(root, "notebooks"), await practiceEnvironment(), {
      viaWorkshop: true,
    });
    const browser = await launchChromium();
    try {
      await server.ready(90_000);
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, locale: "de-DE" });
      await page.goto(`${server.base}/notebooks/${NOTEBOOK}?token=${server.token}`);
      await page.waitForFunction(IN_PAGE.kernelReady, undefined, { timeout: 120_000, polling: 300 });
      await page.evaluate("Jupyter.notebook.set_autosave_interval(0)");
      const kernelId = (await page.evaluate("Jupyter.notebook.kernel.id")) as string;

      // The set-up cell and, queued behind it as in "Run All", the clean-up cell.
      await page.evaluate(`(() => {
      const cells = Jupyter.notebook.get_cells();
      Jupyter.notebook.execute_cells([cells.findIndex((c) => c.cell_type === "code"), cells.length - 1]);
    })()`);
      await page.waitForFunction(IN_PAGE.allDone, undefined, { timeout: 300_000, polling: 500 });
      const queued = (await page.evaluate(IN_PAGE.lastOutput)) as string;
      assert.ok(queued.includes(KERNEL_STAYS_AFTER_RUN_ALL), queued);
      const tree = processTree(kernelId);
      assert.ok(tree.length >= 3, `the kernel and its travel and math servers run: ${tree.join(", ")}`);

      // The clean-up cell on its own, as a participant at the end of the notebook runs it.
      await page.evaluate(
        "Jupyter.notebook.scroll_to_bottom(); Jupyter.notebook.execute_cells([Jupyter.notebook.ncells() - 1])",
      );
      await page.waitForFunction(`${IN_PAGE.lastOutput}.includes(${JSON.stringify(KERNEL_ENDS)})`, undefined, {
        timeout: 60_000,
      });
      const dialog = page.locator(".modal-dialog", { hasText: "Kernel beendet" });
      await dialog.waitFor({ timeout: 60_000 }); // before: no dialog, the kernel ran on
      assert.match(await dialog.innerText(), /Jetzt neu starten/);
      const shots = join(root, ".cache", "browser");
      mkdirSync(shots, { recursive: true });
      await page.waitForFunction(
        `[...document.querySelectorAll(".modal.in")].some((m) => getComputedStyle(m).opacity === "1")`,
        undefined,
        { timeout: 10_000 },
      );
      await page.screenshot({ path: join(shots, "kernel-beendet-1280x720.png") });
      assert.ok(
        await until(() => tree.every((pid) => !existsSync(`/proc/${pid}`)), 30_000),
        "the kernel's processes are gone",
      );
      const kernels = (await (await fetch(`${server.base}/api/kernels?token=${server.token}`)).json()) as {
        id: string;
      }[];
      assert.ok(!kernels.some((k) => k.id === kernelId), "the server no longer lists the kernel");

      // "Nicht neu starten", later Kernel → Neu starten from the menu (what the German line names): the restart of
      // the gone kernel fails and Notebook starts a new session, a fresh kernel that runs cells.
      await dialog.getByRole("button", { name: "Nicht neu starten" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.click("#kernellink");
      await page.click("#restart_kernel > a");
      await page.waitForFunction(IN_PAGE.kernelReady, undefined, { timeout: 120_000, polling: 300 });
      await page.evaluate(`(() => {
      const cell = Jupyter.notebook.insert_cell_at_bottom("code");
      cell.set_text("console.log(6 * 7);");
      cell.execute();
    })()`);
      await page.waitForFunction(`${IN_PAGE.lastOutput}.trim() === "42"`, undefined, { timeout: 120_000 });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
);
