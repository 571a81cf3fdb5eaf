// A kernel left alone is ended even while its notebook tab stays open (issue 46: a day's forgotten tabs held
// 180–390 MB each), and the tab says so: the patched tslab tells every open tab that it ends, so Notebook shows
// its German "Kernel beendet" dialog (unpatched, the next cell waited on "In [*]" without a word), and
// "Jetzt neu starten" brings a working kernel back. A real Notebook 6 server started the participant's way
// (`npm run workshop -- --uebung`, German) with the hub's culling options, idle time shortened to seconds.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { practiceEnvironment } from "../../scripts/apps/models/model-help.js";
import { cullingArgs } from "../../scripts/apps/hub/settings.js";
import { FIRST_NOTEBOOK } from "../../scripts/apps/workshop/notebook-ui.js";
import { browserCheckMissing } from "../../scripts/dev/browser-check.js";
import { spawnNotebookServer } from "../../scripts/dev/notebook-server.js";
import { launchChromium } from "../helpers/hub-process.js";
import { until } from "../helpers/tslab-kernel.js";

const root = findProjectRoot();
const missing = browserCheckMissing() ?? false;
const KERNEL_READY = `Boolean(window.Jupyter?.notebook?.kernel?.is_connected()) &&
  document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`;
const RUN_LAST = (code: string) => `(() => {
  const cell = Jupyter.notebook.insert_cell_at_bottom("code");
  cell.set_text(${JSON.stringify(code)});
  Jupyter.notebook.scroll_to_bottom();
  cell.execute();
})()`;
/** Bootstrap's modal has faded in completely. */
const MODAL_SHOWN = `[...document.querySelectorAll(".modal.in")].some((m) => getComputedStyle(m).opacity === "1")`;
const LAST_OUTPUT = `Jupyter.notebook.get_cells().at(-1).output_area.outputs.map((o) => o.text ?? "").join("").trim()`;

test(
  "an idle kernel behind an open tab is culled and the tab shows the German dead-kernel dialog",
  { skip: missing, timeout: 600_000 },
  async () => {
    const server = await spawnNotebookServer(join(root, "notebooks"), await practiceEnvironment(), {
      viaWorkshop: true,
      extraArgs: cullingArgs(12, 2),
    });
    const browser = await launchChromium();
    try {
      await server.ready(90_000);
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, locale: "de-DE" });
      await page.goto(`${server.base}/notebooks/${FIRST_NOTEBOOK}?token=${server.token}`);
      await page.waitForFunction(KERNEL_READY, undefined, { timeout: 120_000, polling: 300 });
      await page.evaluate("Jupyter.notebook.set_autosave_interval(0)");
      const kernelId = (await page.evaluate("Jupyter.notebook.kernel.id")) as string;
      // Kernel → Neu starten stays a restart: the kernel's broadcast says so, no "Kernel beendet" dialog.
      await page.evaluate(`Jupyter.notebook.events.one("kernel_ready.Kernel", () => (window.neuGestartet = true));
        Jupyter.notebook.restart_kernel({ confirm: false });`);
      await page.waitForFunction(`window.neuGestartet === true && ${KERNEL_READY}`, undefined, { timeout: 120_000 });
      await page.evaluate(RUN_LAST('const gemerkt = "Zürich"; console.log(gemerkt);'));
      await page.waitForFunction(`${LAST_OUTPUT} === "Zürich"`, undefined, { timeout: 120_000 });

      // Left alone with the tab open: the kernel is culled, and the tab shows it (before: no dialog ever).
      const listed = async () =>
        ((await (await fetch(`${server.base}/api/kernels?token=${server.token}`)).json()) as { id: string }[]).some(
          (k) => k.id === kernelId,
        );
      const dialog = page.locator(".modal-dialog", { hasText: "Kernel beendet" });
      assert.equal(await dialog.count(), 0, "no dead-kernel dialog after the restart, before the cull");
      assert.ok(await until(async () => !(await listed()), 180_000, 500), "the server culled the kernel");
      await dialog.waitFor({ timeout: 30_000 });
      const text = await dialog.innerText();
      assert.match(text, /nach längerer Pause beendet/);
      assert.match(text, /Jetzt neu starten/);
      await page.waitForFunction(MODAL_SHOWN, undefined, { timeout: 10_000 });
      const shots = join(root, ".cache", "browser");
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, "kernel-leerlauf-1280x720.png") });

      // "Jetzt neu starten": a fresh kernel runs cells.
      await dialog.getByRole("button", { name: "Jetzt neu starten" }).click();
      await page.waitForFunction(KERNEL_READY, undefined, { timeout: 120_000, polling: 300 });
      await page.evaluate(RUN_LAST("console.log(6 * 7);"));
      await page.waitForFunction(`${LAST_OUTPUT} === "42"`, undefined, { timeout: 120_000 });
    } finally {
      await browser.close();
      await server.stop();
    }
  },
);
