// The hub's login check (login-check.ts) over its real loopback endpoint, as JupyterHub's authenticator asks
// it, with a real in-process board: the board's join-code rule (a right code always passes; wrong codes
// limited per address and overall), look-alikes of the hub's participants refused, and the board join at
// login (the board's own refusal of a look-alike, an unreachable board never blocks a login).
// The full hub with Chromium is test/scripts/hub.test.ts.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { GLOBAL_WRONG_CODE_BURST, WRONG_CODE_BURST } from "../../scripts/apps/board/limits.js";
import { BoardState } from "../../scripts/apps/board/state.js";
import { startLoginCheck, type LoginAnswer, type LoginRules } from "../../scripts/apps/hub/login-check.js";
import type { HubParticipant } from "../../scripts/apps/hub/participants.js";
import { PIN_WRONG_BURST, PIN_WRONG_REFILL_MS, PinStore } from "../../scripts/apps/hub/pin.js";
import { freePort } from "../../scripts/node/free-port.js";
import { startBoardInProcess } from "../helpers/board-process.js";
import { slowBoard } from "../helpers/slow-board.js";

const CODE = "k7mq-2xhp-9dta";
const stateDirs: string[] = [];
after(() => stateDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function pinStore(): PinStore {
  const dir = mkdtempSync(join(tmpdir(), "hub-pins-"));
  stateDirs.push(dir);
  return new PinStore(dir);
}

type Ask = (name: string, code: string, address?: string, pin?: string) => Promise<LoginAnswer>;

/** The login check with the tests' defaults: code CODE, 30 seats, no participants yet, a fresh PIN store, no log. */
const startTestLoginCheck = (rules: Partial<LoginRules> = {}) =>
  startLoginCheck({ code: CODE, max: 30, participants: () => [], pins: pinStore(), log: () => undefined, ...rules });

async function withLoginCheck(rules: Partial<LoginRules>, body: (ask: Ask) => Promise<void>): Promise<void> {
  const server = await startTestLoginCheck(rules);
  const ask: Ask = async (name, code, address = "192.168.1.20", pin = "1234") => {
    const res = await fetch(server.url, {
      method: "POST",
      headers: { "x-kurs-token": server.token },
      body: JSON.stringify({ name, code, pin, address }),
    });
    assert.equal(res.status, 200);
    return (await res.json()) as LoginAnswer;
  };
  try {
    await body(ask);
  } finally {
    await server.close();
  }
}

const problem = (answer: LoginAnswer) => ("problem" in answer ? answer.problem : "");

test("only the hub may ask (token)", async () => {
  const server = await startTestLoginCheck();
  try {
    const res = await fetch(server.url, { method: "POST", body: JSON.stringify({ name: "Anna", code: CODE }) });
    assert.equal(res.status, 403);
  } finally {
    await server.close();
  }
});

test("wrong codes are limited per address and overall; the right code always gets in", async () => {
  const log: string[] = [];
  await withLoginCheck({ now: () => 1_000_000, log: (l) => log.push(l) }, async (ask) => {
    for (let i = 0; i < WRONG_CODE_BURST; i++)
      assert.match(problem(await ask("Rater", `falsch-${i}`)), /Beitrittscode stimmt nicht/);
    assert.match(problem(await ask("Rater", "falsch")), /Zu viele falsche Codes/);
    assert.deepEqual(await ask("Anna", CODE), { name: "Anna", key: "anna" }, "the right code from the same address"); // before: "Zu viele falsche Codes"
    // Guessers on many addresses use up everyone's limit; a fresh address is then limited too.
    for (let i = 0; i < GLOBAL_WRONG_CODE_BURST - WRONG_CODE_BURST - 1; i++)
      await ask("Rater", "falsch", `10.1.${i}.1`);
    assert.match(problem(await ask("Rater", "falsch", "10.2.0.1")), /Zu viele falsche Codes/);
    assert.deepEqual(await ask("Ben", CODE, "10.2.0.1"), { name: "Ben", key: "ben" });
    assert.match(log.join("\n"), /WARNUNG: Sehr viele falsche Beitrittscodes/);
  });
});

test("a look-alike of a participant is refused in German; the same participant in other case is not", async () => {
  const participants: HubParticipant[] = [{ name: "Anna", user: "kurs-anna" }];
  await withLoginCheck({ participants: () => participants, max: 1 }, async (ask) => {
    assert.match(problem(await ask("\u0410nna", CODE)), /^Der Name sieht aus wie „Anna“, der schon angemeldet ist/); // Cyrillic А
    assert.match(problem(await ask("Ann\u0430", CODE)), /sieht aus wie „Anna“/); // Cyrillic а
    assert.deepEqual(
      await ask(" ANNA ", CODE),
      { name: "Anna", key: "anna" },
      "the known participant, shown as first written",
    );
    assert.match(problem(await ask("Berta", CODE)), /Der Kurs ist voll \(1 Teilnehmende\)/);
  });
});

test("with a board a login puts the name on it; the board's refusal of a new name is shown, an unreachable board blocks nothing", async () => {
  const state = new BoardState(CODE);
  state.join("Anna", Date.now()); // joined with npm run workshop, not through the hub
  const board = await startBoardInProcess(state);
  try {
    await withLoginCheck({ boardUrl: board.url }, async (ask) => {
      assert.deepEqual(await ask("Ben", CODE), { name: "Ben", key: "ben" });
      assert.ok(state.has("Ben"), "Ben is on the board at login");
      assert.match(
        problem(await ask("\u0410nna", CODE)),
        /^Der Name sieht aus wie „Anna“, der schon auf dem Board steht/,
      );
      assert.equal(state.size, 2);
    });
  } finally {
    await board.close();
  }
  const log: string[] = [];
  await withLoginCheck({ boardUrl: `http://127.0.0.1:${await freePort()}/`, log: (l) => log.push(l) }, async (ask) => {
    assert.deepEqual(await ask("Clara", CODE), { name: "Clara", key: "clara" });
    assert.deepEqual(await ask("Dora", CODE), { name: "Dora", key: "dora" });
  });
  assert.equal(log.length, 1, log.join("\n"));
  assert.match(
    log[0]!,
    /Klassen-Board: „Clara“ steht noch nicht darauf \(Board unter .* nicht erreichbar\); der Name erscheint mit dem ersten Selbsttest\./,
  );
});

test("a personal PIN: chosen at the first login (4–12 characters), needed later; wrong ones limited per participant and per address", async () => {
  let now = 5_000_000;
  const participants: HubParticipant[] = [];
  const pins = pinStore();
  const pinDir = join(stateDirs.at(-1)!, "pins");
  await withLoginCheck({ participants: () => participants, pins, now: () => now }, async (ask) => {
    assert.match(problem(await ask("Anna", CODE, undefined, "")), /PIN mit 4 bis 12 Zeichen/);
    assert.match(problem(await ask("Anna", CODE, undefined, "123")), /PIN mit 4 bis 12 Zeichen/);
    assert.match(problem(await ask("Anna", CODE, undefined, "1234567890123")), /PIN mit 4 bis 12 Zeichen/);
    assert.deepEqual(await ask("Anna", CODE, undefined, "Kätzchen7"), { name: "Anna", key: "anna" });
    participants.push({ name: "Anna", user: "kurs-anna" }); // as jupyterhub_config.py records her
    // stored salted and hashed, not as written
    const files = readdirSync(pinDir);
    assert.equal(files.length, 1);
    const stored = readFileSync(join(pinDir, files[0]!), "utf8");
    assert.doesNotMatch(stored, /Kätzchen7/);
    assert.match(stored, /"salt":"[0-9a-f]{32}"/);

    // Name + code alone no longer open Anna's account (before: {name: "Anna", key: "anna"}).
    assert.match(
      problem(await ask(" anna ", CODE, undefined, "")),
      /„Anna“ ist schon angemeldet – bitte deine PIN eingeben/,
    );
    assert.match(problem(await ask(" anna ", CODE, "10.0.0.1", "0000")), /Die PIN für „Anna“ stimmt nicht/);
    assert.deepEqual(await ask(" ANNA ", CODE, "10.0.0.2", "Kätzchen7"), { name: "Anna", key: "anna" });

    // A guesser on many addresses: after PIN_WRONG_BURST wrong PINs even the right one is not checked for a while.
    for (let i = 1; i < PIN_WRONG_BURST; i++)
      assert.match(problem(await ask("Anna", CODE, `10.0.1.${i}`, `falsch${i}`)), /stimmt nicht/);
    assert.match(problem(await ask("Anna", CODE, "10.0.2.1", "Kätzchen7")), /Zu viele falsche PINs für diesen Namen/);
    now += PIN_WRONG_REFILL_MS;
    assert.deepEqual(await ask("Anna", CODE, "10.0.2.1", "Kätzchen7"), { name: "Anna", key: "anna" });

    // Wrong PINs use up the address's wrong tries, as wrong codes do.
    for (const name of ["Ben", "Cem"]) {
      assert.deepEqual(await ask(name, CODE, "10.0.3.1", "pin-von-" + name), { name, key: name.toLowerCase() });
      participants.push({ name, user: `kurs-${name.toLowerCase()}` });
    }
    for (const name of ["Ben", "Cem"])
      for (let i = 0; i < PIN_WRONG_BURST - 1; i++)
        assert.match(problem(await ask(name, CODE, "10.0.4.1", `falsch${i}`)), /stimmt nicht/);
    for (let i = 2 * (PIN_WRONG_BURST - 1); i < WRONG_CODE_BURST; i++)
      assert.match(problem(await ask("Rater", "falscher-code", "10.0.4.1")), /Beitrittscode stimmt nicht/);
    assert.match(problem(await ask("Rater", "falscher-code", "10.0.4.1")), /Zu viele falsche Codes/);
    // ... but one guesser there does not lock the room out: a right PIN from that address still gets in.
    assert.deepEqual(await ask("Ben", CODE, "10.0.4.1", "pin-von-Ben"), { name: "Ben", key: "ben" });

    // The instructor resets a forgotten PIN: the next login chooses a new one.
    assert.equal(pins.reset("anna"), true);
    assert.deepEqual(await ask("Anna", CODE, "10.0.5.1", "neu-1234"), { name: "Anna", key: "anna" });
    assert.match(problem(await ask("Anna", CODE, "10.0.5.1", "Kätzchen7")), /stimmt nicht/);
  });
});

test("two logins with one new name at the same moment: the first PIN counts, the other must know it", async () => {
  await withLoginCheck({}, async (ask) => {
    const answers = await Promise.all([
      ask("Zoë Gleichzeitig", CODE, "10.0.9.1", "erste-pin-1"),
      ask("Zoë Gleichzeitig", CODE, "10.0.9.2", "zweite-pin-2"),
    ]);
    const admitted = answers.filter((a) => "name" in a);
    assert.equal(admitted.length, 1, JSON.stringify(answers)); // before: both, the second PIN overwrote the first
    assert.match(problem(answers.find((a) => !("name" in a))!), /Die PIN für „Zoë Gleichzeitig“ stimmt nicht/);
    const winner = answers[0] === admitted[0] ? "erste-pin-1" : "zweite-pin-2";
    assert.deepEqual(await ask("Zoë Gleichzeitig", CODE, "10.0.9.3", winner), {
      name: "Zoë Gleichzeitig",
      key: "zoë gleichzeitig",
    });
  });
});

test("logins at the same moment are checked and put on the board together; --max stays exact", async () => {
  const board = await slowBoard(3);
  try {
    const participants: HubParticipant[] = [{ name: "Anna Müller", user: "kurs-anna-mueller" }];
    await withLoginCheck({ boardUrl: board.url, max: 4, participants: () => participants }, async (ask) => {
      const names = ["Ben Schäfer", "Clara Öztürk", "Dora Weiß", "Emil Groß", "Fatma Yılmaz"];
      const answers = await Promise.all(names.map((n, i) => ask(n, CODE, `192.168.1.${30 + i}`)));
      const admitted = answers.filter((a) => "name" in a).map((a) => ("name" in a ? a.name : ""));
      assert.equal(admitted.length, 3, `4 seats, Anna has one: ${JSON.stringify(answers)}`); // before: 5
      assert.equal(answers.filter((a) => /Der Kurs ist voll \(4 Teilnehmende\)/.test(problem(a))).length, 2);
      assert.ok(board.maxInFlight() >= 3, `board joins ran one at a time (at most ${board.maxInFlight()} at once)`);
      // A granted participant who logs in again (the hub has not written the list yet) keeps the seat.
      assert.ok("name" in (await ask(admitted[0]!, CODE)));
    });
  } finally {
    await board.close();
  }
});

test("a name the board refuses gives its seat back", async () => {
  const state = new BoardState(CODE);
  state.join("Anna", Date.now());
  const board = await startBoardInProcess(state);
  try {
    await withLoginCheck({ boardUrl: board.url, max: 1 }, async (ask) => {
      assert.match(problem(await ask("\u0410nna", CODE)), /sieht aus wie „Anna“/);
      assert.deepEqual(await ask("Ben", CODE), { name: "Ben", key: "ben" }, "the one seat is still free");
    });
  } finally {
    await board.close();
  }
});
