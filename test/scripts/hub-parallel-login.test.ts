// Logins at 9:00 with a real JupyterHub (`npm run hub` as a subprocess): five participants post the login
// form at the same moment; the hub asks the login check and puts them on the board concurrently (issue 46:
// one login at a time made the login POST alone take up to 31 s for 20 people) and only writing the
// participant list stays one at a time — all five are listed, none twice. A board stand-in that answers
// only when three joins are in flight tells whether the logins ran together. No server is spawned (the
// redirect after the login is not followed).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { hubTestFolder, hubTestSkip, postLogIn, startHubProcess, type HubProcess } from "../helpers/hub-process.js";
import { slowBoard, type SlowBoard } from "../helpers/slow-board.js";

const CODE = "hub-parallel-46";
const NAMES = [
  "Test Jörg Weiß",
  "Test Ayşe Yılmaz",
  "Test Maximilian-Alexander von Hohenberg",
  "Test Zoë Brandt",
  "Test Özlem Çelik",
];
const folder = hubTestFolder("hub-parallel-");
let hub: HubProcess | undefined;
let board: SlowBoard | undefined;

after(async () => {
  await hub?.stop();
  await board?.close();
  await folder.remove();
});

/** The login form as a browser posts it (its XSRF token, a PIN chosen at this first login), each in a context of its own. */
async function postLogin(loginUrl: string, name: string): Promise<{ status: number; location: string }> {
  const { request } = await import("playwright-core");
  const context = await request.newContext();
  try {
    const { status, location } = await postLogIn(context, loginUrl, { username: name, password: CODE });
    return { status, location };
  } finally {
    await context.dispose();
  }
}

test(
  "five logins at once: checked and put on the board together, each listed once",
  { skip: hubTestSkip() ?? false },
  async () => {
    board = await slowBoard(3);
    hub = await startHubProcess(["--root", folder.root, "--code", CODE, "--board", board.url]);
    const results = await Promise.all(NAMES.map((name) => postLogin(hub!.url, name)));
    assert.deepEqual(
      results.map((r) => r.status),
      NAMES.map(() => 302),
      JSON.stringify(results),
    );
    assert.ok(
      board.maxInFlight() >= 3,
      `the hub put participants on the board one at a time (at most ${board.maxInFlight()} at once)`,
    ); // before: 1
    const listed = Object.values(
      JSON.parse(readFileSync(join(folder.root, ".hub", "teilnehmende.json"), "utf8")) as Record<
        string,
        { name: string; user: string }
      >,
    );
    assert.deepEqual(listed.map((p) => p.name).sort(), [...NAMES].sort());
    assert.equal(
      new Set(listed.map((p) => p.user)).size,
      NAMES.length,
      "every participant has an account name of their own",
    );
  },
);
