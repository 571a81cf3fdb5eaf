// Joining the class board: the kit's own join path (kursStatusLine, which `npm run workshop` runs at start)
// against the real board subprocess puts the name on the board at once, and real Chromium shows the row as
// "nicht begonnen"; the kernel's first result (BoardReporter) moves it to "hängt" or "in Arbeit"; a refused
// name (look-alike, invisible characters) is said in German and not registered; the most-common-failure
// line names the check by its German title. The join's limits (new names per address, the cap) in process.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { BoardReporter } from "../../lib/exercises/index.js";
import { BOARD_CODE_HEADER, BOARD_JOIN_PATH } from "../../lib/exercises/board-record.js";
import { MAX_PARTICIPANTS, NEW_NAMES_PER_ADDRESS_BURST } from "../../scripts/apps/board/server.js";
import { BoardState, type BoardView } from "../../scripts/apps/board/state.js";
import { kursStatusLine } from "../../scripts/apps/workshop/kurs-config.js";
import {
  startBoardInProcess,
  startBoardWithBrowser,
  stopBoardWithBrowser,
  type BoardProcess,
} from "../helpers/board-process.js";

const CODE = "beitritt-test-code-7";
const dir = mkdtempSync(join(tmpdir(), "board-join-"));
let board: BoardProcess;
let browser: Browser | undefined;
let page: Page | undefined;

before(async () => {
  ({ board, browser } = await startBoardWithBrowser(["--code", CODE, "--data", join(dir, "ergebnisse.json")]));
  page = await browser?.newPage({ viewport: { width: 1280, height: 720 } });
  await page?.goto(board.url);
});

after(() => stopBoardWithBrowser({ board, browser }, dir));

/** What `npm run workshop -- --kurs … --name NAME --code …` prints after joining. */
const joinAs = (name: string) => kursStatusLine({ KURS_BOARD: board.url, KURS_NAME: name, KURS_CODE: CODE });

async function view(): Promise<BoardView> {
  return (await (await fetch(new URL("/api/state", board.url))).json()) as BoardView;
}

/** Waits until the page shows `name`'s row as `status` (its class; the page polls every 2 s). */
async function rowBecomes(name: string, status: string): Promise<void> {
  await page!.locator(`tr.person.${status}`).getByText(name, { exact: true }).waitFor({ timeout: 10_000 });
}

test("joining with npm run workshop's line puts the name on the board; the browser shows it as „nicht begonnen“", async (t) => {
  if (page) {
    assert.match(
      await page.locator(".hinweis").innerText(),
      /Noch niemand beigetreten – wer npm run workshop mit --kurs startet/,
    );
    await page.screenshot({ path: join(dir, "leer-1280x720.png") });
  }
  const line = await joinAs("Anna");
  assert.match(line!, /Code stimmt ✅ – „Anna“ steht jetzt auf dem Board \(nicht begonnen\)/); // before: only "Code stimmt ✅"
  assert.match((await joinAs("Ben"))!, /„Ben“ steht jetzt auf dem Board/);
  assert.match(
    (await joinAs(" anna "))!,
    /„Anna“ steht schon auf dem Board/,
    "the same name again (a restart) is the same row",
  );
  const anna = (await view()).participants.find((p) => p.name === "Anna");
  assert.equal(anna?.progress.status, "nicht-begonnen"); // before: not on the board until a first result
  assert.equal((await view()).participants.length, 2);
  if (!page) return t.skip("no Chromium");
  await rowBecomes("Anna", "nicht-begonnen");
  await rowBecomes("Ben", "nicht-begonnen");
  const cells = await page.locator("tr.nicht-begonnen td.zelle").evaluateAll((tds) => tds.map((td) => td.className));
  assert.deepEqual(new Set(cells), new Set(["zelle leer"]));
  await page.screenshot({ path: join(dir, "beitritt-1280x720.png") });
});

test("a first result moves the row: a ❌ to „hängt“, a ✅ to „in Arbeit“; the top line names the check in German", async (t) => {
  const report = (name: string, functionName: string, failed: number) =>
    new BoardReporter({ url: board.url, name, code: CODE }).report({ functionName, passed: 2, failed }, (hint) =>
      assert.fail(hint),
    );
  await report("Anna", "hitAtK", 2);
  await report("Ben", "chunkSentences", 0);
  let v = await view();
  for (let i = 0; i < 50 && v.participants.some((p) => p.progress.status === "nicht-begonnen"); i++) {
    await new Promise((r) => setTimeout(r, 100));
    v = await view();
  }
  assert.deepEqual(v.topFailing, { aufgabe: 2, check: "hitAtK", title: "Trefferquote hit@k", people: 1 });
  if (!page) return t.skip("no Chromium");
  await rowBecomes("Anna", "haengt");
  await rowBecomes("Ben", "arbeitet");
  const top = (await page.locator("#top").innerText()).replace(/\u00a0/g, " "); // the count stays with "Person"
  assert.equal(top, "Häufigstes ❌ gerade: Aufgabe 2 · „Trefferquote hit@k“ – 1 Person"); // before: "… · hitAtK – 1 Person"
  await page.screenshot({ path: join(dir, "erstes-ergebnis-1280x720.png") });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: join(dir, "erstes-ergebnis-1920x1080.png") });
});

