// The board's progress classification and projector order (scripts/apps/board/progress.ts), the page's loopback
// warning and join line (page.ts, reach.ts) — pure functions, no server.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BOARD_CHECKS, type BoardPart } from "../../lib/exercises/board-record.js";
import { boardPage } from "../../scripts/apps/board/page.js";
import {
  DEFAULT_STUCK_AFTER_MIN,
  progressOf,
  projectorOrder,
  type Progress,
} from "../../scripts/apps/board/progress.js";
import { loopbackWarning } from "../../scripts/apps/board/reach.js";
import { BoardState, boardView, type Participant } from "../../scripts/apps/board/state.js";

const NOW = Date.parse("2026-11-27T10:00:00Z");
const MIN = 60_000;
const LIMIT = DEFAULT_STUCK_AFTER_MIN * MIN;

/** A participant from runs: [aufgabe, checks passed in order, a failing check after them?, minutes ago]. */
function person(name: string, runs: [BoardPart, number, boolean, number][]): Participant {
  const state = new BoardState("code-1234");
  for (const [aufgabe, passed, failing, ago] of runs) {
    for (const check of BOARD_CHECKS[aufgabe].slice(0, passed))
      state.apply({ name, aufgabe, check, passed: 2, failed: 0, at: "" }, NOW - ago * MIN);
    if (failing)
      state.apply(
        { name, aufgabe, check: BOARD_CHECKS[aufgabe][passed]!, passed: 0, failed: 1, at: "" },
        NOW - ago * MIN,
      );
  }
  return state.participants()[0] ?? { name, checks: [], lastOkAt: null, lastSeenAt: NOW };
}

test("stuck: a ❌ in the current Aufgabe; an old ❌ in an earlier one does not count", () => {
  assert.equal(
    progressOf(
      person("A", [
        [1, 4, false, 30],
        [2, 1, true, 1],
      ]),
      NOW,
      LIMIT,
    ).status,
    "haengt",
  );
  const movedOn = progressOf(
    person("B", [
      [1, 1, true, 30],
      [2, 2, false, 1],
    ]),
    NOW,
    LIMIT,
  );
  assert.deepEqual(movedOn, { status: "arbeitet", aufgabe: 2, sinceOkS: 60, overdue: false });
});

test("stuck: no ✅ for N minutes (since the first run when there was none); done never counts as stuck", () => {
  const slow = progressOf(person("C", [[2, 2, false, 25]]), NOW, LIMIT);
  assert.deepEqual(slow, { status: "haengt", aufgabe: 2, sinceOkS: 25 * 60, overdue: true });
  assert.equal(progressOf(person("C", [[2, 2, false, 25]]), NOW, 30 * MIN).status, "arbeitet", "N is configurable");
  const neverOk = progressOf(person("D", [[1, 0, true, 12]]), NOW, LIMIT);
  assert.deepEqual(neverOk, { status: "haengt", aufgabe: 1, sinceOkS: 12 * 60, overdue: true });
  assert.equal(progressOf(person("E", [[1, 4, false, 90]]), NOW, LIMIT).status, "fertig");
});

test("not started: no run at all", () => {
  assert.deepEqual(progressOf(person("F", []), NOW, LIMIT), {
    status: "nicht-begonnen",
    aufgabe: null,
    sinceOkS: null,
    overdue: false,
  });
});

test("projector order: stuck (longest without ✅ first), in progress, not started, done; names numerically", () => {
  const p = (status: Progress["status"], sinceOkS: number | null = null): Progress => ({
    status,
    aufgabe: 1,
    sinceOkS,
    overdue: false,
  });
  const rows = [
    { name: "Tn 10", progress: p("fertig") },
    { name: "Tn 2", progress: p("fertig") },
    { name: "Nina", progress: p("nicht-begonnen") },
    { name: "Olaf", progress: p("arbeitet", 30) },
    { name: "Anna", progress: p("haengt", 60) },
    { name: "Zoe", progress: p("haengt", 900) },
  ];
  assert.deepEqual(
    projectorOrder(rows).map((r) => r.name),
    ["Zoe", "Anna", "Olaf", "Nina", "Tn 2", "Tn 10"],
  );
});

test("/api/state keeps names in order and gives each row its progress and place on the projector", () => {
  const state = new BoardState("code-1234");
  state.apply({ name: "Berta", aufgabe: 1, check: "buildMessages", passed: 1, failed: 0, at: "" }, NOW);
  state.apply({ name: "Carl", aufgabe: 1, check: "buildMessages", passed: 0, failed: 1, at: "" }, NOW);
  const view = boardView(state, NOW, 5);
  assert.deepEqual(
    view.participants.map((r) => [r.name, r.progress.status, r.rank]),
    [
      ["Berta", "arbeitet", 1],
      ["Carl", "haengt", 0],
    ],
  );
  assert.equal(view.stuckAfterMin, 5);
});

