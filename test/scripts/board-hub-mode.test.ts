// The guide's "Nur den Hub … --board http://…:8790" with the board on the same machine: the participants'
// kernels reach the board over loopback, and the board trusted loopback as the instructor's own browser
// whenever --raum was not given – any kernel could lower hands and set the class's Aufgabe. Now, once a hub's
// kernel has posted with its participant token (or the hub joined a name with the hub key), loopback is no
// longer trusted; only the instructor's link is, and the terminal says so once, with the link.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { BOARD_CODE_HEADER, BOARD_HELP_PATH, BOARD_TOKEN_HEADER } from "../../lib/exercises/board-record.js";
import { participantToken, readHubKey } from "../../scripts/apps/board/hub-trust.js";
import { BOARD_INSTRUCTOR_HEADER } from "../../scripts/apps/board/instructor.js";
import { BOARD_CLASS_PATH, BOARD_LOWER_PATH } from "../../scripts/apps/board/server.js";
import { participantKey } from "../../scripts/apps/board/state.js";
import { joinBoard } from "../../scripts/apps/hub/board-join.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";

const CODE = "hub-modus-test-8";
const dir = mkdtempSync(join(tmpdir(), "board-hub-mode-"));
const data = join(dir, "ergebnisse.json");
let board: BoardProcess;

before(async () => {
  board = await startBoardProcess(["--code", CODE, "--data", data]);
});
after(async () => {
  await board?.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL(path, board.url), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const NOTICE = /Klassenraum-Hub erkannt/g;

test("before any hub kernel, this machine's browser is the instructor's (as before)", async () => {
  assert.equal((await post(BOARD_CLASS_PATH, { aufgabe: 2 })).status, 200);
  assert.doesNotMatch(board.output(), NOTICE);
});

test("once a hub kernel posted with its token, loopback alone no longer lowers hands; the link does", async () => {
  const hubKey = readHubKey(data)!;
  const name = "Kübra Yıldız-Schneider";
  assert.equal((await joinBoard(board.url, CODE, name, hubKey)).outcome, "on-board");
  const token = participantToken(hubKey, participantKey(name));
  const raised = await post(
    BOARD_HELP_PATH,
    { name, frage: "Mein Plan hat keinen Schritt" },
    { [BOARD_CODE_HEADER]: CODE, [BOARD_TOKEN_HEADER]: token },
  );
  assert.equal(raised.status, 200);

  // A participant's kernel on this machine (loopback, no key): refused.
  const forged = await post(BOARD_LOWER_PATH, { name });
  assert.equal(forged.status, 403);
  assert.equal((await post(BOARD_CLASS_PATH, { aufgabe: 4 })).status, 403);

  // The terminal says so once and prints the link; with its key lowering works.
  const output = board.output();
  assert.equal(output.match(NOTICE)?.length, 1, output);
  const key = /Kursleitung:\s+http:\S+#kursleitung=([A-Za-z0-9_-]{32})/.exec(output)?.[1];
  assert.ok(key, output);
  const lowered = await post(BOARD_LOWER_PATH, { name }, { [BOARD_INSTRUCTOR_HEADER]: key });
  assert.equal(lowered.status, 200);
  assert.equal(((await lowered.json()) as { gesenkt: boolean }).gesenkt, true);
  await joinBoard(board.url, CODE, "Zweiter Name Über Hub", hubKey);
  assert.equal(board.output().match(NOTICE)?.length, 1, "said once");
});
