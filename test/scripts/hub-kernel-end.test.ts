// In the Klassenraum-Hub a participant's clean-up cell ends their kernel too (issue 46): a real JupyterHub as
// root, a participant with umlauts logged in with Chromium, `endKernel()` in their notebook. The participant's
// server has no token of its own (JupyterHub's singleuser), so the kernel asks with the hub's token for it;
// the cell says in German that the kernel ended, Notebook shows its German dialog, the kernel process is gone.
// Run as root under `flock /tmp/kit-hub.lock` (real system users).
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { KERNEL_ENDS } from "../../lib/notebook/index.js";
import { jupyterhubMissing } from "../../scripts/apps/hub/start.js";
import { FIRST_NOTEBOOK } from "../../scripts/apps/workshop/notebook-ui.js";
import { processesWhere } from "../../scripts/node/processes.js";
import {
  CHROMIUM,
  launchChromium,
  logIn,
  openNotebook,
  runCell,
  startHubProcess,
  type HubProcess,
} from "../helpers/hub-process.js";
import { until } from "../helpers/tslab-kernel.js";

const CODE = "hub-ende-4711";
const missing =
  process.getuid?.() !== 0
    ? "needs root (a participant's own system user)"
    : jupyterhubMissing()
      ? "JupyterHub is not installed (apt-get install jupyterhub)"
      : CHROMIUM
        ? undefined
        : "no Chromium";
const dir = mkdtempSync(join(tmpdir(), "hub-ende-"));
chmodSync(dir, 0o755); // the participants' system users pass through it to their folders
const root = join(dir, "hub");
let hub: HubProcess | undefined;
let browser: Browser | undefined;

before(async () => {
  if (missing) return;
  hub = await startHubProcess(["--root", root, "--code", CODE]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await hub?.stop();
  if (hub) {
    const { runCommand } = await import("../helpers/run-script.js");
    await runCommand("hub", ["--aufraeumen", "--root", root]);
  }
  rmSync(dir, { recursive: true, force: true });
});

test(
  "in the hub, endKernel ends the participant's kernel with the hub's token and the tab shows it",
  { skip: missing, timeout: 600_000 },
  async () => {
    const context = await browser!.newContext({ locale: "de-DE", viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      assert.equal(await logIn(page, hub!.url, "Jürgen Groß-Übermann", CODE), undefined);
      await page.waitForURL(/\/user\/[^/]+\/notebooks\//, { timeout: 180_000 });
      const userUrl = page.url().replace(/\/notebooks\/.*$/, "");
      await openNotebook(page, userUrl, FIRST_NOTEBOOK);
      const kernelId = (await page.evaluate("Jupyter.notebook.kernel.id")) as string;
      const kernelPids = () =>
        processesWhere((pid) => readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(`kernel-${kernelId}.json`));
      const pids = kernelPids();
      assert.equal(pids.length, 1, "the participant's kernel runs");

      const printed = await runCell(page, 'import { endKernel } from "./lib/notebook/index";\nawait endKernel();');
      assert.equal(printed.replace(/\s+/g, " ").trim(), KERNEL_ENDS); // before: "Jupyter ließ ihn nicht beenden"
      await page.locator(".modal-dialog", { hasText: "Kernel beendet" }).waitFor({ timeout: 60_000 });
      assert.ok(
        await until(() => pids.every((pid) => !existsSync(`/proc/${pid}`)), 30_000),
        "the kernel process is gone",
      );
    } finally {
      await context.close();
    }
  },
);
