// What an attacker or an accident must not break on the class board (issue 38): the real board subprocess on
// loopback, probes bounded in count (wrong codes from 200 loopback addresses, compressed and broken bodies,
// invisible and look-alike names, a foreign Host), and the data file's hard cases (corrupt, unreadable,
// unwritable, empty join code, --export onto itself or into a missing folder, --entfernen, a .tmp left by
// a SIGKILL). The happy path and the page: board.test.ts.
import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { BOARD_CODE_HEADER, BOARD_POST_PATH } from "../../lib/exercises/board-record.js";
import { csvCell } from "../../scripts/apps/board/csv.js";
import { JOIN_CODE_SPACE, randomJoinCode, weakJoinCode } from "../../scripts/apps/board/join-code.js";
import {
  GLOBAL_WRONG_CODE_BURST,
  NEW_NAMES_PER_ADDRESS_BURST,
  WRONG_CODE_BURST,
} from "../../scripts/apps/board/server.js";
import type { BoardData, BoardView } from "../../scripts/apps/board/state.js";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";
import { runCommand } from "../helpers/run-script.js";
import { boardRecord } from "../helpers/board-seed.js";

const CODE = "test-code-42";
const dir = mkdtempSync(join(tmpdir(), "board-harden-"));
let board: BoardProcess;

before(async () => {
  board = await startBoardProcess(["--code", CODE, "--data", join(dir, "laufend.json")]);
});

after(async () => {
  await board?.stop("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
}

/** One POST from the loopback address `from` (127.0.0.0/8 is all loopback) with raw `headers` and `body`. */
function postFrom(
  from: string,
  headers: Record<string, string>,
  body: Buffer | string,
  path = BOARD_POST_PATH,
  host?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, board.url);
    const req = request(
      url,
      {
        method: "POST",
        localAddress: from,
        headers: { "content-type": "application/json", ...(host ? { host } : {}), ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error("no answer in 10 s")));
    req.on("error", reject).end(body);
  });
}

const postRecord = (name: string, from = "127.0.0.1", code = CODE) =>
  postFrom(from, { [BOARD_CODE_HEADER]: code }, JSON.stringify(boardRecord(name)));

async function view(): Promise<BoardView> {
  return (await (await fetch(new URL("/api/state", board.url))).json()) as BoardView;
}

/** A refusal: the status, and a short German `fehler` without a stack or English error text. */
function assertGermanRefusal(answer: Answer, status: number, pattern?: RegExp): string {
  assert.equal(answer.status, status, answer.body);
  const { fehler } = JSON.parse(answer.body) as { fehler: string };
  assert.ok(fehler && fehler.length < 200, answer.body);
  assert.doesNotMatch(answer.body, /\bat \w|Error:|incorrect header|Invalid Host|jsonrpc/);
  if (pattern) assert.match(fehler, pattern);
  return fehler;
}

test("join code: 31^12 codes, enough for a day at 20,000 guesses a second with a chance below one in a million", () => {
  const day = 86_400 * 20_000;
  assert.ok(JOIN_CODE_SPACE >= 1e6 * day, `${JOIN_CODE_SPACE} codes`); // before: 57,600
  const codes = new Set(Array.from({ length: 1000 }, randomJoinCode));
  assert.equal(codes.size, 1000);
  for (const code of codes) assert.match(code, /^[a-hj-km-np-z2-9]{4}-[a-hj-km-np-z2-9]{4}-[a-hj-km-np-z2-9]{4}$/);
  for (const code of codes) assert.equal(weakJoinCode(code), false, code);
  for (const code of ["fuchs-wolke-47", "Igel-Mond-03", "abcd-efgh", "1234"])
    assert.equal(weakJoinCode(code), true, code);
});

