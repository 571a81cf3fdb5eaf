// One participant cannot take the class down, and a crash costs nobody their kernel (issue 43), against a
// real JupyterHub as root with two real participants: A's kernel forks 1,000 sleeps and writes 2 GB and hits
// the limits (small ones, set by the options), the disk guard stops A when the folder grows past
// --platz-je-person and tells both in German, while B keeps working; kill -9 of JupyterHub brings the login
// page back by itself and B's kernel still answers and saves; SIGHUP (terminal closed) then stops everything,
// also a kernel's child started without the hub's id.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { delay } from "../../lib/util.js";
import { runningHubPid } from "../../scripts/apps/hub/participants.js";
import { participantProcesses, processesOfHub } from "../../scripts/apps/hub/processes.js";
import {
  hubTestFolder,
  hubTestSkip,
  launchChromium,
  logIn,
  openNotebook,
  runCell,
  startHubProcess,
  type HubProcess,
} from "../helpers/hub-process.js";

const CODE = "hub-robust-23";
const NOTEBOOK = "11-aufgabe-1-lokales-llm.ipynb";
const A = { name: "Test Jörg Überall", user: "kurs-test-joerg-ueberall" };
const B = { name: "Test Beate Zweite", user: "kurs-test-beate-zweite" };
const PROCESSES = 120;
const SPACE_MB = 40;
const skip = hubTestSkip({ root: true, chromium: true }) ?? false;
const folder = hubTestFolder("hub-robust-");
const { dir, root } = folder;
let hub: HubProcess | undefined;
let browser: Browser | undefined;
const pages: Record<string, Page> = {};

before(async () => {
  if (skip) return;
  hub = await startHubProcess(
    ["--root", root, "--code", CODE, "--prozesse", String(PROCESSES), "--platz-je-person", String(SPACE_MB)],
    { KURS_HUB_PLATZ_SEKUNDEN: "1" },
  );
  browser = await launchChromium();
  for (const p of [A, B]) {
    const page: Page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    assert.equal(await logIn(page, hub.url, p.name, CODE), undefined);
    await openNotebook(page, new URL(`/user/${p.user}`, hub.url).href, NOTEBOOK);
    pages[p.user] = page;
  }
});

after(async () => {
  await browser?.close();
  await hub?.stop();
  await folder.remove();
});

const stillWorks = async (page: Page) =>
  assert.match(await runCell(page, `console.log("noch da: " + (6 * 7));`), /noch da: 42/);

test(
  "a kernel forking 1,000 sleeps and writing 2 GB hits the participant's limits; the other participant keeps working",
  { skip },
  async (t) => {
    t.diagnostic(`tasks (processes + threads) of one participant with server and kernel: ${tasksOf(A.user)}`);
    const fork = await runCell(
      pages[A.user]!,
      `const { spawn } = require("node:child_process");
let started = 0, refused = 0;
const children = [];
for (let i = 0; i < 1000; i++) {
  try { const c = spawn("sleep", ["60"], { stdio: "ignore" }); c.on("error", () => refused++); children.push(c); } catch { refused++; }
}
await new Promise((r) => setTimeout(r, 1500));
started = children.filter((c) => c.pid !== undefined).length;
for (const c of children) c.kill("SIGKILL");
console.log("gestartet=" + started + " abgelehnt=" + refused);`,
    );
    t.diagnostic(`fork of 1,000 sleeps with --prozesse ${PROCESSES}: ${fork.trim()}`);
    const [, started, refused] = /gestartet=(\d+) abgelehnt=(\d+)/.exec(fork) ?? [];
    assert.ok(started !== undefined, fork);
    assert.ok(Number(started) < PROCESSES && Number(refused) > 0, `the limit of ${PROCESSES} holds: ${fork}`);
    await stillWorks(pages[B.user]!);

    const write = await runCell(
      pages[A.user]!,
      `const fs = require("node:fs");
const chunk = Buffer.alloc(1024 * 1024, 1);
let written = 0, code = "";
const fd = fs.openSync("gross.bin", "w");
try { while (written < 2048) { fs.writeSync(fd, chunk); written++; } } catch (e) { code = e.code; }
fs.closeSync(fd);
fs.unlinkSync("gross.bin");
console.log("MB=" + written + " Fehler=" + code);`,
    );
    t.diagnostic(`write of 2 GB with --platz-je-person ${SPACE_MB}: ${write.trim()}`);
    assert.match(write, new RegExp(`MB=${SPACE_MB} Fehler=EFBIG`), write);
    await stillWorks(pages[B.user]!);
    await stillWorks(pages[A.user]!);
  },
);