test("the page: the loopback warning only when bound to loopback; URL and code each in one unbreakable piece", () => {
  const warning = loopbackWarning("127.0.0.1", ["192.168.1.20", "10.0.0.5"]);
  assert.equal(warning.command, "npm run board -- --host 0.0.0.0 --allowed-host 192.168.1.20");
  assert.match(warning.fix, /10\.0\.0\.5/);
  assert.match(loopbackWarning("127.0.0.1", []).command, /--allowed-host <Adresse-dieses-Rechners>$/);
  const join = { url: "http://192.168.1.20:8790", code: "fuchs-wolke-47", qrSvg: "<svg></svg>" };
  const local = boardPage({ join, loopback: warning });
  assert.match(local, /id="nur-lokal"[^>]*>⚠️ Das Board läuft nur auf diesem Rechner/);
  assert.match(local, /<code>npm run board -- --host 0\.0\.0\.0 --allowed-host 192\.168\.1\.20<\/code>/);
  assert.match(
    local,
    /<span class="stueck">--kurs <span id="beitritt-url">http:\/\/192\.168\.1\.20:8790<\/span><\/span>/,
  );
  assert.match(local, /<span class="stueck">--code <span id="beitritt-code">fuchs-wolke-47<\/span><\/span>/);
  assert.match(local, /\.beitritt \.stueck \{ white-space: nowrap; \}/);
  const network = boardPage({ join });
  assert.doesNotMatch(network, /nur-lokal/);
  assert.doesNotMatch(boardPage({}), /id="beitritt-code"|<svg/, "a browser elsewhere sees neither code nor QR");
});

test("judged against the class: done with Aufgabe 1 while the class works in 2 is 'zurück', not 'fertig'", () => {
  const early = person("Greta Hoffmann", [[1, 4, false, 30]]);
  assert.equal(progressOf(early, NOW, LIMIT).status, "fertig", "on their own: done");
  assert.deepEqual(progressOf(early, NOW, LIMIT, 2), {
    status: "zurueck",
    aufgabe: 1,
    sinceOkS: 30 * 60,
    overdue: false,
  });
  assert.equal(
    progressOf(
      person("Ben Schröder", [
        [1, 4, false, 30],
        [3, 1, false, 1],
      ]),
      NOW,
      LIMIT,
      2,
    ).status,
    "arbeitet",
    "ahead of the class is fine",
  );
  assert.equal(
    progressOf(person("Ida Kowalczyk", [[1, 1, true, 1]]), NOW, LIMIT, 2).status,
    "haengt",
    "a ❌ still comes first",
  );
  const state = new BoardState("code-1234");
  const run = (name: string, aufgabe: BoardPart) =>
    state.apply({ name, aufgabe, check: BOARD_CHECKS[aufgabe][0]!, passed: 1, failed: 0, at: "" }, NOW);
  run("Anna Schmidt", 1);
  run("Jonas Fischer", 2);
  run("Kira Nguyen", 2);
  state.join("Noah Große", NOW - 20 * MIN);
  const view = boardView(state, NOW);
  assert.deepEqual(view.classAufgabe, { aufgabe: 2, by: "mehrheit" });
  assert.equal(view.participants.find((p) => p.name === "Anna Schmidt")!.progress.status, "zurueck");
  assert.equal(
    view.participants.find((p) => p.name === "Noah Große")!.joinedAgoS,
    20 * 60,
    "not started: the time since joining",
  );
  state.classAufgabe = 1;
  assert.deepEqual(boardView(state, NOW).classAufgabe, { aufgabe: 1, by: "kursleitung" });
  assert.equal(boardView(state, NOW).participants.find((p) => p.name === "Anna Schmidt")!.progress.status, "arbeitet");
});

test("a check run on the untouched skeleton (NotSolvedError) is open: no ❌, no stuck, no ✅ time", () => {
  const state = new BoardState("code-1234");
  state.apply(
    { name: "Emma Zimmermann", aufgabe: 1, check: "buildMessages", passed: 4, failed: 0, at: "" },
    NOW - 3 * MIN,
  );
  state.apply(
    { name: "Emma Zimmermann", aufgabe: 1, check: "trimHistory", passed: 0, failed: 0, open: 6, at: "" },
    NOW,
  );
  const view = boardView(state, NOW);
  const row = view.participants[0]!;
  assert.deepEqual(row.cells[0], { aufgabe: 1, ok: 1, fail: 0, open: 1, total: 4, state: "teil" });
  assert.equal(row.progress.status, "arbeitet");
  assert.equal(row.lastOkAgoS, 3 * 60, "an open run is no ✅");
  assert.equal(view.topFailing, null);
});