test("wrong codes from 200 addresses hit the board's global limit; a right code is never refused, also not from a blocked address", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 200; i++)
    statuses.push(
      (await postRecord("Raten", `127.0.${1 + Math.floor(i / 250)}.${2 + (i % 250)}`, `falsch-${i}`)).status,
    );
  const limited = statuses.filter((s) => s === 429).length;
  assert.ok(limited >= 200 - GLOBAL_WRONG_CODE_BURST - 5, `${limited} of 200 limited`); // before: 0
  assert.deepEqual(statuses.slice(0, GLOBAL_WRONG_CODE_BURST - 5), Array(GLOBAL_WRONG_CODE_BURST - 5).fill(403));
  assert.ok(board.output().includes("Sehr viele falsche Beitrittscodes"), "the instructor's console says so");

  // One address uses up its own wrong tries; someone else behind it (a NAT, a Klassenraum-Hub) has the code.
  for (let i = 0; i < WRONG_CODE_BURST + 2; i++) await postRecord("Raten", "127.0.2.1", `falsch-${i}`);
  assert.equal((await postRecord("Raten", "127.0.2.1", `falsch-x`)).status, 429);
  assert.equal((await postRecord("Mitte Hub", "127.0.2.1")).status, 200); // before: 429
  assert.equal((await postRecord("Neu Anderswo", "127.0.3.1")).status, 200, "while the global limit is used up");
  assert.equal((await postFrom("127.0.2.1", { [BOARD_CODE_HEADER]: CODE }, "", "/api/pruefen")).status, 200);
});

test("compressed or broken bodies: a short German answer, no stack, nothing on the console but one line at most", async () => {
  const headers = { [BOARD_CODE_HEADER]: CODE, "content-encoding": "gzip" };
  const garbage = Buffer.from("das ist kein gzip");
  assertGermanRefusal(await postFrom("127.0.0.1", headers, garbage), 415, /unkomprimiert/); // before: 400 with an English HTML stack
  assertGermanRefusal(await postFrom("127.0.0.1", headers, gzipSync(JSON.stringify(boardRecord("Gzip")))), 415);
  assertGermanRefusal(
    await postFrom("127.0.0.1", { [BOARD_CODE_HEADER]: CODE, "content-encoding": "deflate" }, garbage),
    415,
  );
  assertGermanRefusal(
    await postFrom(
      "127.0.0.1",
      { [BOARD_CODE_HEADER]: CODE, "content-type": "application/json; charset=klingonisch" },
      "{}",
    ),
    400,
  );
  assert.doesNotMatch(board.output(), /\n\s+at |incorrect header check|Error:/);
});

test("a foreign Host header is refused in German", async () => {
  const fehler = assertGermanRefusal(
    await postFrom(
      "127.0.0.1",
      { [BOARD_CODE_HEADER]: CODE },
      JSON.stringify(boardRecord("Host")),
      BOARD_POST_PATH,
      "evil.example",
    ),
    403,
  );
  assert.match(fehler, /Host-Name/); // before: JSON-RPC "Invalid Host: evil.example"
});

test("names: invisible, bidi-controlled and letterless names are refused; look-alikes of a name on the board too", async () => {
  for (const name of [
    "\u200b",
    "\u2060",
    "\u2800",
    "\u3164",
    "Anna\u200b",
    "\u202eannA",
    "Ann\u2066a",
    "!!!",
    "\u00ad\u00ad",
  ]) {
    assertGermanRefusal(await postRecord(name), 400, /unsichtbar|Schreibrichtung|Buchstaben/); // before: 200
  }
  assert.equal((await postRecord("Anna")).status, 200);
  assert.equal((await postRecord("  anna ")).status, 200, "the same name in other case and spacing is the same person");
  for (const twin of ["\u0410nna", "Ａnna", "\u0391nna"]) {
    assertGermanRefusal(await postRecord(twin), 409, /sieht aus wie „Anna“/); // before: 200, a second identical row
  }
  assert.equal((await postRecord("Ivan")).status, 200);
  assertGermanRefusal(await postRecord("lvan"), 409);
  assert.equal((await postRecord("Änna")).status, 200, "accents make another name");
  assert.equal((await postRecord("Zoe\u0308")).status, 200, "NFC: ë typed as e + ◌̈");
  const names = (await view()).participants.map((p) => p.name);
  assert.ok(names.includes("Zoë") && !names.includes("Zoe\u0308"));
  assert.equal(names.filter((n) => /anna/i.test(n.normalize("NFKC"))).length, 1);
});

