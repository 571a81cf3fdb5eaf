// What the class board costs a participant's self-check, and how the board keeps up with a full room.
// 1. A self-check run (runChecks, Aufgabe 1 buildMessages, correct solution): median time without a
//    board, with a healthy board, a board that is down (closed port) and one that never answers.
// 2. 25 participants posting every check of Aufgabe 1–4 at once against the real board subprocess:
//    p50/p99 of one post and the time until all are in.
// Run: npm run bench -- class-board
import { createServer as createTcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createServer as createHttpServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BoardReporter,
  REPORT_GRACE_MS,
  REPORT_TIMEOUT_MS,
  type BoardSettings,
} from "../lib/exercises/board-report.js";
import { BOARD_CHECKS, BOARD_CODE_HEADER, BOARD_PARTS, BOARD_POST_PATH } from "../lib/exercises/board-record.js";
import { runChecks } from "../lib/exercises/check-runner.js";
import { checkBuildMessages } from "../lib/exercises/part1-checks.js";
import { startBoardProcess } from "../test/helpers/board-process.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportNumericGoal } from "./summary.js";
import { correctBuildMessages } from "../test/helpers/solutions.js";

const CODE = "bench-code-1";
const RUNS = 15;
const PEOPLE = 25;

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function medianRun(board: () => BoardReporter | false): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const reporter = board();
    const t = performance.now();
    await runChecks(checkBuildMessages.set, correctBuildMessages, { board: reporter, log: () => undefined });
    times.push(performance.now() - t);
  }
  return quantile(times, 0.5);
}

const dir = mkdtempSync(join(tmpdir(), "board-bench-"));
const board = await startBoardProcess(["--code", CODE, "--data", join(dir, "e.json")]);
const sockets: Socket[] = [];
const silent = createTcpServer((s) => sockets.push(s));
await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
const closed = createHttpServer();
await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
const closedPort = (closed.address() as AddressInfo).port;
await new Promise((r) => closed.close(r));

try {
  const at = (url: string, name: string): BoardSettings => ({ url, name, code: CODE });
  let n = 0;
  const none = await medianRun(() => false);
  const healthy = await medianRun(() => new BoardReporter(at(board.url, `Bench ${n++}`)));
  const down = await medianRun(() => new BoardReporter(at(`http://127.0.0.1:${closedPort}`, "Bench")));
  const hanging = await medianRun(
    () => new BoardReporter(at(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, "Bench")),
  );
  console.log(
    `One self-check run (buildMessages, ${checkBuildMessages.set.cases.length} cases), median of ${RUNS}, Node ${process.version}\n`,
  );
  printMarkdownTable(
    ["board", "ms"],
    [
      ["none", none],
      ["healthy (subprocess)", healthy],
      ["down", down],
      ["never answers", hanging],
    ].map(([k, v]) => [String(k), (v as number).toFixed(1)]),
  );
  // By design a run waits at most REPORT_GRACE_MS for its report, whatever the board does.
  const limit = REPORT_GRACE_MS + 20;
  reportNumericGoal("self-check run with a healthy board, extra ms", healthy - none, limit, { unit: " ms", digits: 1 });
  reportNumericGoal("self-check run with the board down, extra ms", down - none, limit, { unit: " ms", digits: 1 });
  reportNumericGoal("self-check run with a board that never answers, extra ms", hanging - none, limit, {
    unit: " ms",
    digits: 1,
  });

  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: PEOPLE }, async (_, i) => {
      for (const aufgabe of BOARD_PARTS) {
        for (const check of BOARD_CHECKS[aufgabe]) {
          const t = performance.now();
          const response = await fetch(new URL(BOARD_POST_PATH, board.url), {
            method: "POST",
            headers: { "content-type": "application/json", [BOARD_CODE_HEADER]: CODE },
            body: JSON.stringify({
              name: `Person ${i}`,
              aufgabe,
              check,
              passed: 3,
              failed: i % 2,
              at: new Date().toISOString(),
            }),
          });
          await response.text();
          if (!response.ok) throw new Error(`post ${response.status}`);
          latencies.push(performance.now() - t);
        }
      }
    }),
  );
  const allIn = performance.now() - t0;
  const posts = latencies.length;
  console.log(
    `\n${PEOPLE} participants × ${posts / PEOPLE} checks posted at once: ${posts} posts in ${allIn.toFixed(0)} ms`,
  );
  printMarkdownTable(
    ["p50 ms", "p99 ms", "max ms"],
    [[quantile(latencies, 0.5), quantile(latencies, 0.99), Math.max(...latencies)].map((x) => x.toFixed(1))],
  );
  // A report that takes longer than REPORT_TIMEOUT_MS is dropped by the kernel; keep far below it.
  reportNumericGoal(
    `one post while ${PEOPLE} participants post every check, p99`,
    quantile(latencies, 0.99),
    REPORT_TIMEOUT_MS / 2,
    { unit: " ms", digits: 1, detail: `all ${posts} in ${allIn.toFixed(0)} ms` },
  );
} finally {
  await board.stop("SIGTERM");
  sockets.forEach((s) => s.destroy());
  silent.close();
  rmSync(dir, { recursive: true, force: true });
}
