// Raised hands survive a board restart (even a crash), with their waiting time; and the instructor's link:
// lowering hands and setting the class's Aufgabe from a browser on another machine needs the key printed
// in the board's terminal — participants (who know the join code) are refused in German; this machine's
// own browser still needs no key, except in Klassenraum mode, where the participants' kernels share it.
// All against the real board subprocess; "another machine" is this machine's own network address
// (192.0.2.2 here), which the board sees as a non-loopback client.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { BOARD_CODE_HEADER } from "../../lib/exercises/board-record.js";
import { hilfe } from "../../lib/exercises/index.js";
import { BOARD_INSTRUCTOR_HEADER, BOARD_JOIN_INFO_PATH } from "../../scripts/apps/board/instructor.js";
import { BOARD_CLASS_PATH, BOARD_LOWER_PATH } from "../../scripts/apps/board/server.js";
import { BoardState, parseStored, type BoardView } from "../../scripts/apps/board/state.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";
import { chromiumIfInstalled } from "../helpers/chromium.js";

const CODE = "kursleitung-test-7";
const dir = mkdtempSync(join(tmpdir(), "board-instructor-"));
const running: BoardProcess[] = [];
let browser: Browser | undefined;
const silent = () => undefined;

/** This machine's first non-loopback IPv4 address: requests to it reach the board from a non-loopback address. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

async function start(args: string[]): Promise<BoardProcess> {
  const board = await startBoardProcess(["--code", CODE, ...args]);
  running.push(board);
  return board;
}
async function stateOf(url: string): Promise<BoardView> {
  return (await (await fetch(new URL("/api/state", url))).json()) as BoardView;
}
async function until<T>(what: string, get: () => Promise<T> | T, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(new URL(path, url), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}
/** The instructor's link the board printed (line "Kursleitung:"). */
function printedLink(board: BoardProcess): URL {
  const link = /Kursleitung:\s+(http:\S+)/.exec(board.output())?.[1];
  assert.ok(link, `the board prints the instructor's link:\n${board.output()}`);
  return new URL(link);
}
const keyOf = (link: URL) => /^#kursleitung=([A-Za-z0-9_-]{32})$/.exec(link.hash)?.[1] ?? "";

before(async () => {
  browser = await chromiumIfInstalled();
});

