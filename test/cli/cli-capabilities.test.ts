// The CLI's issue-14 features as a real subprocess: approval without a terminal (rejected, never
// hangs) and with --yes, warnings under the answer, --chat over piped input with --session, a damaged
// session file, --help. Plans come from a local fake OpenAI server so the model's choice is fixed.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { startFakeOpenAiServer, type FakeReply } from "../helpers/fake-openai-server.js";
import { runCliHere, runCliOnTinyModels } from "../helpers/run-script.js";

before(async () => {
  await ensureTinyModels();
});

/** Runs the CLI with `input` piped to stdin (not a terminal). */
function runCli(args: string[], env: Record<string, string>, input = "") {
  return runCliOnTinyModels(args, { TRAVEL_TODAY: "2026-01-29", ...env }, { input });
}

const text = (value: unknown): FakeReply => ({ kind: "text", text: JSON.stringify(value) });
const savePlan = {
  steps: [
    {
      description: "Speichern",
      tools: [
        {
          id: "plan_rom",
          name: "save_trip_plan",
          arguments: { file_name: "rom", title: "Rom", content: "## Tag 1\n- Kolosseum" },
        },
      ],
    },
  ],
  final: null,
};

async function withFakeModel(replies: FakeReply[], run: (env: Record<string, string>) => Promise<void>) {
  const llm = await startFakeOpenAiServer(replies);
  try {
    await run({ LLM_BACKEND: "openai", LLM_BASE_URL: llm.baseUrl });
  } finally {
    await llm.close();
  }
}

test("without a terminal a side-effecting call is rejected with a clear message; --yes approves and shows the diff", async () => {
  const workspace = mkdtempSync(join(tmpdir(), "cli-ws-"));
  await withFakeModel([text(savePlan), text({ steps: [], final: "In Rom sind es 31 °C." })], async (env) => {
    const r = await runCli(["Speichere einen Plan für Rom", "--offline", "--rag-k", "0", "--max-iterations", "3"], {
      ...env,
      TRAVEL_WORKSPACE_DIR: workspace,
    });
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    assert.match(r.stdout, /Kein Terminal: Tools, die etwas verändern, werden abgelehnt/);
    assert.match(r.stdout, /✋ plan_rom \(save_trip_plan\) abgelehnt: .*hier kann niemand freigeben/);
    assert.match(r.stdout, /Hinweise:\n {2}⚠ nicht belegt: 31 °C/);
    assert.deepEqual(readdirSync(workspace), []);
  });
  await withFakeModel([text(savePlan), text({ steps: [], final: "Gespeichert." })], async (env) => {
    const r = await runCli(["Speichere einen Plan für Rom", "--offline", "--rag-k", "0", "--yes"], {
      ...env,
      TRAVEL_WORKSPACE_DIR: workspace,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /Freigabe nötig: save_trip_plan \(plan_rom\)[^\n]*\nDatei im Arbeitsordner: rom\.md \(neu, \d+ Bytes\)\n--- \/dev\/null\n\+\+\+ b\/rom\.md/,
    );
    assert.match(r.stdout, /automatisch freigegeben \(--yes\)/);
    assert.equal(readFileSync(join(workspace, "rom.md"), "utf8"), "# Rom\n\n## Tag 1\n- Kolosseum\n");
  });
});

test("--chat reads follow-ups from piped input, --session saves and resumes the conversation", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "cli-session-")), "gespraech.json");
  const answer = (final: string) => text({ steps: [], final });
  await withFakeModel([answer("Erste Antwort."), answer("Zweite Antwort.")], async (env) => {
    const r = await runCli(
      ["--chat", "--offline", "--rag-k", "0", "--session", file],
      env,
      "Wo liegt Rom?\nUnd morgen?\n",
    );
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    assert.deepEqual(
      [...r.stdout.matchAll(/Antwort:\n(.*)/g)].map((m) => m[1]),
      ["Erste Antwort.", "Zweite Antwort."],
    );
  });
  const saved = JSON.parse(readFileSync(file, "utf8")) as { turns: { question: string }[] };
  assert.deepEqual(
    saved.turns.map((t) => t.question),
    ["Wo liegt Rom?", "Und morgen?"],
  );
  await withFakeModel([answer("Dritte Antwort.")], async (env) => {
    const r = await runCli(["Und übermorgen?", "--offline", "--rag-k", "0", "--session", file], env);
    assert.match(r.stdout, /Gespräch fortgesetzt: 2 frühere Frage\(n\)/);
  });
});

test("a damaged session file: German message, exit code 2, no stack trace", async () => {
  const file = join(mkdtempSync(join(tmpdir(), "cli-session-")), "kaputt.json");
  writeFileSync(file, "{ kaputt");
  const r = await runCli(["Hallo?", "--offline", "--rag-k", "0", "--session", file], {});
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Die Sitzungsdatei „.*kaputt\.json" ist beschädigt: kein gültiges JSON/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});

test("--help explains chat, sessions, approval and warnings", async () => {
  const r = await runCliHere(["--help"]);
  assert.equal(r.code, 0);
  for (const option of ["--chat", "--session <datei.json>", "--yes", "--approval-timeout <s>", "--answer-writer"])
    assert.ok(r.stdout.includes(option), option);
  assert.match(r.stdout, /\[j\]a \/ \[n\]ein \/ n: <Begründung>/);
});
