// The empty exercises fail under the real notebook kernel, too. One throwaway notebook holds the
// // AUFGABE skeletons and self-check cells of aufgabe-1 … aufgabe-4 (no set-up cells: no model, no
// server) and runs once under Jupyter + tslab; every self-check cell of the empty skeletons must print
// ❌ („Noch nicht gelöst“) and its summary, in a few lines.
// notebooks.test.ts proves the same under tsx; the notebook stage of `npm test` only proves that each
// aufgabe-N runs without a crashing cell. One kernel start keeps this to about ten seconds.
// The kernel runs with KURS_BOARD/KURS_NAME/KURS_CODE set to a class board on loopback (the board's
// server in this process): every self-check cell must have reported its run there.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { after, before, test } from "node:test";
import { runNotebook, type NotebookResult } from "../../scripts/dev/run-notebooks.js";
import { testEnvironment } from "../../scripts/dev/test-env.js";
import { EXERCISE_CHECKS } from "../../lib/exercises/tasks.js";
import { CHECK_CALL, markerOf, notebookPairs, root } from "./notebook-cells.js";
import { BOARD_PARTS } from "../../lib/exercises/board-record.js";
import { startBoardServer, type RunningBoard } from "../../scripts/apps/board/server.js";
import { BoardState, boardView } from "../../scripts/apps/board/state.js";

interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
}

// Inside the project (git-ignored .cache), so the kernel finds node_modules; lib is linked in as notebooks/lib is.
mkdirSync(join(root, ".cache"), { recursive: true });
const dir = mkdtempSync(join(root, ".cache", "aufgaben-kernel-"));
const file = join(dir, `.aufgaben-selbsttests-${process.pid}.ipynb`);
const kept = join(root, ".cache", "notebooks", basename(file));

// The checks and types the skeleton and check cells use, imported from the modules that define them:
// the notebooks' own import cells go through their part's entry point (lib/exercises/partN), which also
// loads the set-up code (model, RAG store, MCP client) – compiling all of that under tslab would cost far
// more than the checks themselves.
const IMPORTS = `import { checkBuildMessages, checkIsRefusal, checkRefusalPrompt, checkTrimHistory, type Turn } from "./lib/exercises/part1-checks";
import type { ChatMessage } from "./lib/llm/types";
import { checkChunkSentences, checkHitAtK, checkSmallestK, type RetrievalResult } from "./lib/exercises/part2-checks";
import { checkCoordinatesFromHistory, checkMissingArguments, checkParseToolCall, type HistoryEntry, type ToolCall } from "./lib/exercises/part3-checks";
import { checkReadyCalls, checkReferencedIds, checkResolveRefs, type PlannedCall } from "./lib/exercises/part4-checks";
import { checkRechenPrompt, checkRechneAufruf, checkRetrieveContext, checkStreckenPlan, type MathCall, type RetrievalParts } from "./lib/exercises/transfer-checks";
import type { ToolClient } from "./lib/mcp/types";
import type { PlanStep } from "./lib/plan/plan";
import { NotSolvedError } from "./lib/exercises/check-runner";`;

/** One import cell, then the // AUFGABE skeletons and self-check cells of aufgabe-1 … aufgabe-4 in order. */
function combinedCells(): { source: string; checkedFunction?: string }[] {
  const cells: { source: string; checkedFunction?: string }[] = [{ source: IMPORTS }];
  for (const { exercise } of notebookPairs()) {
    for (const cell of exercise.cells) {
      if (cell.type !== "code") continue;
      if (markerOf(cell) === "task") {
        cells.push({ source: cell.source });
      } else {
        const call = CHECK_CALL.exec(cell.source.trim());
        if (call) cells.push({ source: cell.source, checkedFunction: call[2] });
      }
    }
  }
  return cells;
}

const cells = combinedCells();
let result: NotebookResult;
let outputs: string[];
const boardState = new BoardState("kernel-test-code");
let board: RunningBoard;
const KURS_NAME = "Kernel <Test>";

