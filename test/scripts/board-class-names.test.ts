// The board with a real class: 30 participants named "Vorname Nachname" (umlauts, a 40-character name) in
// every state the board knows, the real board subprocess, the page in real Chromium at 1280×720 and
// 1920×1080: every row on the screen, every name whole (never cut, a long one wrapped to at most two
// lines), the width used; a poll that brings no news keeps the layout and the scroll position.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { hilfe } from "../../lib/exercises/index.js";
import {
  openBoardPage,
  startBoardWithBrowser,
  stopBoardWithBrowser,
  type BoardProcess,
} from "../helpers/board-process.js";
import { boardSeed } from "../helpers/board-seed.js";

const CODE = "klasse-namen-test-7";
const MINUTE = 60_000;
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

/** A real class list: "Vorname Nachname", umlauts, double names, the longest exactly 40 characters. */
export const CLASS_NAMES = [
  "Anna-Lena Schäfer-Wöhrmann von Lüdensch", // 39
  "Maximiliane Dorothea Müller-Lüdenscheidt", // 40
  "Emma Zimmermann",
  "Jürgen Böhm",
  "Özlem Yıldırım",
  "Ben Schröder",
  "Clara Weiß",
  "David Krüger",
  "Fatma Demir",
  "Greta Hoffmann",
  "Hannes Oberländer",
  "Ida Kowalczyk",
  "Jonas Fischer",
  "Kira Nguyen",
  "Luca Schmitz",
  "Mia-Sophie Bäcker",
  "Noah Große",
  "Olga Iwanowa",
  "Paul Friedrichsen",
  "Quirin Huber",
  "Rosa Lindqvist",
  "Sami Haddad",
  "Tilda Möller",
  "Umut Aydın",
  "Vera Schulze-Everding",
  "Wim de Vries",
  "Xenia Papadopoulou",
  "Yusuf Çelik",
  "Zoë Brandstätter",
  "Bruno Käßmann",
];

const dir = mkdtempSync(join(tmpdir(), "board-class-"));
const dataFile = join(dir, "ergebnisse.json");
let board: BoardProcess;
let browser: Browser | undefined;

/** 30 participants in mixed states: ❌ in Aufgabe 2, overdue, working, not started, done, behind in Aufgabe 1. */
function seed(now: number): void {
  const { state, run } = boardSeed(CODE, now);
  CLASS_NAMES.forEach((name, i) => {
    const kind = i % 6;
    if (kind === 5 && i > 20) return; // not started
    run(name, 1, 4, 0, 40);
    if (kind === 0)
      run(name, 2, 1, 2, 2); // ❌
    else if (kind === 1)
      run(name, 2, 2, 0, 25); // overdue
    else if (kind === 2 || kind === 3)
      run(name, 2, 1 + (i % 3), 0, 3); // working
    else if (kind === 4) run(name, 2, 4, 0, 5); // done with Aufgabe 2
    if (i === 4) run(name, 4, 1, 0, 1); // ahead: all four Aufgaben on the board
    // kind 5 (early in the list): finished Aufgabe 1 long ago, never began Aufgabe 2
  });
  const data = state.data();
  for (const name of CLASS_NAMES)
    if (!state.has(name)) data.participants.push({ name, checks: [], lastOkAt: null, lastSeenAt: now - 20 * MINUTE });
  writeFileSync(dataFile, JSON.stringify(data));
}

before(async () => {
  seed(Date.now());
  // as on the day: open to the course network (so no "nur dieser Rechner" warning), the projector on this machine
  ({ board, browser } = await startBoardWithBrowser([
    "--code",
    CODE,
    "--data",
    dataFile,
    "--host",
    "0.0.0.0",
    "--allowed-host",
    "127.0.0.1",
  ]));
  // two raised hands: the queue takes its line above the tables too
  const silent = () => undefined;
  for (const name of ["Özlem Yıldırım", CLASS_NAMES[1]!]) {
    await hilfe("Mein Retriever findet den Absatz über Lüneburg nicht", {
      settings: { url: board.url, name, code: CODE },
      log: silent,
    });
  }
});

after(() => stopBoardWithBrowser({ board, browser }, dir));

const openBoard = (size: { width: number; height: number }) => openBoardPage(browser!, board.url, size, 30);