test("new names from one address are limited (a hub's whole room fits); other addresses still join", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < NEW_NAMES_PER_ADDRESS_BURST + 3; i++)
    statuses.push((await postRecord(`Flut ${i}`, "127.0.4.1")).status);
  assert.equal(statuses.filter((s) => s === 200).length, NEW_NAMES_PER_ADDRESS_BURST); // before: all 63
  assert.deepEqual(statuses.slice(-2), [429, 429]);
  assert.equal((await postRecord("Flut 0", "127.0.4.1")).status, 200, "a name already there reports as before");
  assert.equal((await postRecord("Berta", "127.0.4.2")).status, 200);
});

test("CSV: formula characters are caught behind invisible characters and as full-width forms", () => {
  for (const cell of ["\u200b=1+4", "＝1+5", "＋1", "－1", "＠SUM(A1)", "\u2060 =1", "\ufeff@x", "\u2212 1"]) {
    assert.match(csvCell(cell), /^"'/, JSON.stringify(cell)); // before: no apostrophe
  }
  assert.equal(csvCell("Anna"), '"Anna"');
});

// ---------------------------------------------------------------------------------------------------
// The data file

let fileCount = 0;
function dataFile(content?: string | BoardData): string {
  const folder = join(dir, `daten-${fileCount++}`);
  mkdirSync(folder);
  const file = join(folder, "ergebnisse.json");
  if (content !== undefined) writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

const stored = (joinCode = CODE, names = ["Anna", "Ben", "\u200bx"]): BoardData => ({
  version: 1,
  joinCode,
  participants: names.map((name) => ({
    name,
    lastOkAt: null,
    lastSeenAt: 1,
    checks: [{ aufgabe: 1, check: "buildMessages", passed: 1, failed: 0, runs: 1, at: 1 }],
  })),
});

/** Starts the board expecting it to refuse: it exits (bounded), does not listen, says why in German. */
async function refusedStart(args: string[]): Promise<string> {
  const r = await runCommand("board", ["--port", "0", ...args], {}, { timeoutMs: 20_000 });
  assert.equal(r.code, 1, `exit ${r.code}: ${r.stdout}${r.stderr}`);
  assert.doesNotMatch(r.stdout, /Klassen-Board läuft/);
  assert.doesNotMatch(r.stderr, /\n\s+at |ENOENT:|EISDIR:|ZodError/);
  return r.stderr;
}

test("a corrupt, foreign or unreadable data file stops the start and stays as it is (no silent new join code)", async () => {
  for (const [content, why] of [
    ["{ kaputt", /beschädigt \(kein gültiges JSON\)/],
    [JSON.stringify({ version: 1, joinCode: "", participants: [] }), /beschädigt \(nicht die Form einer Board-Datei\)/],
    [JSON.stringify({ hallo: 1 }), /beschädigt/],
  ] as const) {
    const file = dataFile(content);
    const message = await refusedStart(["--data", file]); // before: moved aside, started empty with a new code
    assert.match(message, why);
    assert.match(message, /startet nicht, damit Beitrittscode und Ergebnisse nicht verloren gehen/);
    assert.equal(readFileSync(file, "utf8"), content);
    assert.deepEqual(
      readdirSync(join(file, "..")).filter((n) => !n.endsWith(".lock")),
      ["ergebnisse.json"],
    );
  }
  const folder = dataFile();
  mkdirSync(folder); // a folder where the file should be: not readable as a file
  assert.match(await refusedStart(["--data", folder]), /ist nicht lesbar/);
});

test("a data file that cannot be written stops the start (no 200 for results that are lost)", async () => {
  const blocker = join(dir, "eine-datei");
  writeFileSync(blocker, "");
  const message = await refusedStart(["--data", join(blocker, "ergebnisse.json")]); // before: ran, answered 200, saved nothing
  assert.match(message, /kann nicht geschrieben werden \(ein Teil des Pfads ist eine Datei, kein Ordner\)/);
  if (process.getuid?.() === 0) return; // root writes into read-only folders
  const file = dataFile(stored());
  chmodSync(join(file, ".."), 0o555);
  try {
    assert.match(await refusedStart(["--data", file]), /kann nicht geschrieben werden \(keine Berechtigung\)/);
  } finally {
    chmodSync(join(file, ".."), 0o755);
  }
});

test("--export only reads: a bad data file stays, its own path is refused, a missing folder is said in German", async () => {
  const bad = dataFile("{ kaputt");
  let r = await runCommand("board", ["--data", bad, "--export", join(dir, "a.csv")]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /beschädigt/);
  assert.doesNotMatch(r.stderr, /beginnt leer/); // before: "Das Board beginnt leer", file renamed
  assert.equal(readFileSync(bad, "utf8"), "{ kaputt");

  const good = dataFile(stored());
  const before = readFileSync(good, "utf8");
  r = await runCommand("board", ["--data", good, "--export", good]);
  assert.equal(r.code, 2, r.stderr); // before: 0, the JSON overwritten with CSV
  assert.match(r.stderr, /ist die Ergebnisdatei selbst/);
  assert.equal(readFileSync(good, "utf8"), before);

  r = await runCommand("board", ["--data", good, "--export", join(dir, "fehlt", "a.csv")]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /Der Ordner .*fehlt für --export|Der Ordner .* für --export fehlt/); // before: "… konnte nicht starten: ENOENT …"
  assert.doesNotMatch(r.stderr, /ENOENT/);

  r = await runCommand("board", ["--data", good, "--export", join(dir, "gut.csv")]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(good, "utf8"), before);
  // Names and results, like the results file: only the instructor reads them (the hub's participants are users here).
  assert.equal(statSync(join(dir, "gut.csv")).mode & 0o777, 0o600); // before: 0o644
});

test("--entfernen takes a participant off (also an invisible-character name), refuses while the board runs", async () => {
  const file = dataFile(stored());
  let r = await runCommand("board", ["--data", file, "--entfernen", "anna", "--entfernen", "x"]);
  assert.equal(r.code, 0, r.stderr); // before: exit 2, unknown option
  assert.match(r.stdout, /Entfernt: „Anna“\.\nEntfernt: „\u200bx“\./);
  const left = JSON.parse(readFileSync(file, "utf8")) as BoardData;
  assert.deepEqual(
    left.participants.map((p) => p.name),
    ["Ben"],
  );
  assert.equal(left.joinCode, CODE);

  r = await runCommand("board", ["--data", file, "--entfernen", "Zora"]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /„Zora“ steht nicht auf dem Board/);

  const running = await startBoardProcess(["--data", file]);
  try {
    r = await runCommand("board", ["--data", file, "--entfernen", "Ben"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Das Board läuft noch \(Prozess \d+\)/);
  } finally {
    await running.stop();
  }
  assert.ok(!existsSync(`${file}.lock`), "a board ended with Strg+C leaves no lock");
});

test("a .tmp file left by a board killed while writing is removed at the next start", async () => {
  const file = dataFile(stored());
  const leftover = `${file}.999999999.0a1b2c3d4e5f.tmp`;
  writeFileSync(leftover, "");
  const restarted = await startBoardProcess(["--data", file]);
  try {
    assert.ok(!existsSync(leftover)); // before: stays forever
    assert.match(restarted.output(), new RegExp(`Beitrittscode:\\s+${CODE}`));
    assert.match(
      restarted.output(),
      /WARNUNG: Der Beitrittscode test-code-42 ist leicht zu erraten\. Ein sicherer: --code [a-z2-9]{4}-/,
      "a stored old-style code",
    );
  } finally {
    await restarted.stop();
  }
});
