// The board's results file holds the instructor's key and everyone's hands and results. On a Klassenraum
// machine participants' kernels run as their own users on the same disk (the hub needs the kit folder o+x):
// the file was written 0644 in a 0755 .cache/board/, so any kernel could read the key and act as the
// instructor. Now the file is 0600 from its creation on and the board's own folder 0700; a file an older
// board left 0644 is tightened at start. Checked as root with a real other user (nobody).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startBoardProcess, type BoardProcess } from "../helpers/board-process.js";

const asRoot = process.getuid?.() === 0;
const kit = mkdtempSync(join(tmpdir(), "board-private-"));
chmodSync(kit, 0o755); // like a kit folder on the hub machine: others may pass through
const folder = join(kit, ".cache", "board");
const file = join(folder, "ergebnisse.json");
let board: BoardProcess | undefined;

after(async () => {
  await board?.stop("SIGKILL");
  rmSync(kit, { recursive: true, force: true });
});

/** Runs `args` as the user nobody; true when it succeeded. */
const nobodyCan = (args: string[]): boolean => spawnSync("runuser", ["-u", "nobody", "--", ...args]).status === 0;

test(
  "another user can neither read the board's results file nor list its folder",
  { skip: !asRoot && "needs root" },
  async () => {
    // Left by an older board: a readable folder and file with the instructor's key.
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    chmodSync(join(kit, ".cache"), 0o755);
    chmodSync(folder, 0o755);
    writeFileSync(
      file,
      `${JSON.stringify({ version: 1, joinCode: "privat-test-7", participants: [], instructorKey: "a".repeat(32) })}\n`,
      { mode: 0o644 },
    );
    chmodSync(file, 0o644);
    assert.ok(nobodyCan(["cat", file]), "the set-up must be readable before the board starts");

    board = await startBoardProcess([], 30_000, { WORKSHOP_ROOT: kit });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.equal(nobodyCan(["cat", file]), false, "nobody read the results file");
    assert.equal(nobodyCan(["ls", folder]), false, "nobody listed the board's folder");
    assert.match(board.output(), /privat-test-7/, "the stored join code is kept");
  },
);

test("a fresh board writes its results file 0600 in a 0700 folder", { skip: !asRoot && "needs root" }, async () => {
  await board?.stop();
  rmSync(join(kit, ".cache"), { recursive: true, force: true });
  board = await startBoardProcess([], 30_000, { WORKSHOP_ROOT: kit });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(statSync(folder).mode & 0o777, 0o700);
  assert.equal(nobodyCan(["cat", file]), false);
});