interface NameBox {
  name: string;
  shown: string;
  hand: boolean;
  cut: boolean;
  lines: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Each row's name as shown: its text, whether it is cut (ellipsis or overflow), its lines and its box. */
function names(page: Page): Promise<NameBox[]> {
  return page.evaluate(`[...document.querySelectorAll("tr.person")].map((tr) => {
    const td = tr.querySelector("td.name");
    const r = tr.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(td.querySelector(".name-text") ?? td);
    const lineTops = new Set([...range.getClientRects()].map((b) => Math.round(b.top)));
    return { name: td.title.split(" – ")[0], shown: (td.querySelector(".name-text") ?? td).textContent,
      hand: !!td.querySelector(".hand"),
      cut: td.scrollWidth > td.clientWidth + 1 || getComputedStyle(td).textOverflow === "ellipsis" && td.scrollWidth > td.clientWidth,
      lines: lineTops.size, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  })`) as Promise<NameBox[]>;
}

for (const size of SIZES) {
  test(`a real class at ${size.width}×${size.height}: 30 "Vorname Nachname" rows all on the screen, every name whole`, async (t) => {
    if (!browser) return t.skip("no Chromium");
    const page = await openBoard(size);
    try {
      if (process.env.BOARD_SHOTS) {
        mkdirSync(process.env.BOARD_SHOTS, { recursive: true });
        await page.screenshot({
          path: join(process.env.BOARD_SHOTS, `board-30-namen-${size.width}x${size.height}.png`),
        });
      }
      const rows = await names(page);
      assert.equal(rows.length, 30);
      assert.deepEqual(new Set(rows.map((r) => r.shown)), new Set(CLASS_NAMES), "every name shown as it is");
      const off = rows
        .filter((r) => r.left < 0 || r.top < 0 || r.right > size.width || r.bottom > size.height)
        .map((r) => r.name);
      assert.deepEqual(off, [], `${off.length} of 30 rows off the screen`);
      const cut = rows.filter((r) => r.cut).map((r) => r.name);
      assert.deepEqual(cut, [], "names cut");
      const wrapped = rows.filter((r) => r.lines > 2).map((r) => `${r.name}: ${r.lines} lines`);
      assert.deepEqual(wrapped, [], "a name takes at most two lines");
      const short = rows.filter((r) => [...r.name].length <= 15 && r.lines > 1).map((r) => r.name);
      assert.deepEqual(short, [], "a short name stays on one line");
      assert.ok(rows.filter((r) => r.lines > 1).length <= 6, "at most a fifth of the names on two lines");
      assert.equal(rows.filter((r) => r.hand).length, 2, "the raised hands show in their rows");
      assert.match(await page.locator("#hilfe").innerText(), /Hand gehoben.*Özlem Yıldırım/s);
      const right = Math.max(...rows.map((r) => r.right));
      assert.ok(
        right >= size.width * 0.75,
        `the board uses the width: rows end at ${Math.round(right)} of ${size.width} px`,
      );
    } finally {
      await page.close();
    }
  });
}

test("a poll without news keeps the layout and the scroll position", async (t) => {
  if (!browser) return t.skip("no Chromium");
  const page = await browser!.newPage({ viewport: { width: 800, height: 450 } });
  try {
    await page.goto(board.url);
    await page.locator("tr.person").nth(29).waitFor({ timeout: 10_000 });
    // a board that does not fit (here: made taller than the screen) scrolls; the instructor scrolls down
    await page.evaluate(
      `document.querySelector("main").style.paddingBottom = "3000px"; dispatchEvent(new Event("resize"))`,
    );
    await page.evaluate("window.scrollTo(0, 1500)");
    const scrolled = (await page.evaluate("window.scrollY")) as number;
    assert.equal(scrolled, 1500, "the page scrolls");
    const layouts = await page.evaluate("document.body.dataset.layouts");
    // two polls rendered: the answer of the third arrives two seconds after the second was shown
    for (let poll = 0; poll < 3; poll++) await page.waitForResponse((r) => r.url().endsWith("/api/state"));
    assert.equal(await page.evaluate("window.scrollY"), scrolled, "the scroll position stays");
    assert.equal(await page.evaluate("document.body.dataset.layouts"), layouts, "no new layout without news");
  } finally {
    await page.close();
  }
});
