// A raised hand and the class's Aufgabe: `hilfe("…")` from two participants against the real board
// subprocess, the queue with waiting time on the page in real Chromium, the instructor lowering hands with
// a click and the key H and setting the class's Aufgabe with a key ("zurück" for those before it);
// what a participant may not do (lower hands, set the Aufgabe, send a multi-line question); hilfe()
// without a board.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { hilfe } from "../../lib/exercises/index.js";
import {
  BOARD_CODE_HEADER,
  BOARD_POST_PATH,
  BOARD_QUESTION_MAX,
  type BoardRecord,
} from "../../lib/exercises/board-record.js";
import { BOARD_CLASS_PATH, BOARD_LOWER_PATH } from "../../scripts/apps/board/server.js";
import type { BoardView } from "../../scripts/apps/board/state.js";
import { startBoardWithBrowser, stopBoardWithBrowser, type BoardProcess } from "../helpers/board-process.js";
import { runCommand } from "../helpers/run-script.js";

const CODE = "hand-hoch-test-5";
const dir = mkdtempSync(join(tmpdir(), "board-hilfe-"));
let board: BoardProcess;
let browser: Browser | undefined;
const lines: string[] = [];
const log = (line: string) => lines.push(line);
const as = (name: string) => ({ settings: { url: board.url, name, code: CODE }, log });

async function state(): Promise<BoardView> {
  return (await (await fetch(new URL("/api/state", board.url))).json()) as BoardView;
}
async function report(name: string, aufgabe: BoardRecord["aufgabe"], check: string): Promise<void> {
  const record: BoardRecord = { name, aufgabe, check, passed: 3, failed: 0, at: new Date().toISOString() };
  const r = await fetch(new URL(BOARD_POST_PATH, board.url), {
    method: "POST",
    headers: { "content-type": "application/json", [BOARD_CODE_HEADER]: CODE },
    body: JSON.stringify(record),
  });
  assert.equal(r.status, 200);
}

before(async () => {
  ({ board, browser } = await startBoardWithBrowser(["--code", CODE, "--data", join(dir, "ergebnisse.json")]));
});

after(() => stopBoardWithBrowser({ board, browser }, dir));

test("hilfe() without a board says so in German and sends nothing", async () => {
  const result = await hilfe("Wo ist das Modell?", { settings: undefined, log });
  // settings undefined falls back to the environment: make sure there is no board there
  assert.equal(process.env.KURS_BOARD ?? "", "");
  assert.equal(result.ok, false);
  assert.match(result.text, /Kein Klassen-Board eingerichtet .* melde dich einfach bei der Kursleitung/);
  const unreachable = await hilfe("x", {
    settings: { url: "http://127.0.0.1:9", name: "Anna Schmidt", code: CODE },
    log,
  });
  assert.match(unreachable.text, /nicht erreichbar – melde dich bitte direkt/);
  const wrongCode = await hilfe("x", { settings: { url: board.url, name: "Anna Schmidt", code: "falsch-1234" }, log });
  assert.match(wrongCode.text, /abgelehnt \(Beitrittscode fehlt oder ist falsch\)/);
});

test("two hands go up (joining the board if needed); the queue keeps the order and shows the question on one line", async () => {
  await report("Jürgen Böhm", 1, "buildMessages");
  const first = await hilfe("Mein trimHistory\nkürzt zu viel", as("Jürgen Böhm"));
  assert.equal(first.ok, true);
  assert.match(first.text, /^✋ Hand gehoben: Die Kursleitung sieht dich auf dem Board\./);
  const second = await hilfe("x".repeat(500), as("Maximiliane Dorothea Müller-Lüdenscheidt"));
  assert.match(second.text, /vor dir warten 1/);
  const again = await hilfe("Schon gelöst?", as("Jürgen Böhm"));
  assert.match(
    again.text,
    /^✋ Hand gehoben: Die Kursleitung sieht dich auf dem Board\. /,
    "asking again keeps the place",
  );
  const view = await state();
  assert.deepEqual(
    view.hands.map((h) => h.name),
    ["Jürgen Böhm", "Maximiliane Dorothea Müller-Lüdenscheidt"],
  );
  assert.equal(view.hands[0]!.question, "Schon gelöst?");
  assert.equal([...view.hands[1]!.question].length, BOARD_QUESTION_MAX);
  assert.ok(view.hands.every((h) => h.waitingS >= 0));
  assert.ok(
    view.participants.some(
      (p) => p.name === "Maximiliane Dorothea Müller-Lüdenscheidt" && p.progress.status === "nicht-begonnen",
    ),
    "a hand from someone new puts them on the board",
  );
});

test("a participant cannot lower hands or set the class's Aufgabe from another page (Origin), nor with a wrong shape", async () => {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(new URL(path, board.url), {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  assert.equal((await post(BOARD_LOWER_PATH, { name: "Jürgen Böhm" }, { origin: "http://evil.example" })).status, 403);
  assert.equal((await post(BOARD_CLASS_PATH, { aufgabe: 7 })).status, 400);
  assert.equal((await state()).hands.length, 2);
});

test("--aufgabe takes 1 to 4; anything else is a German usage error", async () => {
  const run = await runCommand("board", ["--port", "0", "--data", join(dir, "x.json"), "--aufgabe", "5"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^--aufgabe: 1, 2, 3 oder 4/);
});

test("the page: the queue with waiting time; a click and the key H lower hands; keys 1 and 0 set the class's Aufgabe", async (t) => {
  if (!browser) return t.skip("no Chromium");
  await report("Clara Weiß", 2, "chunkSentences");
  await report("Ben Schröder", 2, "chunkSentences");
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await page.goto(board.url);
    await page.locator(".hand-eintrag").nth(1).waitFor({ timeout: 10_000 });
    assert.match(await page.locator("#hilfe").innerText(), /✋ Hand gehoben.*Jürgen Böhm · \d+ s · „Schon gelöst\?“/s);
    assert.equal(await page.locator("td.name .hand").count(), 2, "the raised hands show in the rows too");
    assert.match(await page.locator("#klasse").innerText(), /Klasse in Aufgabe 2 \(die meisten/);
    assert.equal(
      await page.locator("tr.person.zurueck td.name").innerText(),
      "✋Jürgen Böhm",
      "behind the class: Aufgabe 1 while most are in 2",
    );

    await page.keyboard.press("1");
    await page.locator("#klasse", { hasText: "Aufgabe 1 (festgelegt" }).waitFor();
    assert.equal(await page.locator("tr.person.zurueck").count(), 0);
    await page.keyboard.press("0");
    await page.locator("#klasse", { hasText: "(die meisten" }).waitFor();

    await page.locator(".hand-eintrag", { hasText: "Müller-Lüdenscheidt" }).click();
    await page.locator(".hand-eintrag").nth(1).waitFor({ state: "detached" });
    await page.keyboard.press("h");
    await page.locator("#hilfe").waitFor({ state: "hidden" });
    assert.deepEqual((await state()).hands, []);
  } finally {
    await page.close();
  }
});
