// The class board as an instructor projects it: the real board subprocess on loopback with 30 participants
// (stored results of every kind: stuck with ❌, stuck for lack of a ✅, in progress, not started, done),
// the page in real Chromium at 1920×1080 and 1280×720: every row on the screen, the join code and URL on
// one line each, stuck above done, the QR code decodes (jsQR) to the join URL, the loopback warning on
// the page and the console, and the join line collapses with the key B.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { MIN_FONT_SCREEN_SHARE } from "../../scripts/apps/board/page.js";
import {
  openBoardPage,
  startBoardWithBrowser,
  stopBoardWithBrowser,
  type BoardProcess,
} from "../helpers/board-process.js";
import { decodeBoardQr } from "../helpers/board-qr.js";
import { boardSeed } from "../helpers/board-seed.js";
import { runCommand } from "../helpers/run-script.js";

const CODE = "projektor-test-code-42";
const STUCK_AFTER_MIN = 15;
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;

const FIRST = [
  "Anna",
  "Ben",
  "Clara",
  "David",
  "Emil",
  "Fatma",
  "Greta",
  "Hannes",
  "Ida",
  "Jonas",
  "Kira",
  "Luca",
  "Mia",
  "Noah",
  "Olga",
  "Paul",
  "Quirin",
  "Rosa",
  "Sami",
  "Tilda",
  "Umut",
  "Vera",
  "Wim",
  "Xenia",
  "Yusuf",
  "Zoe",
  "Aylin",
  "Bruno",
  "Cem",
];
const LONG_NAME = "Maximiliane Mustermann-Lüdenscheid";

/** 30 participants: who is who, as the board should classify them. */
const people = {
  failing: FIRST.slice(0, 5), // a ❌ in Aufgabe 2
  overdue: FIRST[5]!, // Aufgabe 2 half done, last ✅ 25 min ago (limit 15)
  working: FIRST.slice(6, 16), // Aufgabe 2 half done, last ✅ 12 min ago or less
  notStarted: FIRST.slice(16, 18),
  done: [...FIRST.slice(18), LONG_NAME], // Aufgabe 2 complete (the long name with an old ❌ in Aufgabe 1)
};

const dir = mkdtempSync(join(tmpdir(), "board-projector-"));
const dataFile = join(dir, "ergebnisse.json");
let board: BoardProcess;
let browser: Browser | undefined;

/** Writes the board's data file through the board's own state (the stored format stays the board's). */
function seed(now: number): void {
  const { state, run } = boardSeed(CODE, now);
  for (const [i, name] of people.failing.entries()) {
    run(name, 1, 4, 0, 40);
    run(name, 2, 1 + (i % 3), 2, 1 + i);
  }
  run(people.overdue, 1, 4, 0, 50);
  run(people.overdue, 2, 2, 0, 25);
  for (const [i, name] of people.working.entries()) {
    run(name, 1, 4, 0, 40);
    run(name, 2, 1 + (i % 3), 0, 12 - i);
  }
  for (const name of people.done) {
    run(name, 1, 4, 0, 40);
    if (name === LONG_NAME) run(name, 1, 1, 1, 30);
    run(name, 2, 4, 0, 3);
  }
  const data = state.data();
  for (const name of people.notStarted) data.participants.push({ name, checks: [], lastOkAt: null, lastSeenAt: now });
  writeFileSync(dataFile, JSON.stringify(data));
}

before(async () => {
  seed(Date.now());
  const args = ["--code", CODE, "--data", dataFile, "--haengt-nach", String(STUCK_AFTER_MIN)];
  ({ board, browser } = await startBoardWithBrowser(args));
});

after(() => stopBoardWithBrowser({ board, browser }, dir));

const openBoard = (size: { width: number; height: number }) => openBoardPage(browser!, board.url, size, 30);

test("the console says in German that participants cannot reach a loopback board, and how to start it", () => {
  assert.match(
    board.output(),
    /WARNUNG: Das Board läuft nur auf diesem Rechner \(127\.0\.0\.1\) – die Laptops der Teilnehmenden können es so nicht erreichen/,
  );
  assert.match(board.output(), /npm run board -- --host 0\.0\.0\.0 --allowed-host \S+/);
});

