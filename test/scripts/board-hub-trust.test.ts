// The Klassenraum-Hub's own channel to the real board subprocess (board/hub-trust.ts): every kernel on the hub
// posts from 127.0.0.1, so one participant's 60 junk names used up the per-address bucket and the next real
// login was not put on the board; and a kernel could post results under any name. Now the hub joins with the
// board's hub key, and a kernel posts with its participant's token only under that participant's name.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { BoardReporter, hilfe } from "../../lib/exercises/index.js";
import {
  BOARD_CODE_HEADER,
  BOARD_HELP_PATH,
  BOARD_JOIN_PATH,
  BOARD_POST_PATH,
  BOARD_TOKEN_HEADER,
} from "../../lib/exercises/board-record.js";
import { hubKeyPath, participantToken, readHubKey } from "../../scripts/apps/board/hub-trust.js";
import {
  HANDS_PER_ADDRESS_BURST,
  HANDS_PER_PARTICIPANT_BURST,
  NEW_NAMES_PER_ADDRESS_BURST,
} from "../../scripts/apps/board/server.js";
import { participantKey, type BoardView } from "../../scripts/apps/board/state.js";
import { joinBoard } from "../../scripts/apps/hub/board-join.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";

const CODE = "hub-kanal-test-5";
const dir = mkdtempSync(join(tmpdir(), "board-hub-trust-"));
const data = join(dir, "ergebnisse.json");
let board: BoardProcess;
let hubKey: string;

before(async () => {
  board = await startBoardProcess(["--code", CODE, "--data", data]);
  hubKey = readHubKey(data)!;
});

after(async () => {
  await board?.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const names = async () =>
  ((await (await fetch(new URL("/api/state", board.url))).json()) as BoardView).participants.map((p) => p.name);

function post(name: string, token?: string): Promise<Response> {
  return fetch(new URL(BOARD_POST_PATH, board.url), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [BOARD_CODE_HEADER]: CODE,
      ...(token ? { [BOARD_TOKEN_HEADER]: token } : {}),
    },
    body: JSON.stringify({
      name,
      aufgabe: 1,
      check: "buildMessages",
      passed: 3,
      failed: 0,
      at: new Date().toISOString(),
    }),
  });
}

test("the board keeps a hub key beside its data, readable by its owner only", () => {
  assert.match(hubKey, /^[0-9a-f]{64}$/);
  assert.equal(statSync(hubKeyPath(data)).mode & 0o077, 0);
});

test("one participant's 60 junk names do not keep the next real login off the board", async () => {
  // A kernel on the hub (127.0.0.1) joins junk names with the class code until the per-address bucket is empty.
  let refused = 0;
  for (let i = 0; i < NEW_NAMES_PER_ADDRESS_BURST + 5; i++) {
    const res = await fetch(new URL(BOARD_JOIN_PATH, board.url), {
      method: "POST",
      headers: { [BOARD_CODE_HEADER]: CODE, "content-type": "application/json" },
      body: JSON.stringify({ name: `Quatsch ${i}` }),
    });
    if (res.status === 429) refused++;
  }
  assert.ok(refused > 0, "the shared per-address limit is used up");
  assert.deepEqual(await joinBoard(board.url, CODE, "Zoë Späterkommer", hubKey), { outcome: "on-board" });
  assert.ok((await names()).includes("Zoë Späterkommer"));
  // Without the key (as before) the same login is left off.
  assert.equal((await joinBoard(board.url, CODE, "Ohne Schlüssel")).outcome, "not-on-board");
});

