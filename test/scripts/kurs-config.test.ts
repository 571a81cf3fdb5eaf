// The participant's side of the class board in `npm run workshop`: --kurs/--name/--code are stored once
// in .cache/kurs.json and passed to the kernel as KURS_*; the start line says whether the board answers
// to the code. And the board's bind rules (loopback, or --host with --allowed-host), in process.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { BindError } from "../../scripts/node/bind.js";
import { startBoardServer } from "../../scripts/apps/board/server.js";
import { BoardState } from "../../scripts/apps/board/state.js";
import {
  kursEnvironment,
  KursError,
  kursFile,
  kursStatusLine,
  splitKursArgs,
  updateKursConfig,
} from "../../scripts/apps/workshop/kurs-config.js";
import { runCommand } from "../helpers/run-script.js";

const root = mkdtempSync(join(tmpdir(), "kurs-config-"));
after(() => rmSync(root, { recursive: true, force: true }));

const quiet = { onChange: () => undefined, log: () => undefined };

test("--kurs/--name/--code are split off the Jupyter arguments", () => {
  assert.deepEqual(
    splitKursArgs(["--uebung", "--kurs", "http://10.0.0.5:8790", "--name=Anna Lena", "--code", "x-y-1", "--port=9999"]),
    {
      flags: { kurs: "http://10.0.0.5:8790", name: "Anna Lena", code: "x-y-1" },
      rest: ["--uebung", "--port=9999"],
    },
  );
  assert.throws(() => splitKursArgs(["--kurs"]), KursError);
});

test("the setting is stored once, updated, used for the kernel (KURS_* in the environment win) and removed with --kurs aus", async () => {
  assert.equal(await updateKursConfig(root, {}), undefined);
  await assert.rejects(updateKursConfig(root, { kurs: "http://10.0.0.5:8790" }), /--name/);
  await assert.rejects(updateKursConfig(root, { kurs: "javascript:alert(1)", name: "A" }), /Adresse des Boards/);
  await assert.rejects(updateKursConfig(root, { name: "Anna" }), /gehören zu --kurs/);
  await assert.rejects(
    updateKursConfig(root, { kurs: "http://10.0.0.5:8790", name: "Anna\u200b" }),
    /--name: Der Name enthält unsichtbare Zeichen/,
  );
  await assert.rejects(
    updateKursConfig(root, { kurs: "http://10.0.0.5:8790", name: "\u202eannA" }),
    /--name: .*Schreibrichtung/,
  );
  const saved = await updateKursConfig(root, { kurs: "http://10.0.0.5:8790/", name: " Anna ", code: "fuchs-wolke-47" });
  assert.deepEqual(saved, { board: "http://10.0.0.5:8790", name: "Anna", code: "fuchs-wolke-47" });
  assert.deepEqual(JSON.parse(readFileSync(kursFile(root), "utf8")), saved);
  assert.deepEqual(await updateKursConfig(root, {}), saved, "later starts use the stored setting");
  assert.deepEqual(await updateKursConfig(root, { code: "neu-code-11" }), { ...saved, code: "neu-code-11" });
  const env = kursEnvironment({ PATH: "/bin" }, await updateKursConfig(root, {}));
  assert.deepEqual([env.KURS_BOARD, env.KURS_NAME, env.KURS_CODE], ["http://10.0.0.5:8790", "Anna", "neu-code-11"]);
  assert.equal(
    kursEnvironment({ KURS_BOARD: "" }, saved).KURS_BOARD,
    "",
    "an explicit KURS_BOARD wins, also empty (off)",
  );
  assert.equal(await updateKursConfig(root, { kurs: "aus" }), undefined);
  assert.equal(existsSync(kursFile(root)), false);
  assert.equal(kursEnvironment({}, undefined).KURS_BOARD, undefined);
});

test("npm run workshop refuses a wrong --kurs in German before anything starts", async () => {
  const run = await runCommand("workshop", ["--kurs", "ftp://kurs-pc", "--name", "Anna"], { WORKSHOP_ROOT: root });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--kurs braucht die Adresse des Boards/);
  assert.equal(existsSync(kursFile(root)), false);
});

test("the start line: board answers to the code, wrong code, board down", async () => {
  const board = await startBoardServer({
    host: "127.0.0.1",
    port: 0,
    state: new BoardState("fuchs-wolke-47"),
    ...quiet,
  });
  try {
    const line = (code: string, url = board.joinUrl) =>
      kursStatusLine({ KURS_BOARD: url, KURS_NAME: "Anna", KURS_CODE: code });
    assert.match((await line("fuchs-wolke-47"))!, /melden an .* als „Anna“[\s\S]*Code stimmt ✅/);
    assert.match((await line("falsch"))!, /Beitrittscode falsch/);
    assert.equal(await kursStatusLine({}), undefined);
    await board.close();
    assert.match((await line("fuchs-wolke-47"))!, /nicht erreichbar – die Notebooks laufen trotzdem/);
  } finally {
    await board.close();
  }
});

function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    request(new URL("/api/state", url), { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    })
      .on("error", reject)
      .end();
  });
}

test("binds beyond loopback need --allowed-host; then only those names (and loopback) are accepted", async () => {
  await assert.rejects(
    startBoardServer({ host: "0.0.0.0", port: 0, state: new BoardState("c-c-1"), ...quiet }),
    (e) => e instanceof BindError && /--allowed-host/.test(e.message),
  );
  const board = await startBoardServer({
    host: "0.0.0.0",
    port: 0,
    allowedHosts: ["kurs-pc.local"],
    state: new BoardState("c-c-1"),
    ...quiet,
  });
  try {
    assert.equal(board.joinUrl, `http://kurs-pc.local:${board.port}`);
    assert.equal(await statusWithHost(board.url, `kurs-pc.local:${board.port}`), 200);
    assert.equal(await statusWithHost(board.url, `127.0.0.1:${board.port}`), 200);
    assert.equal(await statusWithHost(board.url, `evil.example:${board.port}`), 403);
  } finally {
    await board.close();
  }
});
