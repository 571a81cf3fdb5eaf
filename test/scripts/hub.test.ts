// The Klassenraum-Hub end to end: real JupyterHub (`npm run hub` as a subprocess), a real board
// subprocess, and two participants in Chromium who log in through the German login page (a wrong code is
// refused), stand on the board at once as "nicht begonnen", get the kit's TypeScript kernel, import the
// kit's lib and run an Aufgabe-1 self-check whose result reaches the board under their names. As root each
// participant is a system user of their own: A's kernel cannot read B's folder (EACCES). Ctrl+C leaves no
// process of the hub behind, and a restart keeps the participants' files. The login keeps the board's
// rules: look-alike names refused, wrong codes limited, a right code always let in.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { release } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { BoardView } from "../../scripts/apps/board/state.js";
import { runningHubPid } from "../../scripts/apps/hub/participants.js";
import { processesOfHub } from "../../scripts/apps/hub/processes.js";
import { KSM_DIR, KSM_PAGES_TO_SCAN, mergesWholeProcesses } from "../../scripts/apps/hub/ksm.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";
import {
  hubTestFolder,
  hubTestSkip,
  hubUser,
  isRoot,
  launchChromium,
  logIn,
  openNotebook,
  runCell,
  startHubProcess,
  TEST_PIN,
  xsrfToken,
  type HubProcess,
} from "../helpers/hub-process.js";

const CODE = "hub-test-17";
const NOTEBOOK = "11-aufgabe-1-lokales-llm.ipynb";
const PEOPLE = [{ name: "Test Anna Müller" }, { name: "Test Bernd" }];
/** The participant's system user (kurs-test-anna-mueller, or -2 when such an account exists that the hub did not make). */
const userOf = (person: { name: string }) => hubUser(root, person.name);
const missing = hubTestSkip({ chromium: true });
const folder = hubTestFolder("hub-test-");
const { dir, root } = folder;
let board: BoardProcess | undefined;
let hub: HubProcess | undefined;
let browser: Browser | undefined;

/** KSM's settings (scripts/apps/hub/ksm.ts) as they were before any hub of this test ran. */
const ksmSettings = () =>
  ["run", "pages_to_scan"].map((f) => (existsSync(KSM_DIR) ? readFileSync(join(KSM_DIR, f), "utf8").trim() : ""));
const ksmBefore = ksmSettings();
/** Where the hub can switch KSM on: as root, on Linux 6.4 or newer built with it. */
const ksmPossible = isRoot && existsSync(join(KSM_DIR, "run")) && mergesWholeProcesses(release());

// A correct Aufgabe 1.1, as a participant would write it in the notebook.
const SOLVED_CELL = `
import { checkBuildMessages } from "./lib/exercises/part1";
import type { ChatMessage } from "./lib/index";
function buildMessages(systemPrompt: string, turns: { user: string; assistant: string }[], question: string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (systemPrompt.trim() !== "") messages.push({ role: "system", content: systemPrompt });
  for (const t of turns) messages.push({ role: "user", content: t.user }, { role: "assistant", content: t.assistant });
  messages.push({ role: "user", content: question });
  return messages;
}
await checkBuildMessages(buildMessages);
console.log("KURS_NAME=" + process.env.KURS_NAME + " uid=" + process.getuid());`;

const readFolderCell = (folder: string) => `
try { console.log("gelesen:", require("node:fs").readdirSync(${JSON.stringify(folder)}).length); }
catch (error) { console.log("Fehler:", (error as NodeJS.ErrnoException).code); }`;

async function participantPage(
  context: BrowserContext,
  name: string,
  code = CODE,
): Promise<{ page: Page; error?: string }> {
  const page = await context.newPage();
  const error = await logIn(page, hub!.url, name, code);
  return { page, error };
}

async function boardState(): Promise<BoardView> {
  const res = await fetch(new URL("/api/state", board!.url));
  return (await res.json()) as BoardView;
}

async function waitForBoard(names: string[]): Promise<BoardView> {
  for (let i = 0; i < 50; i++) {
    const view = await boardState();
    if (names.every((n) => view.participants.some((p) => p.name === n && p.cells[0]!.ok > 0))) return view;
    await new Promise((r) => setTimeout(r, 200));
  }
  return boardState();
}

/** /proc/<pid>/<file> as text ("" once the process is gone). */
function procText(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "latin1");
  } catch {
    return "";
  }
}

function hubId(): string {
  return (
    JSON.parse(readFileSync(join(root, ".hub", "settings.json"), "utf8")) as { kernelEnv: { KURS_HUB_ID: string } }
  ).kernelEnv.KURS_HUB_ID;
}

