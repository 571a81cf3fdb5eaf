// The Klassenraum-Hub in the workshop's language, with a real JupyterHub and Chromium: a participant whose
// browser asks for German logs in, sees the German waiting page, lands in 00-start.ipynb (not a bare file
// list) with German menus, a German file list and the hub's German home page with their name as typed
// ("Lena Vogt", not the account "kurs-lena-vogt"); an English browser gets Jupyter in English. Run as root
// under `flock /tmp/kit-hub.lock` (real system users). Screenshots at 1366x768: .cache/browser/sprache/.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { findProjectRoot } from "../../lib/config.js";
import { FIRST_NOTEBOOK } from "../../scripts/apps/workshop/notebook-ui.js";
import { languageProblems, visibleText } from "../../scripts/dev/german-ui-check.js";
import {
  hubTestFolder,
  hubTestSkip,
  hubUser,
  launchChromium,
  startHubProcess,
  TEST_PIN,
  type HubProcess,
} from "../helpers/hub-process.js";

const CODE = "hub-sprache-4711";
const missing = hubTestSkip({ chromium: true });
const folder = hubTestFolder("hub-sprache-");
const { root } = folder;
const shots = join(findProjectRoot(), ".cache", "browser", "sprache");
let hub: HubProcess | undefined;
let browser: Browser | undefined;

const KERNEL_READY = `Boolean(window.Jupyter?.notebook?.kernel?.is_connected()) &&
  document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`;

before(async () => {
  if (missing) return;
  mkdirSync(shots, { recursive: true });
  hub = await startHubProcess(["--root", root, "--code", CODE]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await hub?.stop();
  await folder.remove();
});

/** Login → waiting page → first notebook → file list → hub home, with a screenshot of each; the problems found. */
async function walkThrough(page: Page, name: string, locale: "de" | "en"): Promise<string[]> {
  const shot = (what: string) => page.screenshot({ path: join(shots, `hub-${what}-${locale}.png`) });
  const problems: string[] = [];
  await page.goto(hub!.url);
  await shot("1-anmeldung");
  await page.fill("#username_input", name);
  await page.fill("#password_input", CODE);
  await page.fill("#pin_input", TEST_PIN);
  // The waiting page, or straight to the notebook when the server started within the hub's first seconds.
  await Promise.all([
    page.waitForURL(/\/hub\/spawn-pending\/|\/user\/[^/]+\/notebooks\//, { timeout: 60_000, waitUntil: "commit" }),
    page.click("#login_submit"),
  ]);
  // The account name as the hub chose it (another one when a leftover account has the plain name).
  const user = hubUser(root, name);
  await page
    .waitForFunction(`/Wartezeit bisher: [1-9]/.test(document.body.innerText)`, undefined, { timeout: 10_000 })
    .catch(() => undefined);
  // On an idle machine the server can be up before the page is read: the waiting page has then moved on to the
  // notebook (its German texts are checked whenever it is still there).
  const waiting = /\/hub\/spawn-pending\//.test(page.url()) ? await visibleText(page) : undefined;
  if (waiting !== undefined && /\/hub\/spawn-pending\//.test(page.url())) {
    await shot("2-warten");
    assert.match(waiting, /Dein Notebook-Server startet …/, waiting);
    assert.match(waiting, /Wartezeit bisher: \d+ s/, "the waiting page says how long it has waited");
    problems.push(...(await languageProblems(page, "waiting", "de")));
  }

  // The first screen: the day's first notebook, its kernel ready.
  await page.waitForURL(new RegExp(`/user/${user}/notebooks/${FIRST_NOTEBOOK.replace(".", "\\.")}`), {
    timeout: 150_000,
  });
  await page.waitForFunction(KERNEL_READY, undefined, { timeout: 120_000, polling: 250 });
  await shot("3-notebook"); // autosave stays on: the participant's own copy, seen as they see it
  problems.push(
    ...(await languageProblems(page, "notebook", locale, [
      "File",
      "Edit",
      "View",
      "Insert",
      "Cell",
      "Help",
      "Control Panel",
    ])),
  );

  await page.goto(new URL(`/user/${user}/tree`, hub!.url).href);
  await page.waitForSelector("#notebook_list .list_item", { timeout: 30_000 });
  await shot("4-dateiliste");
  problems.push(
    ...(await languageProblems(page, "fileList", locale, [
      "Files",
      "Running",
      "Upload",
      "Last Modified",
      "Logout",
      "Control Panel",
    ])),
  );

  // The hub's own pages are the kit's, German for everyone (like the login page).
  await page.goto(new URL("/hub/home", hub!.url).href);
  await shot("5-hub-start");
  problems.push(...(await languageProblems(page, "hubHome", "de")));
  const home = await visibleText(page);
  assert.match(home, new RegExp(`Hallo ${name}`), home);
  assert.match(home, /Meinen Server stoppen/, home);
  assert.ok(!home.includes(user), `the home page shows "${name}", not the account name ${user}: ${home}`);
  return problems;
}

test(
  "a German browser: German waiting page, lands in 00-start with German menus, German file list, hub home with the name as typed",
  { skip: missing },
  async () => {
    const context = await browser!.newContext({ locale: "de-DE", viewport: { width: 1366, height: 768 } });
    try {
      const problems = await walkThrough(await context.newPage(), "Lena Vogt", "de");
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);

test(
  "an English browser still gets Jupyter in English (the hub's own pages stay the kit's German)",
  { skip: missing },
  async () => {
    const context = await browser!.newContext({ locale: "en-US", viewport: { width: 1366, height: 768 } });
    try {
      // A long name with umlauts (39 characters): shown whole in the hub's bar, on one line.
      const page = await context.newPage();
      const problems = await walkThrough(page, "Maximiliane Schwarzenberger-Müllerstädt", "en");
      assert.deepEqual(problems, []);
      const shown = page.locator("#kurs-display-name");
      assert.equal(await shown.textContent(), "Maximiliane Schwarzenberger-Müllerstädt");
      const box = await shown.boundingBox();
      assert.ok(box && box.height < 30, `the name stays on one line (${box?.height} px high)`);
    } finally {
      await context.close();
    }
  },
);

test("the hub's error pages say in German what to do", { skip: missing }, async () => {
  const context = await browser!.newContext({ locale: "de-DE", viewport: { width: 1366, height: 768 } });
  try {
    const page = await context.newPage();
    const response = await page.goto(new URL("/hub/gibt-es-nicht", hub!.url).href);
    assert.equal(response?.status(), 404);
    await page.screenshot({ path: join(shots, "hub-404-de.png") });
    const text = await visibleText(page);
    assert.match(text, /Diese Seite gibt es nicht/, text);
    assert.match(text, /Zu deiner Übersicht/, text);
    assert.doesNotMatch(text, /Jupyter has lots of moons/, text);
  } finally {
    await context.close();
  }
});
