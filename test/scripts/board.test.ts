// The class board end to end: the real board subprocess on loopback, 25 simulated participants whose
// self-checks run through the real runner (runChecks with one BoardReporter each), the page in Chromium,
// the refusals (join code, size, shape, rate, Host), a restart after a crash, and the CSV export.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { BoardReporter, type BoardSettings } from "../../lib/exercises/board-report.js";
import { BOARD_CODE_HEADER, BOARD_POST_PATH } from "../../lib/exercises/board-record.js";
import { NotSolvedError, runChecks } from "../../lib/exercises/check-runner.js";
import {
  checkBuildMessages,
  checkTrimHistory,
  type BuildMessagesFn,
  type TrimHistoryFn,
} from "../../lib/exercises/part1-checks.js";
import type { BoardView } from "../../scripts/apps/board/state.js";
import { PER_PARTICIPANT_BURST, WRONG_CODE_BURST } from "../../scripts/apps/board/server.js";
import { runCommand } from "../helpers/run-script.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";
import { correctBuildMessages } from "../helpers/solutions.js";
import { boardRecord } from "../helpers/board-seed.js";

const CODE = "test-code-42";
const PEOPLE = 25;
const HTML_NAME = "<img src=x onerror=document.title=1>";
const FORMULA_NAME = '=HYPERLINK("http://x")';

const dir = mkdtempSync(join(tmpdir(), "board-test-"));
const dataFile = join(dir, "ergebnisse.json");
let board: BoardProcess;

const wrongBuild: BuildMessagesFn = (_system, _turns, question) => [{ role: "user", content: question }];
const emptyTrim: TrimHistoryFn = () => {
  throw new NotSolvedError();
};

const BUILD_TITLE = "Verlauf als Nachrichtenliste";
const nameOf = (i: number) => `Teilnehmer ${String(i).padStart(2, "0")}`;
const settings = (name: string, code = CODE): BoardSettings => ({ url: board.url, name, code });