before(async () => {
  // As in the real notebooks, the last self-check is not the last cell.
  const all = [...cells, { source: 'console.log("Ende.");' }];
  const nb = {
    cells: all.map((c, i) => ({
      cell_type: "code",
      id: `c${i}`,
      execution_count: null,
      metadata: {},
      outputs: [],
      source: c.source,
    })),
    metadata: { kernelspec: { display_name: "TypeScript", language: "typescript", name: "tslab" } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  writeFileSync(file, JSON.stringify(nb));
  symlinkSync(join(root, "lib"), join(dir, "lib")); // as notebooks/lib: the cells import "./lib/…"
  board = await startBoardServer({
    host: "127.0.0.1",
    port: 0,
    state: boardState,
    onChange: () => undefined,
    log: console.error,
  });
  const env = {
    ...(await testEnvironment({ tinyModels: false })),
    KURS_BOARD: board.joinUrl,
    KURS_NAME,
    KURS_CODE: boardState.joinCode,
  };
  result = await runNotebook(root, file, env, true);
  const executed = existsSync(kept)
    ? (JSON.parse(readFileSync(kept, "utf8")) as { cells: { outputs?: Output[] }[] })
    : { cells: [] };
  outputs = executed.cells.map((c) =>
    (c.outputs ?? [])
      .filter((o) => o.output_type === "stream" && o.name === "stdout")
      .map((o) => (Array.isArray(o.text) ? o.text.join("") : (o.text ?? "")))
      .join(""),
  );
});

after(async () => {
  await board?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(kept, { force: true });
});

test("the combined skeleton notebook runs under tslab without a failing cell", () => {
  assert.deepEqual(result.failures, [], result.failures.map((f) => `cell ${f.cell}: ${f.error}`).join("\n"));
  assert.equal(outputs.length, cells.length + 1, "the executed notebook was read back");
});

test("every self-check cell of an empty exercise prints ❌ „Noch nicht gelöst“ and its summary in ≤ 10 lines", () => {
  const checked = cells.flatMap((c, i) =>
    c.checkedFunction ? [{ fn: c.checkedFunction, text: outputs[i] ?? "" }] : [],
  );
  const tasks = Object.values(EXERCISE_CHECKS).flatMap((checks) => checks.map((c) => c.set.functionName));
  assert.deepEqual(
    checked.map((c) => c.fn),
    tasks,
    "one self-check cell per task of aufgabe-1 … aufgabe-4, in order",
  );
  for (const { fn, text } of checked) {
    assert.match(text, new RegExp(`^🔎 Selbsttest „${fn}“`, "mu"), `${fn}: header printed`);
    assert.match(
      text,
      new RegExp(`^❌ Noch nicht gelöst: .*${fn}`, "mu"),
      `${fn}: one ❌ line naming the unsolved function`,
    );
    assert.doesNotMatch(text, /^✅/mu, `${fn}: no case passes on the empty skeleton`);
    assert.match(
      text,
      /^Ergebnis: 0 von \d+ Fällen bestanden, [1-9]\d* fehlgeschlagen/mu,
      `${fn}: summary with failures`,
    );
    const lines = text.trimEnd().split("\n").length;
    assert.ok(lines <= 10, `${fn}: the empty check prints ${lines} lines, at most 10 expected`);
  }
});

test("with KURS_BOARD, KURS_NAME, KURS_CODE set, every self-check cell reported its run to the board", () => {
  const view = boardView(boardState, Date.now());
  assert.deepEqual(
    view.participants.map((p) => p.name),
    [KURS_NAME],
  );
  const cells = view.participants[0]!.cells;
  for (const part of BOARD_PARTS) {
    const cell = cells.find((c) => c.aufgabe === part)!;
    // the skeletons throw NotSolvedError: reported as open, never ❌ (the board shows the task as not tried yet)
    assert.deepEqual(
      [cell.ok, cell.fail, cell.open, cell.state],
      [0, 0, EXERCISE_CHECKS[part].length, "teil"],
      `Aufgabe ${part}: every empty check reported open`,
    );
  }
  assert.ok(!outputs.some((o) => o.includes("Klassen-Board")), "no board hint when the board answers");
});