test("a kernel posts only under its own participant's name", async () => {
  for (const name of ["Anna Österreicher", "Bernd Brückner"])
    assert.equal((await joinBoard(board.url, CODE, name, hubKey)).outcome, "on-board");
  const annasToken = participantToken(hubKey, participantKey("Anna Österreicher"));
  const berndsToken = participantToken(hubKey, participantKey("Bernd Brückner"));
  assert.equal((await post("Anna Österreicher", annasToken)).status, 200, "Anna's kernel reports for Anna");
  const asAnna = await post("Anna Österreicher", berndsToken);
  assert.equal(asAnna.status, 403, "Bernd's kernel cannot report as Anna");
  assert.match(((await asAnna.json()) as { fehler: string }).fehler, /gehört nicht zu deinem Namen/);
  assert.equal(
    (await post("Anna Österreicher")).status,
    403,
    "nor without a token, once the hub put Anna on the board",
  );
  assert.equal((await post("Neu Jemand", berndsToken)).status, 403, "nor under a new name with another's token");
  // The kit's reporter sends the token from KURS_BOARD_TOKEN.
  const reporter = new BoardReporter({ url: board.url, name: "Bernd Brückner", code: CODE, token: berndsToken });
  const lines: string[] = [];
  await reporter.report({ functionName: "buildMessages", passed: 2, failed: 1 }, (l) => lines.push(l));
  assert.deepEqual(lines, []);
  const view = (await (await fetch(new URL("/api/state", board.url))).json()) as BoardView;
  assert.ok(
    view.participants.find((p) => p.name === "Bernd Brückner")!.cells[0]!.ok +
      view.participants.find((p) => p.name === "Bernd Brückner")!.cells[0]!.fail >
      0,
  );
});

function raiseHand(name: string, token?: string): Promise<Response> {
  return fetch(new URL(BOARD_HELP_PATH, board.url), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      [BOARD_CODE_HEADER]: CODE,
      ...(token ? { [BOARD_TOKEN_HEADER]: token } : {}),
    },
    body: JSON.stringify({ name, frage: "Mein Retriever findet nichts" }),
  });
}

const hands = async () =>
  ((await (await fetch(new URL("/api/state", board.url))).json()) as BoardView).hands.map((h) => h.name);

test("a kernel raises only its own participant's hand, and not a hundred times", async () => {
  for (const name of ["Clara Hände-Hoch", "Dörte Fremdmelderin"])
    assert.equal((await joinBoard(board.url, CODE, name, hubKey)).outcome, "on-board");
  const clarasToken = participantToken(hubKey, participantKey("Clara Hände-Hoch"));
  const doertesToken = participantToken(hubKey, participantKey("Dörte Fremdmelderin"));
  // Before: name and class code were enough to raise anyone's hand.
  const forged = await raiseHand("Clara Hände-Hoch", doertesToken);
  assert.equal(forged.status, 403, "Dörte's kernel cannot raise Clara's hand");
  assert.match(((await forged.json()) as { fehler: string }).fehler, /gehört nicht zu deinem Namen/);
  assert.equal((await raiseHand("Clara Hände-Hoch")).status, 403, "nor without a token");
  assert.equal((await raiseHand("Neue Handheberin", doertesToken)).status, 403, "nor a new name with another's token");
  assert.deepEqual(await hands(), []);

  // The kit's hilfe() sends the token from KURS_BOARD_TOKEN, as the reporter does.
  const lines: string[] = [];
  const own = await hilfe("Mein Retriever findet nichts", {
    settings: { url: board.url, name: "Clara Hände-Hoch", code: CODE, token: clarasToken },
    log: (l) => lines.push(l),
  });
  assert.equal(own.ok, true, lines.join("\n"));
  assert.deepEqual(await hands(), ["Clara Hände-Hoch"]);

  // Her own kernel in a loop while her hand is up: each call only changes the question, none is refused
  // (before: the 4th was refused with "die Kursleitung sieht dich schon").
  const statuses: number[] = [];
  for (let i = 0; i < HANDS_PER_PARTICIPANT_BURST + 3; i++)
    statuses.push((await raiseHand("Clara Hände-Hoch", clarasToken)).status);
  assert.deepEqual(new Set(statuses), new Set([200]), `a hand already up only changes its question: ${statuses}`);
  assert.deepEqual(await hands(), ["Clara Hände-Hoch"]);
  // Dörte's own hand is not held up by Clara's flood.
  assert.equal((await raiseHand("Dörte Fremdmelderin", doertesToken)).status, 200);
});

test("hands under names already on the board share no per-address limit (a room behind one address)", async () => {
  // The junk names of the test above are on the board without the hub, all from 127.0.0.1; before, the 11th
  // hand from one address was refused. The per-address limit is for names new to the board (board-hands.test.ts).
  const statuses: number[] = [];
  for (let i = 0; i < HANDS_PER_ADDRESS_BURST + 5; i++) statuses.push((await raiseHand(`Quatsch ${i}`)).status);
  assert.deepEqual(new Set(statuses), new Set([200]), `all hands go up: ${statuses.join(",")}`);
});
