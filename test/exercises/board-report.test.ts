// What a self-check run sends to the class board, and that it never holds the run up: real runChecks, a
// real HTTP server that records what arrives, a closed port (board down) and a server that accepts
// connections and never answers (board hangs; fault injection).
import assert from "node:assert/strict";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { after, test } from "node:test";
import {
  BoardReporter,
  boardSettingsFromEnv,
  REPORT_TIMEOUT_MS,
  type BoardSettings,
} from "../../lib/exercises/board-report.js";
import { BOARD_CHECKS, BOARD_CODE_HEADER, BOARD_PARTS } from "../../lib/exercises/board-record.js";
import { runChecks } from "../../lib/exercises/check-runner.js";
import { checkBuildMessages } from "../../lib/exercises/part1-checks.js";
import { EXERCISE_CHECKS } from "../../lib/exercises/tasks.js";
import { correctBuildMessages } from "../helpers/solutions.js";

const closers: (() => void)[] = [];
after(() => closers.forEach((close) => close()));

const portOf = (s: HttpServer | TcpServer) => (s.address() as AddressInfo).port;
const listening = <S extends HttpServer | TcpServer>(s: S) =>
  new Promise<S>((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));

async function timedRun(board: BoardReporter | false, lines: string[] = []): Promise<number> {
  const start = performance.now();
  await runChecks(checkBuildMessages.set, correctBuildMessages, { board, log: (l) => lines.push(l) });
  return performance.now() - start;
}

async function baselineMs(): Promise<number> {
  const times = [];
  for (let i = 0; i < 5; i++) times.push(await timedRun(false));
  return times.sort((a, b) => a - b)[2]!;
}

test("the board's check list is the notebooks' check list", () => {
  for (const part of BOARD_PARTS)
    assert.deepEqual(
      BOARD_CHECKS[part],
      EXERCISE_CHECKS[part].map((c) => c.set.functionName),
    );
});

test("settings: nothing without KURS_BOARD; a German problem when it is incomplete", () => {
  assert.equal(boardSettingsFromEnv({}), undefined);
  assert.equal(boardSettingsFromEnv({ KURS_NAME: "Anna", KURS_CODE: "x" }), undefined);
  assert.match(String(boardSettingsFromEnv({ KURS_BOARD: "http://127.0.0.1:1" })), /KURS_NAME fehlt/);
  assert.match(
    String(boardSettingsFromEnv({ KURS_BOARD: "http://127.0.0.1:1", KURS_NAME: "\u3164" })),
    /KURS_NAME: Der Name enthält unsichtbare Zeichen/,
  );
  assert.match(
    String(boardSettingsFromEnv({ KURS_BOARD: "file:///etc/passwd", KURS_NAME: "A" })),
    /keine http-Adresse/,
  );
  assert.deepEqual(boardSettingsFromEnv({ KURS_BOARD: "http://10.0.0.5:8790", KURS_NAME: " Anna ", KURS_CODE: "c" }), {
    url: "http://10.0.0.5:8790/",
    name: "Anna",
    code: "c",
  });
});

test("one run sends exactly one small record — name, Aufgabe, check, counts, time — and nothing unless set up", async () => {
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  const server = await listening(
    createHttpServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.end('{"ok":true}');
      });
    }),
  );
  closers.push(() => server.close());
  const settings: BoardSettings = { url: `http://127.0.0.1:${portOf(server)}`, name: "Anna", code: "fuchs-wolke-47" };
  const lines: string[] = [];
  await timedRun(new BoardReporter(settings), lines);
  await timedRun(new BoardReporter(undefined), lines);
  await timedRun(new BoardReporter(boardSettingsFromEnv({})), lines);
  await runChecks({ ...checkBuildMessages.set, functionName: "eigenerTest" }, correctBuildMessages, {
    board: new BoardReporter(settings),
    log: () => undefined,
  });
  for (let i = 0; i < 20 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(received.length, 1);
  const record = JSON.parse(received[0]!.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(record).sort(), ["at", "aufgabe", "check", "failed", "name", "passed"]);
  assert.deepEqual(
    { ...record, at: undefined },
    {
      name: "Anna",
      aufgabe: 1,
      check: "buildMessages",
      passed: checkBuildMessages.set.cases.length,
      failed: 0,
      at: undefined,
    },
  );
  assert.equal(received[0]!.headers[BOARD_CODE_HEADER], "fuchs-wolke-47");
  assert.ok(received[0]!.body.length < 200);
  assert.ok(!lines.some((l) => l.includes("Klassen-Board")), "no hint when all is well");
});

test("a board that is down: the run takes its normal time and says so once per kernel", async () => {
  const closed = await listening(createHttpServer());
  const port = portOf(closed);
  await new Promise((r) => closed.close(r));
  const reporter = new BoardReporter({ url: `http://127.0.0.1:${port}`, name: "Anna", code: "c" });
  const baseline = await baselineMs();
  const lines: string[] = [];
  const times = [await timedRun(reporter, lines), await timedRun(reporter, lines), await timedRun(reporter, lines)];
  const hints = lines.filter((l) => l.includes("Klassen-Board"));
  assert.equal(hints.length, 1, lines.join("\n"));
  assert.match(hints[0]!, /nicht erreichbar – deine Selbsttests laufen normal weiter/);
  const bound = 3 * baseline + REPORT_TIMEOUT_MS / 2;
  assert.ok(
    Math.max(...times) < bound,
    `runs ${times.map((t) => t.toFixed(0)).join(", ")} ms, no-board run ${baseline.toFixed(0)} ms`,
  );
});

test("a board that hangs: every run still finishes in about its normal time, and requests do not pile up", async () => {
  const sockets: Socket[] = [];
  const silent = await listening(createTcpServer((socket) => sockets.push(socket)));
  closers.push(() => {
    sockets.forEach((s) => s.destroy());
    silent.close();
  });
  const reporter = new BoardReporter({ url: `http://127.0.0.1:${portOf(silent)}`, name: "Anna", code: "c" });
  const baseline = await baselineMs();
  const times = [];
  for (let i = 0; i < 6; i++) times.push(await timedRun(reporter));
  const bound = 3 * baseline + REPORT_TIMEOUT_MS / 2;
  assert.ok(
    Math.max(...times) < bound,
    `runs ${times.map((t) => t.toFixed(0)).join(", ")} ms, no-board run ${baseline.toFixed(0)} ms`,
  );
  assert.ok(sockets.length <= 4, `${sockets.length} connections held open`);
});