async function post(body: unknown, headers: Record<string, string> = { [BOARD_CODE_HEADER]: CODE }): Promise<Response> {
  return fetch(new URL(BOARD_POST_PATH, board.url), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function state(): Promise<BoardView> {
  return (await (await fetch(new URL("/api/state", board.url))).json()) as BoardView;
}

/** GET /api/state with its own Host header (fetch would send the URL's). */
function statusWithHost(host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(new URL("/api/state", board.url), { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on("error", reject).end();
  });
}

before(async () => {
  board = await startBoardProcess(["--code", CODE, "--data", dataFile]);
});

after(async () => {
  await board?.stop("SIGKILL");
  if (!process.env.KEEP_BOARD_TEST) rmSync(dir, { recursive: true, force: true });
});

test("25 participants report concurrently through the real self-check runner; /api/state counts them right", async () => {
  const silent = () => undefined;
  await Promise.all(
    Array.from({ length: PEOPLE }, async (_, i) => {
      const reporter = new BoardReporter(settings(nameOf(i)));
      const build = await runChecks(checkBuildMessages.set, i % 5 === 0 ? wrongBuild : correctBuildMessages, {
        board: reporter,
        log: silent,
      });
      assert.equal(build.ok, i % 5 !== 0);
      await runChecks(checkTrimHistory.set, emptyTrim, { board: reporter, log: silent });
    }),
  );
  // A report may still be on its way after its run's short wait; the board shows it within moments.
  const reported = (v: BoardView) =>
    v.participants.reduce((n, p) => n + p.cells[0]!.ok + p.cells[0]!.fail + p.cells[0]!.open, 0);
  let view = await state();
  for (let i = 0; i < 50 && reported(view) < 2 * PEOPLE; i++) {
    await new Promise((r) => setTimeout(r, 100));
    view = await state();
  }
  assert.equal(view.participants.length, PEOPLE);
  for (const [i, p] of view.participants.entries()) {
    assert.equal(p.name, nameOf(i));
    const cell = p.cells[0]!;
    // trimHistory is still the skeleton (NotSolvedError): open, never ❌
    assert.deepEqual(
      [cell.ok, cell.fail, cell.open, cell.total, cell.state],
      i % 5 === 0 ? [0, 1, 1, 4, "rot"] : [1, 0, 1, 4, "teil"],
    );
    assert.deepEqual(
      p.cells.slice(1).map((c) => c.state),
      ["leer", "leer", "leer"],
    );
    assert.equal(p.lastOkAgoS === null, i % 5 === 0);
  }
  assert.deepEqual(view.aufgaben[0], {
    aufgabe: 1,
    checks: ["buildMessages", "trimHistory", "refusalPrompt", "isRefusal"],
    rot: PEOPLE / 5,
    gruen: 0,
  });
  assert.deepEqual(view.topFailing, { aufgabe: 1, check: "buildMessages", title: BUILD_TITLE, people: PEOPLE / 5 });
  assert.deepEqual(
    new Set(view.participants.map((p) => p.progress.status)),
    new Set(["haengt", "arbeitet"]),
    "nobody is stuck for an untouched skeleton",
  );
  assert.equal(view.participants.filter((p) => p.progress.status === "haengt").length, PEOPLE / 5);
});

test("refused: wrong or missing join code, oversized, malformed, extra fields, unknown checks, foreign Host/Origin", async () => {
  const refused = async (response: Response, status: number) => {
    assert.equal(response.status, status);
    const body = (await response.json()) as { fehler?: string; error?: unknown };
    assert.ok(body.fehler ?? body.error, JSON.stringify(body));
  };
  await refused(await post(boardRecord("Eve"), { [BOARD_CODE_HEADER]: "test-code-43" }), 403);
  await refused(await post(boardRecord("Eve"), {}), 403);
  await refused(await post(JSON.stringify({ ...boardRecord("Eve"), pad: "x".repeat(5000) })), 413);
  await refused(await post("{ kein json"), 400);
  await refused(await post({ ...boardRecord("Eve"), code: "console.log(1)" }), 400);
  await refused(await post(boardRecord("Eve", { check: "stealSecrets" })), 400);
  await refused(await post(boardRecord("Eve", { aufgabe: 5 as 1 })), 400);
  await refused(await post(boardRecord("   ")), 400);
  await refused(await post(boardRecord("Eve"), { [BOARD_CODE_HEADER]: CODE, origin: "http://evil.example" }), 403);
  assert.equal(await statusWithHost("evil.example"), 403, "DNS rebinding: a foreign Host header");
  assert.equal(await statusWithHost(new URL(board.url).host), 200);
  assert.ok(!(await state()).participants.some((p) => p.name.includes("Eve")), "nothing refused reached the board");
});

test("a participant who posts too fast is limited; others are not", async () => {
  const statuses = [];
  for (let i = 0; i < PER_PARTICIPANT_BURST + 10; i++) statuses.push((await post(boardRecord("Schnell"))).status);
  const ok = statuses.filter((s) => s === 200).length;
  assert.ok(ok >= PER_PARTICIPANT_BURST && ok <= PER_PARTICIPANT_BURST + 3, `accepted ${ok}`);
  assert.equal(statuses.filter((s) => s === 429).length, statuses.length - ok);
  assert.equal((await post(boardRecord("Langsam"))).status, 200);
});

test("the page in Chromium: one row per participant, counts, colours, names as text (no HTML injection)", async (t) => {
  assert.equal((await post(boardRecord(HTML_NAME))).status, 200);
  assert.equal((await post(boardRecord(FORMULA_NAME, { failed: 1 }))).status, 200);
  if (!existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium")) return t.skip("no Chromium");
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(board.url);
    await page
      .locator("tr.person")
      .nth(PEOPLE + 3)
      .waitFor({ timeout: 10_000 });
    const rows = await page.$$eval("tr.person", (trs) =>
      trs.map((tr) => [...tr.children].map((td) => [td.textContent, td.className])),
    );
    const byName = new Map(rows.map((r) => [r[0]![0], r]));
    assert.deepEqual(
      byName.get(nameOf(1))!.slice(1, 2),
      [["1/4", "zelle teil"]],
      "the skeleton check is open, not ❌; Aufgaben nobody reached are folded",
    );
    assert.deepEqual(byName.get(nameOf(5))![1], ["0/4❌", "zelle rot"]);
    assert.deepEqual(byName.get(HTML_NAME)![1], ["1/4", "zelle teil"], "the HTML name shows as its own text");
    assert.equal(await page.locator("#spalten img").count(), 0);
    assert.notEqual(await page.title(), "1");
    assert.match(await page.locator("#top").innerText(), new RegExp(`Aufgabe 1 · „${BUILD_TITLE}“\\s–\\s6\\sPersonen`));
    assert.match(
      await page.locator(".beitritt").innerText(),
      new RegExp(`--code ${CODE}`),
      "the instructor's own browser shows the join code",
    );
    const fontPx = (await page.evaluate(
      'parseFloat(getComputedStyle(document.querySelector("td.zelle")).fontSize)',
    )) as number;
    assert.ok(fontPx >= 720 / 36, `cell text ${fontPx}px`);
    const origin = new URL(board.url).origin;
    assert.deepEqual(
      requests.filter((u) => !u.startsWith(origin)),
      [],
      "no request leaves the board",
    );
    assert.deepEqual(problems, []);
    await page.screenshot({ path: join(dir, "board.png") });
  } finally {
    await browser.close();
  }
});

test("a restart after a crash keeps every result and the join code; --export writes a formula-safe CSV", async () => {
  const before = await state();
  await new Promise((r) => setTimeout(r, 500)); // the board writes its file 200 ms after a change
  await board.stop("SIGKILL");
  const csvFile = join(dir, "export.csv");
  // The restart and the export (which only reads the file) run side by side.
  const [restarted, run] = await Promise.all([
    startBoardProcess(["--data", dataFile]), // no --code: the stored one
    runCommand("board", ["--data", dataFile, "--export", csvFile]),
  ]);
  board = restarted;
  assert.match(board.output(), new RegExp(`Beitrittscode:\\s+${CODE}`));
  const afterRestart = await state();
  assert.deepEqual(
    afterRestart.participants.map((p) => [p.name, p.cells]),
    before.participants.map((p) => [p.name, p.cells]),
  );
  assert.equal(run.code, 0, run.stderr);
  const lines = readFileSync(csvFile, "utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  assert.equal(
    lines[0],
    '"Name";"Aufgabe";"Selbsttest";"Fälle bestanden";"Fälle fehlgeschlagen";"Fälle offen";"Läufe";"Zuletzt"',
  );
  assert.equal(lines.length, 1 + PEOPLE * 2 + 4);
  assert.ok(
    lines.some((l) => l.startsWith(`"'=HYPERLINK(""http://x"")";"1";"buildMessages";"5";"1";"0";"1";`)),
    lines.join("\n"),
  );
  const skeleton = lines.find((l) => l.startsWith(`"${nameOf(3)}";"1";"trimHistory";`))!;
  assert.match(
    skeleton,
    /^"[^"]+";"1";"trimHistory";"0";"0";"\d+";"1";"\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}"$/,
    "open cases; Zuletzt as local German time",
  );
});

test("an address that keeps sending wrong join codes is stopped; the right code still gets through", async () => {
  const statuses = [];
  for (let i = 0; i < WRONG_CODE_BURST + 2; i++)
    statuses.push((await post(boardRecord("Raten"), { [BOARD_CODE_HEADER]: `rate-${i}` })).status);
  assert.deepEqual(statuses.slice(0, WRONG_CODE_BURST), Array(WRONG_CODE_BURST).fill(403));
  assert.deepEqual(statuses.slice(WRONG_CODE_BURST), [429, 429]);
  assert.equal(
    (await post(boardRecord("Raten"))).status,
    200,
    "someone else at this address (a hub, a NAT) with the right code",
  );
});