test("a refused name is said in German and not registered (look-alike, invisible characters)", async () => {
  const lookAlike = await joinAs("\u0410nna"); // Cyrillic А
  assert.match(lookAlike!, /❌ Name nicht angenommen: Der Name sieht aus wie „Anna“.* – neu setzen mit --name <Name>/); // before: "Code stimmt ✅"
  const invisible = await joinAs("Clara\u200b");
  assert.match(invisible!, /❌ Name nicht angenommen: Der Name enthält unsichtbare Zeichen/);
  assert.doesNotMatch(`${lookAlike}${invisible}`, /Code stimmt|steht jetzt/);
  assert.deepEqual((await view()).participants.map((p) => p.name).sort(), ["Anna", "Ben"]);
  const hints: string[] = [];
  const kernel = new BoardReporter({ url: board.url, name: "\u0410nna", code: CODE });
  // a hint whose answer came after the run's short wait shows in the kernel's next run
  for (let i = 0; i < 20 && hints.length === 0; i++) {
    await kernel.report({ functionName: "buildMessages", passed: 1, failed: 0 }, (l) => hints.push(l));
    if (hints.length === 0) await new Promise((r) => setTimeout(r, 200));
  }
  assert.match(hints.join("\n"), /Meldung abgelehnt \(Der Name sieht aus wie „Anna“/, "the kernel says why, too"); // before: "(HTTP 409)"
  const wrongCode = await kursStatusLine({ KURS_BOARD: board.url, KURS_NAME: "Dora", KURS_CODE: "falsch" });
  assert.match(wrongCode!, /Beitrittscode falsch/);
  assert.equal((await view()).participants.length, 2);
});

test("an older kit (no name sent) only has its code checked; a malformed join is a German 400", async () => {
  const ask = (body: string, code = CODE) =>
    fetch(new URL(BOARD_JOIN_PATH, board.url), { method: "POST", headers: { [BOARD_CODE_HEADER]: code }, body });
  const plain = await fetch(new URL(BOARD_JOIN_PATH, board.url), {
    method: "POST",
    headers: { [BOARD_CODE_HEADER]: CODE },
  });
  assert.deepEqual(await plain.json(), { ok: true });
  for (const body of ['{"name": 7}', '{"name": "Eva", "rolle": "admin"}', "[]"]) {
    const answer = await ask(body);
    assert.equal(answer.status, 400, body);
    assert.match(((await answer.json()) as { fehler: string }).fehler, /nicht die erwartete Form/);
  }
  assert.equal((await ask('{"name": "Eva"}', "falsch")).status, 403);
  assert.equal((await view()).participants.length, 2);
});

test("joining keeps the board's limits: new names per address, and at most MAX_PARTICIPANTS", async () => {
  const state = new BoardState(CODE);
  const server = await startBoardInProcess(state);
  try {
    const joinFrom = (name: string) => kursStatusLine({ KURS_BOARD: server.url, KURS_NAME: name, KURS_CODE: CODE });
    for (let i = 0; i < NEW_NAMES_PER_ADDRESS_BURST; i++) assert.match((await joinFrom(`Flut ${i}`))!, /steht jetzt/);
    assert.match(
      (await joinFrom("Flut zuviel"))!,
      /⚠️ Board gerade ausgelastet \(Zu viele neue Namen von diesem Rechner .*\) – dein Name erscheint mit deinem ersten Selbsttest/,
    );
    assert.match((await joinFrom("Flut 0"))!, /steht schon/, "a name already there still joins");
    assert.equal(state.size, NEW_NAMES_PER_ADDRESS_BURST);

    for (let i = state.size; i < MAX_PARTICIPANTS; i++) state.join(`Platz ${i}`, Date.now());
    assert.match(
      (await joinFrom("Nummer Dreihunderteins"))!,
      /❌ Nicht auf dem Board: Das Board ist voll \(300 Teilnehmende\)\. Kursleitung: npm run board -- --entfernen NAME\. Abschalten/,
    );
    assert.equal(state.size, MAX_PARTICIPANTS);
  } finally {
    await server.close();
  }
});