before(async () => {
  if (missing) return;
  board = await startBoardProcess(["--code", CODE, "--data", join(dir, "board.json")]);
  hub = await startHubProcess(["--root", root, "--code", CODE, "--board", board.url.replace(/\/$/, "")]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await hub?.stop();
  await board?.stop();
  await folder.remove();
});

test(
  "two participants log in through the German page, run Aufgabe 1's self-check and reach the board; A cannot read B's folder",
  { skip: missing },
  async () => {
    const contexts = await Promise.all(
      PEOPLE.map(() => browser!.newContext({ viewport: { width: 1280, height: 720 } })),
    );
    const wrong = await participantPage(contexts[0]!, PEOPLE[0]!.name, "falscher-code");
    assert.match(wrong.error ?? "", /Beitrittscode stimmt nicht/);
    assert.match((await wrong.page.locator("label[for=username_input]").textContent()) ?? "", /Dein Name/);
    // Debian's hub ships bare Bootstrap as its stylesheet: without the kit's rules the form spans the page.
    const form = await wrong.page.locator("#login-main form").boundingBox();
    assert.ok(form && form.width <= 420, `login form is a centred box, not ${form?.width} px wide`);
    await wrong.page.close();
    assert.deepEqual((await boardState()).participants, [], "a refused login is not on the board");

    // Both at once, as a room logs in.
    const pages = await Promise.all(
      PEOPLE.map(async (person, i) => {
        const { page, error } = await participantPage(contexts[i]!, person.name);
        assert.equal(error, undefined, `login of ${person.name}`);
        // On the board at once, before any self-check (before: only with the first result).
        const row = (await boardState()).participants.find((p) => p.name === person.name);
        assert.equal(row?.progress.status, "nicht-begonnen", `${person.name} on the board after login`);
        await openNotebook(page, new URL(`/user/${userOf(person)}`, hub!.url).href, NOTEBOOK);
        const out = await runCell(page, SOLVED_CELL);
        assert.match(out, /Ergebnis: alle \d+ Fälle bestanden/, out);
        assert.match(out, new RegExp(`KURS_NAME=${person.name} `), out);
        if (isRoot) assert.doesNotMatch(out, / uid=0$/m, "the kernel runs as the participant's own user");
        // The participant's kernel starts from the kit's V8 snapshot (half the CPU of a start, issue 46), and its
        // folder outside the kit still gets the kit's Node types, which the snapshot holds parsed (before, tslab
        // fell back to its own older @types/node and parsed all of it again).
        const start = await runCell(page, 'console.log(JSON.stringify(globalThis[Symbol.for("kit.kernelStart")]))');
        const kernelStart = JSON.parse(start) as { snapshot: boolean; cachedFiles: number; stats: { served: number } };
        assert.equal(kernelStart.snapshot, true, `kernel start: ${start}`);
        assert.ok(kernelStart.stats.served >= kernelStart.cachedFiles, `every snapshotted file used: ${start}`);
        return page;
      }),
    );
    const view = await waitForBoard(PEOPLE.map((p) => p.name));
    for (const person of PEOPLE) {
      const row = view.participants.find((p) => p.name === person.name);
      assert.ok(row && row.cells[0]!.ok >= 1, `${person.name} on the board: ${JSON.stringify(view.participants)}`);
    }

    const intoB = await runCell(pages[0]!, readFolderCell(join(root, userOf(PEOPLE[1]!))));
    if (isRoot) assert.match(intoB, /Fehler: EACCES/, intoB);
    else assert.match(intoB, /gelesen: \d+/, "without root participants share one user (the hub warned)");
    assert.ok(isRoot || /WARNUNG: Der Hub läuft nicht als root/.test(hub!.output()));
    // What a kernel writes (RAG indexes of Teil 2, travel cache and workspace) goes to the participant's folder,
    // not into the kit's, which the participants' accounts cannot write.
    const writes = await runCell(
      pages[0]!,
      `import { loadConfig } from "./lib/config";
const dirs = [loadConfig().ragCacheDir, process.env.TRAVEL_CACHE_DIR!, process.env.TRAVEL_WORKSPACE_DIR!];
for (const d of dirs) require("node:fs").mkdirSync(d, { recursive: true });
console.log("geschrieben: " + dirs.join(" "));`,
    );
    const home = join(root, userOf(PEOPLE[0]!));
    assert.match(writes, /geschrieben:/, writes);
    for (const dir of [".cache/rag", ".cache/travel", "workspace"]) assert.ok(writes.includes(join(home, dir)), writes);
    await runCell(pages[0]!, `require("node:fs").writeFileSync("notiz.txt", "vor dem Neustart");`);
    await Promise.all(contexts.map((c) => c.close()));

    // The participants' Jupyter servers start without GObject introspection (send2trash's GIO backend) and with
    // Python's own distutils (singleuser/sitecustomize.py, jupyterhub_config.py): CPU of every start, issue 46.
    const servers = processesOfHub(hubId()).filter((pid) => procText(pid, "cmdline").includes("jupyterhub-singleuser"));
    assert.equal(servers.length, PEOPLE.length, "one Jupyter server per participant");
    for (const pid of servers) {
      assert.ok(!procText(pid, "maps").includes("girepository"), `GObject introspection in the server ${pid}`);
      assert.ok(procText(pid, "environ").split("\0").includes("SETUPTOOLS_USE_DISTUTILS=stdlib"));
    }

    // Pages equal in all kernels (the snapshot's blob above all) are kept once (KSM, issue 46): the hub runs
    // KSM's scanner, and the servers and the kernels they started opted in. Where Linux cannot, the hub says so.
    const kernels = processesOfHub(hubId()).filter((pid) => procText(pid, "cmdline").includes("kernel.blob"));
    const commands = processesOfHub(hubId()).map((pid) => procText(pid, "cmdline").replaceAll("\0", " ").slice(0, 120));
    assert.ok(kernels.length >= PEOPLE.length, `kernels from the snapshot: ${commands.join("; ")}`);
    if (ksmPossible) {
      assert.match(hub!.output(), /Speicher-Teilen \(KSM\) an/);
      assert.deepEqual(ksmSettings(), ["1", String(Math.max(KSM_PAGES_TO_SCAN, Number(ksmBefore[1])))]);
      for (const pid of [...servers, ...kernels])
        assert.match(procText(pid, "ksm_stat"), /ksm_merge_any: yes/, `process ${pid} shares its equal pages`);
    } else assert.match(hub!.output(), /Speicher-Teilen \(KSM\) (braucht|nicht eingeschaltet|gibt es nur)/);
  },
);

test(
  "Ctrl+C stops the hub with every process it started; a restart keeps the participants' files",
  { skip: missing },
  async () => {
    const id = hubId();
    assert.ok(processesOfHub(id).length >= 3, "hub, proxy and the participants' servers carry the hub's id");
    assert.equal(await hub!.stop("SIGINT"), 0);
    assert.deepEqual(processesOfHub(id), [], "no process of the hub is left after Ctrl+C");
    assert.deepEqual(ksmSettings(), ksmBefore, "KSM's settings as they were before the hub");
    assert.equal(runningHubPid(root), undefined);

    hub = await startHubProcess(["--root", root, "--code", CODE, "--max", "2"]);
    const context = await browser!.newContext();
    const { page, error } = await participantPage(context, PEOPLE[0]!.name.toUpperCase());
    assert.equal(error, undefined, "the same name in other case is the same participant");
    await openNotebook(page, new URL(`/user/${userOf(PEOPLE[0]!)}`, hub.url).href, NOTEBOOK);
    const out = await runCell(page, `console.log(require("node:fs").readFileSync("notiz.txt", "utf8"));`);
    assert.match(out, /vor dem Neustart/);
    assert.ok(existsSync(join(root, userOf(PEOPLE[1]!), NOTEBOOK)));
    await context.close();
  },
);

test(
  "a name the board would refuse, a look-alike, a participant beyond --max and guessing are refused in German; a right code always gets in",
  { skip: missing },
  async () => {
    const { request } = await import("playwright-core");
    const api = await request.newContext();
    const post = async (code: string, username = "Rater", headers: Record<string, string> = {}) => {
      const _xsrf = await xsrfToken(api, hub!.url);
      const res = await api.post(hub!.url, {
        headers,
        form: { username, password: code, pin: TEST_PIN, _xsrf },
        maxRedirects: 0,
      });
      return { status: res.status(), text: await res.text() };
    };
    assert.match((await post(CODE, "!!!")).text, /mindestens einen Buchstaben oder eine Ziffer/);
    assert.match((await post(CODE, "Anna\u200bB")).text, /unsichtbare Zeichen/);
    assert.match(
      (await post(CODE, "Dritte Person")).text,
      /Der Kurs ist voll \(2 Teilnehmende\)/,
      "--max 2 after the restart",
    );
    // A name that looks like a participant's (Cyrillic А) is refused in German — before: "Der Kurs ist voll".
    const context = await browser!.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const twin = await logIn(page, hub!.url, "Test \u0410nna Müller", CODE);
    assert.match(
      twin ?? "",
      /^Der Name sieht aus wie „Test Anna Müller“, der schon angemeldet ist – bitte einen deutlich anderen Namen wählen/,
    );
    await page.screenshot({ path: join(dir, "doppelgaenger-1280x720.png") });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.screenshot({ path: join(dir, "doppelgaenger-1920x1080.png") });
    await context.close();

    // 10 wrong codes use up this address's tries; an X-Real-Ip header does not make a fresh address of it.
    for (let i = 0; i < 10; i++) assert.match((await post(`falsch-${i}`)).text, /Beitrittscode stimmt nicht/);
    assert.match((await post("falsch-10", "Rater", { "x-real-ip": "10.9.8.7" })).text, /Zu viele falsche Codes/);
    // ... but the right code is never refused because of wrong tries (before: "Zu viele falsche Codes").
    const right = await post(CODE, PEOPLE[1]!.name);
    assert.equal(right.status, 302, `a login redirects: ${right.text.slice(0, 300)}`);
    await api.dispose();
  },
);
