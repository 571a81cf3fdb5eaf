// A full disk does not take the hub down (issue 43): the participants' folders and the hub's state on a small
// tmpfs of their own (as root), one participant's kernel writes until the disk is full (ENOSPC) — before,
// every further login failed (HTTP 500) until the file was removed. Now the hub frees its reserve and the
// instructor is told in German; a new participant still logs in and gets a working kernel.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { delay } from "../../lib/util.js";
import {
  hubTestFolder,
  hubTestSkip,
  isRoot,
  launchChromium,
  logIn,
  openNotebook,
  runCell,
  startHubProcess,
  type HubProcess,
} from "../helpers/hub-process.js";

const CODE = "platte-voll-31";
const NOTEBOOK = "11-aufgabe-1-lokales-llm.ipynb";
const folder = hubTestFolder("hub-disk-full-");
const { root } = folder;
mkdirSync(root);
// tmpfs needs root (mount); elsewhere the test is skipped
const mounted = isRoot && spawnSync("mount", ["-t", "tmpfs", "-o", "size=400m,mode=755", "tmpfs", root]).status === 0;
const skip = (mounted ? hubTestSkip({ chromium: true }) : "needs root and mount (a small tmpfs as the disk)") ?? false;
let hub: HubProcess | undefined;
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  hub = await startHubProcess(["--root", root, "--code", CODE], { KURS_HUB_PLATZ_SEKUNDEN: "1" });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await hub?.stop();
  await folder.remove(() => mounted && spawnSync("umount", ["-l", root]));
});

test(
  "one kernel fills the disk: the instructor is told, the next participant still logs in and works",
  { skip },
  async () => {
    const page = await (await browser!.newContext()).newPage();
    assert.equal(await logIn(page, hub!.url, "Test Fülle Platte", CODE), undefined);
    await openNotebook(page, new URL("/user/kurs-test-fuelle-platte", hub!.url).href, NOTEBOOK);
    const out = await runCell(
      page,
      `const fs = require("node:fs");
const chunk = Buffer.alloc(1024 * 1024, 1);
let mb = 0, code = "";
try { for (let f = 0; f < 100; f++) { const fd = fs.openSync("voll-" + f + ".bin", "w"); try { for (let i = 0; i < 32; i++) { fs.writeSync(fd, chunk); mb++; } } finally { fs.closeSync(fd); } } }
catch (e) { code = e.code; }
// the last bytes too, so not even a small file fits any more
const fd = fs.openSync("rest.bin", "w");
try { for (;;) fs.writeSync(fd, Buffer.alloc(4096, 1)); } catch (e) { code = code + "/" + e.code; } finally { fs.closeSync(fd); }
console.log("MB=" + mb + " Fehler=" + code);`,
    );
    assert.match(out, /Fehler=ENOSPC\/ENOSPC/, out);
    const until = Date.now() + 30_000;
    while (Date.now() < until && !/Platte von .* ist voll/.test(hub!.output())) await delay(250);
    assert.match(hub!.output(), /WARNUNG: Die Platte von .* ist voll – der Hub gibt seine Reserve \(64 MB\) frei/);

    const next = await (await browser!.newContext()).newPage();
    assert.equal(
      await logIn(next, hub!.url, "Test Neu Danach", CODE),
      undefined,
      "a new participant logs in on a full disk",
    );
    await openNotebook(next, new URL("/user/kurs-test-neu-danach", hub!.url).href, NOTEBOOK);
    assert.match(await runCell(next, `console.log("läuft " + (40 + 2));`), /läuft 42/);
  },
);
