// `--votes k` on the tiny GGUF and the offline travel server (a real subprocess); the CLI's command runs in
// this process (runCliHere: same parsing, messages and exit codes as scripts/kit.ts).
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { startFakeOpenAiServer } from "../helpers/fake-openai-server.js";
import { runCliHere } from "../helpers/run-script.js";

const runCli = (args: string[], env: Record<string, string> = {}) => runCliHere(args, env);
const tracePath = () => join(mkdtempSync(join(tmpdir(), "kit-cli-votes-")), "t.json");

/** What `--trace` writes with `--votes`: the winning run's trace plus the vote with every run's events. */
interface VoteTraceFile {
  question: string;
  status?: string;
  final?: string;
  events: { type: string }[];
  vote: {
    rule: string;
    runsUsed: number;
    decision: { winner: string | null };
    runs: { run: number; status: string; events: { type: string }[] }[];
  };
}

before(async () => {
  await ensureTinyModels();
});

test("--votes: bad values and combinations are refused with a German message (exit 2)", async () => {
  const zero = await runCliHere(["Frage?", "--votes", "0"]);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--votes erwartet eine Zahl ≥ 1/);
  const chat = await runCliHere(["Frage?", "--votes", "3", "--chat"]);
  assert.equal(chat.code, 2);
  assert.match(chat.stderr, /--votes geht nur mit einer einzelnen Frage/);
});

test("--votes 2 on the tiny GGUF: both runs are reported, then the decision and an answer", async () => {
  const trace = tracePath();
  const r = await runCli([
    "Wie ist heute das Wetter in Barcelona?",
    "--votes",
    "2",
    "--offline",
    "--rag-k",
    "0",
    "--max-iterations",
    "1",
    "--trace",
    trace,
  ]);
  assert.ok(r.code === 0 || r.code === 3, `exit ${r.code}: ${r.stderr}`);
  assert.match(r.stdout, /Abstimmung: Lauf 1 \(Seed 1\)/);
  assert.match(r.stdout, /Abstimmung: Lauf 2 \(Seed 2\)/);
  assert.match(r.stdout, /Abstimmung \(2 Stimmen Vorsprung\): .*2 Läufe, 0 gespart/);
  assert.match(r.stdout, /Antwort:\n\S/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  // With or without a winner the trace is written: every run with its events.
  assert.ok(existsSync(trace), "--trace wrote no file");
  const saved = JSON.parse(readFileSync(trace, "utf8")) as VoteTraceFile;
  assert.equal(saved.vote.runs.length, 2);
  for (const run of saved.vote.runs) assert.equal(run.events[0]?.type, "run_start");
});

test("--votes 3 --trace: the winning run's trace plus the vote summary with every run's events", async () => {
  const answer = { kind: "text" as const, text: JSON.stringify({ steps: [], final: "Sonnig, 24 Grad." }) };
  const llm = await startFakeOpenAiServer([answer]);
  try {
    const trace = tracePath();
    const r = await runCli(
      ["Wetter in Rom?", "--votes", "3", "--offline", "--rag-k", "0", "--max-iterations", "1", "--trace", trace],
      {
        LLM_BACKEND: "openai",
        LLM_BASE_URL: llm.baseUrl,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`Ablauf gespeichert: ${trace.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`));
    assert.ok(existsSync(trace), "--trace wrote no file");
    const saved = JSON.parse(readFileSync(trace, "utf8")) as VoteTraceFile;
    assert.equal(saved.question, "Wetter in Rom?");
    assert.equal(saved.status, "answered");
    assert.equal(saved.final, "Sonnig, 24 Grad.");
    assert.equal(saved.events[0]?.type, "run_start");
    assert.equal(saved.events.at(-1)?.type, "final");
    assert.equal(saved.vote.rule, "ahead-by");
    assert.equal(saved.vote.runsUsed, 2, "two agreeing runs decide (margin 2)");
    assert.notEqual(saved.vote.decision.winner, null);
    assert.deepEqual(
      saved.vote.runs.map((run) => [run.run, run.status, run.events[0]?.type, run.events.at(-1)?.type]),
      [
        [0, "answered", "run_start", "final"],
        [1, "answered", "run_start", "final"],
      ],
    );
  } finally {
    await llm.close();
  }
});