test("--haengt-nach takes whole minutes; anything else is a German usage error", async () => {
  const run = await runCommand("board", ["--port", "0", "--data", dataFile, "--haengt-nach", "zehn"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /^--haengt-nach: Minuten als ganze Zahl von 1 bis 600/);
});

for (const size of SIZES) {
  test(`30 participants at ${size.width}×${size.height}: all on the screen, stuck first, join line whole, QR = join URL`, async (t) => {
    if (!browser) return t.skip("no Chromium");
    const page = await openBoard(size);
    try {
      await page.screenshot({ path: join(dir, `board-${size.width}x${size.height}.png`) });
      const fit = (await page.evaluate(`({
        scrollW: document.documentElement.scrollWidth, scrollH: document.documentElement.scrollHeight,
        font: parseFloat(getComputedStyle(document.querySelector("td.zelle")).fontSize),
        rows: [...document.querySelectorAll("tr.person")].map((tr) => {
          const r = tr.getBoundingClientRect();
          return { name: tr.querySelector("td.name").textContent, status: tr.className.replace("person ", ""),
            left: r.left, top: r.top, right: r.right, bottom: r.bottom, overdue: !!tr.querySelector("td.ueberfaellig") };
        }),
      })`)) as {
        scrollW: number;
        scrollH: number;
        font: number;
        rows: {
          name: string;
          status: string;
          left: number;
          top: number;
          right: number;
          bottom: number;
          overdue: boolean;
        }[];
      };
      assert.equal(fit.rows.length, 30);
      for (const r of fit.rows) {
        assert.ok(
          r.left >= 0 && r.top >= 0 && r.right <= size.width && r.bottom <= size.height,
          `${r.name}'s row ${JSON.stringify(r)} is off the screen`,
        );
      }
      assert.ok(
        fit.scrollW <= size.width && fit.scrollH <= size.height,
        `the page scrolls: ${fit.scrollW}×${fit.scrollH}`,
      );
      const minFont = size.height / MIN_FONT_SCREEN_SHARE.height; // 20 px at 720p, 30 px at 1080p
      assert.ok(fit.font >= minFont - 0.01, `cell text ${fit.font}px, below ${minFont}px`);

      // the projector order: stuck (longest without ✅ first), in progress, not started, done
      const status = new Map(fit.rows.map((r) => [r.name, r.status]));
      for (const name of people.failing) assert.equal(status.get(name), "haengt", name);
      assert.equal(status.get(people.overdue), "haengt");
      for (const name of people.working) assert.equal(status.get(name), "arbeitet", name);
      for (const name of people.notStarted) assert.equal(status.get(name), "nicht-begonnen", name);
      for (const name of people.done) assert.equal(status.get(name), "fertig", name);
      const order = ["haengt", "arbeitet", "nicht-begonnen", "fertig"];
      const ranks = fit.rows.map((r) => order.indexOf(r.status));
      assert.deepEqual(
        ranks,
        [...ranks].sort((a, b) => a - b),
        "rows in the order stuck, in progress, not started, done",
      );
      assert.equal(fit.rows[0]!.name, people.overdue, "the one longest without ✅ is on top");
      assert.deepEqual(
        fit.rows.filter((r) => r.overdue).map((r) => r.name),
        [people.overdue],
        "only the overdue time is highlighted",
      );
      const stuck = fit.rows.find((r) => r.name === people.failing[0])!;
      const finished = fit.rows.find((r) => r.name === people.done[0])!;
      assert.ok(
        stuck.top < finished.top || stuck.right <= finished.left,
        "the stuck participant is above (or a column before) the finished one",
      );
      const notStartedCells = await page
        .locator("tr.nicht-begonnen td.zelle")
        .evaluateAll((tds) => tds.map((td) => td.className));
      assert.deepEqual(new Set(notStartedCells), new Set(["zelle leer"]));

      // the join line: URL and code never broken, the QR code is the join URL
      const joinUrl = await page.locator("#beitritt-url").innerText();
      assert.equal(joinUrl, board.url.replace(/\/$/, ""));
      for (const id of ["#beitritt-code", "#beitritt-url"]) {
        const lines = await page.locator(id).evaluate((e) => e.getClientRects().length);
        assert.equal(lines, 1, `${id} is broken over ${lines} lines`);
      }
      assert.equal(await page.locator("#beitritt-code").innerText(), CODE);
      assert.equal(await decodeBoardQr(browser!, page), joinUrl);

      // bound to 127.0.0.1: the page says participants cannot reach it, and how to start it
      assert.match(
        await page.locator("#nur-lokal").innerText(),
        /Laptops der Teilnehmenden können es so nicht erreichen.*--host 0\.0\.0\.0 --allowed-host/s,
      );
    } finally {
      await page.close();
    }
  });
}

test("at every screen width from 960 to 1920 px the join URL and the code stay on one line each", async (t) => {
  if (!browser) return t.skip("no Chromium");
  const page = await openBoard({ width: 1280, height: 720 });
  try {
    const broken: string[] = [];
    for (let width = 960; width <= 1920; width += 8) {
      await page.setViewportSize({ width, height: Math.round((width * 9) / 16) });
      const lines = (await page.evaluate(
        `["beitritt-url", "beitritt-code"].map((id) => document.getElementById(id).getClientRects().length)`,
      )) as number[];
      if (lines.some((n) => n !== 1)) broken.push(`${width} px: ${lines.join("/")} lines`);
    }
    assert.deepEqual(broken, []);
  } finally {
    await page.close();
  }
});

test("after the start phase the join line collapses (key B or the button); the code stays, the board grows", async (t) => {
  if (!browser) return t.skip("no Chromium");
  const page = await openBoard({ width: 1280, height: 720 });
  try {
    const font = () =>
      page.evaluate(`parseFloat(getComputedStyle(document.querySelector("td.zelle")).fontSize)`) as Promise<number>;
    const before = await font();
    await page.keyboard.press("b");
    assert.equal(await page.locator(".beitritt .lang").isVisible(), false);
    assert.equal(await page.locator("#qr").isVisible(), false);
    assert.equal(await page.locator(".beitritt .kurz").innerText(), `Beitrittscode: ${CODE}`);
    assert.ok((await font()) >= before, "the board keeps or gains room");
    await page.screenshot({ path: join(dir, "board-1280x720-eingeklappt.png") });
    await page.reload();
    await page.locator("tr.person").nth(29).waitFor();
    assert.equal(await page.locator("#qr").isVisible(), false, "collapsed stays collapsed after a reload");
    await page.locator("#beitritt-knopf").click();
    assert.equal(await page.locator("#qr").isVisible(), true);
    assert.equal(await page.locator(".beitritt .lang").isVisible(), true);
  } finally {
    await page.close();
  }
});
