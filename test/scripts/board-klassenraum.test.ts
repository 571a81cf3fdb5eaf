// The class board in Klassenraum mode (`npm run klassenraum` starts it with --raum, the hub's login page): the
// real board subprocess on loopback, the page in real Chromium at 1920×1080 and 1280×720. Participants join in
// their browser at the hub, so the page shows the hub's address, the join code and a QR code to the hub's login
// page — no loopback warning and no `npm run workshop` line, on the page or the console.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import { startBoardWithBrowser, stopBoardWithBrowser, type BoardProcess } from "../helpers/board-process.js";
import { decodeBoardQr } from "../helpers/board-qr.js";
import { runCommand } from "../helpers/run-script.js";

const CODE = "klassenraum-test-code-7";
const ROOM_URL = "http://kurs-pc.local:8123/hub/login";
const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
] as const;

const dir = mkdtempSync(join(tmpdir(), "board-klassenraum-"));
const shots = process.env.BOARD_SHOTS_DIR ?? dir;
let board: BoardProcess;
let browser: Browser | undefined;

before(async () => {
  mkdirSync(shots, { recursive: true });
  ({ board, browser } = await startBoardWithBrowser([
    "--code",
    CODE,
    "--data",
    join(dir, "ergebnisse.json"),
    "--raum",
    ROOM_URL,
  ]));
});

after(() => stopBoardWithBrowser({ board, browser }, dir));

test("the console names the hub's login page for participants, without the loopback warning", () => {
  const output = board.output();
  assert.match(output, /Teilnehmende:\s+im Browser anmelden unter http:\/\/kurs-pc\.local:8123\/hub\/login/);
  assert.doesNotMatch(output, /WARNUNG/);
  assert.doesNotMatch(output, /npm run (workshop|board)/);
});

test("--raum takes an http(s) address; anything else is a German usage error", async () => {
  const run = await runCommand("board", ["--port", "0", "--data", join(dir, "x.json"), "--raum", "kurs-pc:8000"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--raum: eine Adresse mit http:\/\/ oder https:\/\//);
});

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} the page shows the hub's address, the code and a QR code to the hub`, async (t) => {
    if (!browser) return t.skip("no Chromium");
    const page = await browser.newPage({ viewport: size });
    try {
      await page.goto(board.url);
      await page.locator("#spalten .hinweis").waitFor({ timeout: 10_000 });
      await page.screenshot({ path: join(shots, `board-klassenraum-${size.width}x${size.height}.png`) });
      assert.equal(await page.locator("#nur-lokal").count(), 0, "no loopback warning");
      const text = await page.locator("body").innerText();
      assert.doesNotMatch(text, /npm run/);
      assert.match(text, /Anmelden im Browser: http:\/\/kurs-pc\.local:8123\/hub\/login/);
      assert.match(await page.locator("#spalten .hinweis").innerText(), /im Browser am Hub anmeldet/);
      assert.equal(await page.locator("#beitritt-url").innerText(), ROOM_URL);
      assert.equal(await page.locator("#beitritt-code").innerText(), CODE);
      for (const id of ["#beitritt-code", "#beitritt-url"]) {
        const lines = await page.locator(id).evaluate((e) => e.getClientRects().length);
        assert.equal(lines, 1, `${id} is broken over ${lines} lines`);
      }
      assert.equal(await page.locator("#qr figcaption").innerText(), "Anmeldeseite");
      assert.equal(await decodeBoardQr(browser, page), ROOM_URL);
      const fit = (await page.evaluate(
        `({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight })`,
      )) as { w: number; h: number };
      assert.ok(fit.w <= size.width && fit.h <= size.height, `page scrolls: ${fit.w}×${fit.h}`);
    } finally {
      await page.close();
    }
  });
}