test(
  "the disk guard stops a participant over --platz-je-person and says why in German; the other keeps working",
  { skip },
  async () => {
    // Files each under the file-size limit, together over the folder's space.
    await runCell(
      pages[A.user]!,
      `for (let i = 0; i < 3; i++) require("node:fs").writeFileSync("teil-" + i + ".bin", Buffer.alloc(${(SPACE_MB - 5) * 1024 * 1024}, 1));`,
    );
    const until = Date.now() + 60_000;
    while (Date.now() < until && !/Platz: Der Ordner von „Test Jörg Überall“/.test(hub!.output())) await delay(250);
    assert.match(
      hub!.output(),
      /Platz: Der Ordner von „Test Jörg Überall“ .* belegt \d+ MB, mehr als --platz-je-person 40 MB – Jupyter gestoppt/,
    );
    while (Date.now() < until && participantProcesses(root).length > 0 && participantProcessesOf(A.user) > 0)
      await delay(250);
    assert.equal(participantProcessesOf(A.user), 0, "A's server and kernel are stopped");
    // A asks the hub for their server again: the German reason, not a start.
    const page = pages[A.user]!;
    await page.goto(new URL(`/hub/spawn/${A.user}`, hub!.url).href);
    const shown = await page
      .waitForFunction(`document.body.innerText.includes("größer als die ${SPACE_MB} MB je Person")`, undefined, {
        timeout: 30_000,
      })
      .then(
        () => "",
        async () => page.evaluate("document.body.textContent") as Promise<string>,
      );
    await page.screenshot({ path: join(process.env.HUB_SHOTS ?? dir, "platz-1280x720.png") });
    assert.equal(shown, "", "the German reason on the hub's page");
    await stillWorks(pages[B.user]!);
  },
);

/** Processes and threads of a participant's user: what RLIMIT_NPROC counts. */
function tasksOf(user: string): number {
  return participantPidsOf(user).reduce((n, pid) => {
    try {
      return n + Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      return n;
    }
  }, 0);
}

function participantProcessesOf(user: string): number {
  return participantPidsOf(user).length;
}

function participantPidsOf(user: string): number[] {
  const uid = Number(
    readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${user}:`))
      ?.split(":")[2],
  );
  return participantProcesses(root).filter((pid) => {
    try {
      return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) === uid;
    } catch {
      return false;
    }
  });
}

test(
  "kill -9 of JupyterHub: the login page is back within 60 s, a participant's kernel still answers and saves",
  { skip },
  async (t) => {
    const pid = runningHubPid(root);
    assert.ok(pid, "JupyterHub's pid file");
    process.kill(pid, "SIGKILL");
    const killedAt = Date.now();
    const until = killedAt + 60_000;
    let status = 0;
    while (Date.now() < until) {
      status = await fetch(hub!.url, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200 && runningHubPid(root) !== pid) break;
      await delay(250);
    }
    assert.equal(status, 200, `login page back: ${hub!.output().slice(-2000)}`);
    t.diagnostic(`login page back ${((Date.now() - killedAt) / 1000).toFixed(1)} s after kill -9 of JupyterHub`);
    assert.match(hub!.output(), /JupyterHub hat sich unerwartet beendet .* Neustart/);
    const page = pages[B.user]!;
    await stillWorks(page);
    const saved = await page.evaluate(`(async () => {
    const cell = Jupyter.notebook.insert_cell_at_index("markdown", 0);
    cell.set_text("nach dem Absturz gespeichert");
    try { await Jupyter.notebook.save_notebook(); return "ok"; } catch (e) { return "Fehler: " + (e && e.message || e); }
  })()`);
    assert.equal(saved, "ok");
    assert.match(readFileSync(join(root, B.user, NOTEBOOK), "utf8"), /nach dem Absturz gespeichert/);
  },
);

test(
  "SIGHUP (terminal closed) stops the hub like Ctrl+C: nothing of it keeps running, not even a kernel's child without the hub's id",
  { skip },
  async () => {
    const settings = JSON.parse(readFileSync(join(root, ".hub", "settings.json"), "utf8")) as {
      kernelEnv: { KURS_HUB_ID: string };
    };
    const out = await runCell(
      pages[B.user]!,
      `const c = require("node:child_process").spawn("env", ["-i", "setsid", "sleep", "600"], { detached: true, stdio: "ignore" });
c.unref(); console.log("Kind " + c.pid);`,
    );
    assert.match(out, /Kind \d+/);
    assert.equal(await hub!.stop("SIGHUP"), 0);
    assert.deepEqual(processesOfHub(settings.kernelEnv.KURS_HUB_ID), [], "no process with the hub's id");
    assert.deepEqual(participantProcesses(root), [], "no process of a participant's user");
    hub = undefined;
  },
);