after(async () => {
  await browser?.close();
  for (const board of running) await board.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("raised hands survive a crash and a restart of the board, in order, with question and waiting time; so does the class's Aufgabe", async () => {
  const data = join(dir, "haende.json");
  const first = await start(["--data", data]);
  const as = (name: string) => ({ settings: { url: first.url, name, code: CODE }, log: silent });
  assert.equal((await hilfe("Mein Retriever findet Lüneburg nicht", as("Jürgen Böhm"))).ok, true);
  assert.equal((await hilfe("Wo ist das Modell?", as("Maximiliane Dorothea Müller-Lüdenscheidt"))).ok, true);
  // the file has both hands (written shortly after the change) and the first has waited a moment
  await until(
    "the hands in the file",
    () => readFileSync(data, "utf8"),
    (t) => (parseStored(JSON.parse(t)).hands ?? []).length === 2,
  );
  const before = await until(
    "a waiting time",
    () => stateOf(first.url),
    (v) => v.hands[0]!.waitingS >= 2,
  );
  await first.stop("SIGKILL"); // a crash: nothing is flushed on the way out

  const second = await start(["--data", data]);
  const after = await stateOf(second.url);
  assert.deepEqual(
    after.hands.map((h) => [h.name, h.question]),
    [
      ["Jürgen Böhm", "Mein Retriever findet Lüneburg nicht"],
      ["Maximiliane Dorothea Müller-Lüdenscheidt", "Wo ist das Modell?"],
    ],
  );
  assert.ok(
    after.hands[0]!.waitingS >= before.hands[0]!.waitingS,
    `the waiting time goes on (${before.hands[0]!.waitingS} s before, ${after.hands[0]!.waitingS} s after)`,
  );
  assert.match(second.output(), /2 Teilnehmende, 2 gehobene Hände gespeichert; bleiben bei Neustart erhalten/);

  // lowered on the restarted board (its own browser), it stays lowered after the next restart
  // and the class's Aufgabe set with a key stays set
  assert.equal((await post(second.url, BOARD_LOWER_PATH, { name: "jürgen  böhm" })).status, 200);
  assert.equal((await post(second.url, BOARD_CLASS_PATH, { aufgabe: 3 })).status, 200);
  await second.stop("SIGTERM");
  const third = await start(["--data", data]);
  const view = await stateOf(third.url);
  assert.deepEqual(
    view.hands.map((h) => h.name),
    ["Maximiliane Dorothea Müller-Lüdenscheidt"],
  );
  assert.deepEqual(view.classAufgabe, { aufgabe: 3, by: "kursleitung" });
  await third.stop("SIGTERM");
});

test("an older board file (no hands, no instructor key) still loads; the key is made once and kept", () => {
  const old = parseStored({ version: 1, joinCode: CODE, participants: [] });
  const state = new BoardState(old.joinCode, old.participants, old);
  assert.deepEqual(state.raisedHands(), []);
  assert.match(state.instructorKey, /^[A-Za-z0-9_-]{32}$/);
  const again = parseStored(JSON.parse(JSON.stringify(state.data())));
  assert.equal(new BoardState(again.joinCode, again.participants, again).instructorKey, state.instructorKey);
  assert.notEqual(new BoardState(CODE).instructorKey, state.instructorKey, "each new board has its own key");
});

test("from another machine: without the instructor's key refused in German; with it lowering and the Aufgabe work", async (t) => {
  if (!lanAddress) return t.skip("no non-loopback address on this machine");
  const data = join(dir, "raum.json");
  const board = await start(["--data", data, "--host", "0.0.0.0", "--allowed-host", lanAddress]);
  const port = new URL(board.url).port;
  const remote = `http://${lanAddress}:${port}/`;
  const link = printedLink(board);
  assert.equal(link.host, `${lanAddress}:${port}`, "the link names the address the room reaches");
  const key = keyOf(link);
  assert.ok(key, `a 32-character key in the fragment: ${link.href}`);
  assert.equal(JSON.parse(readFileSync(data, "utf8")).instructorKey, key, "kept in the board's file");

  for (const name of ["Özlem Yıldırım", "Ben Schröder"])
    await hilfe("Hilfe bei Aufgabe 2", { settings: { url: remote, name, code: CODE }, log: silent });
  const refusedAs = async (headers: Record<string, string>) => {
    const lower = await post(remote, BOARD_LOWER_PATH, { name: "Özlem Yıldırım" }, headers);
    const aufgabe = await post(remote, BOARD_CLASS_PATH, { aufgabe: 3 }, headers);
    assert.deepEqual([lower.status, aufgabe.status], [403, 403], JSON.stringify(headers));
    assert.match(
      ((await lower.json()) as { fehler: string }).fehler,
      /^Nur die Kursleitung kann das – mit dem Kursleitungs-Link aus dem Terminal des Boards/,
    );
  };
  await refusedAs({});
  assert.equal((await fetch(new URL(BOARD_JOIN_INFO_PATH, remote))).status, 403, "the join line only with the key");
  const joinInfo = await fetch(new URL(BOARD_JOIN_INFO_PATH, remote), { headers: { [BOARD_INSTRUCTOR_HEADER]: key } });
  assert.match(
    ((await joinInfo.json()) as { beitritt: string }).beitritt,
    new RegExp(`--code <span id="beitritt-code">${CODE}<`),
  );
  await refusedAs({ [BOARD_CODE_HEADER]: CODE }); // a participant knows the join code
  await refusedAs({ [BOARD_INSTRUCTOR_HEADER]: CODE });
  await refusedAs({ [BOARD_INSTRUCTOR_HEADER]: `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}` }); // one character off
  let view = await stateOf(remote);
  assert.equal(view.hands.length, 2);
  assert.notEqual(view.classAufgabe?.by, "kursleitung");

  const withKey = { [BOARD_INSTRUCTOR_HEADER]: key };
  assert.equal((await post(remote, BOARD_LOWER_PATH, { name: "Özlem Yıldırım" }, withKey)).status, 200);
  assert.equal((await post(remote, BOARD_CLASS_PATH, { aufgabe: 3 }, withKey)).status, 200);
  view = await stateOf(remote);
  assert.deepEqual(
    view.hands.map((h) => h.name),
    ["Ben Schröder"],
  );
  assert.deepEqual(view.classAufgabe, { aufgabe: 3, by: "kursleitung" });

  // this machine's own browser needs no key
  assert.equal((await post(board.url, BOARD_CLASS_PATH, { aufgabe: null })).status, 200);
  assert.equal((await stateOf(remote)).classAufgabe?.by ?? "mehrheit", "mehrheit");

  if (!browser) return t.skip("no Chromium");
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    // a participant's view from another machine: no buttons, keys do nothing
    await page.goto(remote);
    await page.locator(".hand-eintrag").first().waitFor();
    assert.equal(await page.locator("button.hand-eintrag").count(), 0);
    assert.equal(await page.locator("#beitritt, #qr").count(), 0, "no join code for a participant's tab");
    await page.keyboard.press("2");
    // the instructor's link: the key leaves the address bar at once, stays for the tab (a reload keeps it)
    await page.goto(link.href);
    await page.locator("button.hand-eintrag").first().waitFor();
    assert.equal(page.url(), remote, "the key is not left in the address bar the projector shows");
    // the projector on another machine shows the join line and QR code, as on the board's machine
    await page.locator("#beitritt").waitFor();
    assert.match(
      await page.locator("#beitritt").innerText(),
      new RegExp(`--kurs http://${lanAddress}:${port} .*--code ${CODE}`),
    );
    assert.equal(await page.locator("#qr svg").count(), 1);
    assert.match(await page.locator("#hilfe").innerText(), /Klick oder Taste H: erledigt/);
    await page.reload();
    await page.keyboard.press("4");
    await page.locator("#klasse", { hasText: "Aufgabe 4 (festgelegt" }).waitFor();
    await page.locator("button.hand-eintrag", { hasText: "Ben Schröder" }).click();
    await page.locator("#hilfe").waitFor({ state: "hidden" });
    assert.deepEqual((await stateOf(remote)).hands, []);
    assert.equal(await page.locator("#kursleitung-fehler").innerText(), "");
  } finally {
    await page.close();
  }
});

test("Klassenraum mode: the kernels share this machine, so even loopback needs the instructor's link", async () => {
  const data = join(dir, "klassenraum.json");
  const room = ["--raum", "http://192.0.2.10:8000/hub/login"];
  const board = await start(["--data", data, ...room]);
  const key = keyOf(printedLink(board));
  assert.equal(printedLink(board).host, new URL(board.url).host, "the link is the projector's address on this machine");
  await hilfe("Kernel hängt", { settings: { url: board.url, name: "Clara Weiß", code: CODE }, log: silent });
  const refused = await post(board.url, BOARD_LOWER_PATH, { name: "Clara Weiß" }, { [BOARD_CODE_HEADER]: CODE });
  assert.equal(refused.status, 403);
  assert.match(((await refused.json()) as { fehler: string }).fehler, /Kursleitungs-Link/);
  assert.equal((await post(board.url, BOARD_CLASS_PATH, { aufgabe: 2 })).status, 403);
  const page = await fetch(board.url);
  assert.doesNotMatch(
    await page.text(),
    /data-kursleitung/,
    "the page does not make a loopback browser the instructor",
  );
  assert.equal(
    (await post(board.url, BOARD_LOWER_PATH, { name: "Clara Weiß" }, { [BOARD_INSTRUCTOR_HEADER]: key })).status,
    200,
  );
  assert.deepEqual((await stateOf(board.url)).hands, []);

  // a link that got out: --neuer-kursleitungs-link makes a new one, the old one is refused from then on
  await board.stop("SIGTERM");
  const renewed = await start(["--data", data, ...room, "--neuer-kursleitungs-link"]);
  const newKey = keyOf(printedLink(renewed));
  assert.notEqual(newKey, key);
  const aufgabe = (k: string) => post(renewed.url, BOARD_CLASS_PATH, { aufgabe: 2 }, { [BOARD_INSTRUCTOR_HEADER]: k });
  assert.equal((await aufgabe(key)).status, 403);
  assert.equal((await aufgabe(newKey)).status, 200);
});
