// The next morning: raised hands and the class's Aufgabe are kept across a restart (board-instructor.test.ts),
// but before they were kept across days too – yesterday's hands stood on top of today's queue and the class
// sat in yesterday's Aufgabe without a word in the terminal. Now hands older than STALE_HAND_MS are left out
// at start (and the terminal says so), the stored Aufgabe is printed, and `--aufgabe 0` (the majority's
// again) is taken on the command line as the key 0 on the page is.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { parseStored, STALE_HAND_MS, type BoardData, type BoardView } from "../../scripts/apps/board/state.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";
import { runCommand } from "../helpers/run-script.js";

const CODE = "naechster-tag-4";
const dir = mkdtempSync(join(tmpdir(), "board-next-day-"));
const data = join(dir, "ergebnisse.json");
const running: BoardProcess[] = [];
after(async () => {
  for (const board of running) await board.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const stateOf = async (board: BoardProcess) =>
  (await (await fetch(new URL("/api/state", board.url))).json()) as BoardView;
async function start(args: string[]): Promise<BoardProcess> {
  const board = await startBoardProcess(["--code", CODE, "--data", data, ...args]);
  running.push(board);
  return board;
}

test("yesterday's hands are left out at start (the terminal says so); the stored Aufgabe is printed", async () => {
  const now = Date.now();
  const person = (name: string) => ({ name, checks: [], lastOkAt: null, lastSeenAt: now - 60_000, joinedAt: now });
  const stored: BoardData = {
    version: 1,
    joinCode: CODE,
    participants: [person("Jürgen Böhm"), person("Maximiliane Dorothea Müller-Lüdenscheidt")],
    hands: [
      { name: "Jürgen Böhm", question: "Von gestern", since: now - STALE_HAND_MS - 60 * 60_000 },
      { name: "Maximiliane Dorothea Müller-Lüdenscheidt", question: "Von heute früh", since: now - 60 * 60_000 },
    ],
    classAufgabe: 3,
  };
  writeFileSync(data, `${JSON.stringify(stored)}\n`);
  const board = await start([]);
  const view = await stateOf(board);
  assert.deepEqual(
    view.hands.map((h) => h.name),
    ["Maximiliane Dorothea Müller-Lüdenscheidt"],
  );
  assert.match(board.output(), /1 gehobene Hand älter als 8 Stunden nicht übernommen/);
  assert.match(
    board.output(),
    /Aufgabe:\s+Klasse in Aufgabe 3 \(gespeichert vom letzten Mal; wieder die der meisten: --aufgabe 0/,
  );
  assert.deepEqual(view.classAufgabe, { aufgabe: 3, by: "kursleitung" });
  await board.stop();
  assert.equal(
    parseStored(JSON.parse(readFileSync(data, "utf8"))).hands?.length,
    1,
    "the stale hand is gone from the file",
  );
});

test("--aufgabe 0 makes the class's Aufgabe the majority's again; other numbers are a German usage error", async () => {
  const board = await start(["--aufgabe", "0"]);
  assert.notEqual((await stateOf(board)).classAufgabe?.by, "kursleitung");
  assert.doesNotMatch(board.output(), /Klasse in Aufgabe/);
  await board.stop();
  assert.equal(parseStored(JSON.parse(readFileSync(data, "utf8"))).classAufgabe, null);
  const wrong = await runCommand("board", ["--port", "0", "--data", data, "--aufgabe", "5"]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /--aufgabe: 1, 2, 3 oder 4, z\. B\. --aufgabe 2; 0 = die der meisten/);
});
