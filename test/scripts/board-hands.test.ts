// The hand limits of the real board subprocess (server.ts raiseHand). Before, every hilfe() took a token
// before the board looked whether the hand was already up: behind one address (NAT, a room without the hub's
// tokens) all hands shared one bucket of HANDS_PER_ADDRESS_BURST, so the 11th participant's hand was lost;
// and a hand raised again after the instructor lowered it was refused with "die Kursleitung sieht dich
// schon" while no hand was up. Now a hand already up only changes its question, the per-address limit is
// for names new to the board, and a refusal says that the hand is NOT up.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { BOARD_CODE_HEADER, BOARD_HELP_PATH, BOARD_JOIN_PATH } from "../../lib/exercises/board-record.js";
import {
  BOARD_LOWER_PATH,
  HANDS_PER_ADDRESS_BURST,
  HANDS_PER_PARTICIPANT_BURST,
} from "../../scripts/apps/board/server.js";
import type { BoardView } from "../../scripts/apps/board/state.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";

const CODE = "haende-test-k7mq";
const dir = mkdtempSync(join(tmpdir(), "board-hands-"));
let board: BoardProcess;

before(async () => {
  board = await startBoardProcess(["--code", CODE, "--data", join(dir, "ergebnisse.json")]);
});

after(async () => {
  await board?.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(path, board.url), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const raiseHand = (name: string, frage = "Mein Agent hört nicht auf") =>
  postJson(BOARD_HELP_PATH, { name, frage }, { [BOARD_CODE_HEADER]: CODE });
const lowerHand = async (name: string) => assert.equal((await postJson(BOARD_LOWER_PATH, { name })).status, 200);
const hands = async () =>
  ((await (await fetch(new URL("/api/state", board.url))).json()) as BoardView).hands.map((h) => h.name);

test("every participant of a room behind one address gets their hand up", async () => {
  const room = Array.from({ length: HANDS_PER_ADDRESS_BURST + 5 }, (_, i) => `Teilnehmerin Nummer ${i + 1} Müller`);
  for (const name of room) {
    const joined = await postJson(BOARD_JOIN_PATH, { name }, { [BOARD_CODE_HEADER]: CODE });
    assert.equal(joined.status, 200);
  }
  const statuses: number[] = [];
  for (const name of room) statuses.push((await raiseHand(name)).status);
  assert.deepEqual(new Set(statuses), new Set([200]), `all hands go up: ${statuses.join(",")}`);
  assert.deepEqual(await hands(), room);
  for (const name of room) await lowerHand(name);
});

test("hilfe() again while the hand is up changes the question and is never refused", async () => {
  for (let i = 0; i < HANDS_PER_PARTICIPANT_BURST + 3; i++) {
    const res = await raiseHand("Jürgen Öztürk-Schäfer", `Frage Nummer ${i}`);
    assert.equal(res.status, 200, `call ${i + 1}`);
  }
  const view = (await (await fetch(new URL("/api/state", board.url))).json()) as BoardView;
  assert.deepEqual(
    view.hands.map((h) => [h.name, h.question]),
    [["Jürgen Öztürk-Schäfer", `Frage Nummer ${HANDS_PER_PARTICIPANT_BURST + 2}`]],
  );
  await lowerHand("Jürgen Öztürk-Schäfer");
});

test("a hand raised too often after being lowered is refused with the truth: it is not up", async () => {
  const name = "Anneliese Dorothea Wagner-Großmann";
  for (let i = 0; i < HANDS_PER_PARTICIPANT_BURST; i++) {
    assert.equal((await raiseHand(name)).status, 200, `raise ${i + 1}`);
    await lowerHand(name);
  }
  const refused = await raiseHand(name);
  assert.equal(refused.status, 429);
  const { fehler } = (await refused.json()) as { fehler: string };
  assert.match(fehler, /Deine Hand ist NICHT oben/);
  assert.doesNotMatch(fehler, /sieht dich schon/);
  assert.deepEqual(await hands(), []);
});

test("new names raising hands from one address are still limited, and told their hand is not up", async () => {
  const statuses: number[] = [];
  let last = "";
  for (let i = 0; i < HANDS_PER_ADDRESS_BURST + 3; i++) {
    const res = await raiseHand(`Neuer Name ${i + 1} Bäcker`);
    statuses.push(res.status);
    if (res.status !== 200) last = ((await res.json()) as { fehler: string }).fehler;
  }
  // Jürgen's and Anneliese's first hands above were new names from this address too.
  const firstRefused = statuses.indexOf(429);
  assert.ok(firstRefused > 0 && firstRefused <= HANDS_PER_ADDRESS_BURST, statuses.join(","));
  assert.ok(
    statuses.slice(firstRefused).every((s) => s === 429),
    statuses.join(","),
  );
  assert.match(last, /Deine Hand ist NICHT oben/);
});
