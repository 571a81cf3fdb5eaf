// The CLI as a newcomer runs it: a real subprocess with the tiny models, the real travel server
// (offline data) and the real agent loop. Runs that are not about the process (help, usage errors, a
// missing model, the local date) run the command in this process (runCliHere); the end-to-end answer, the
// time zone and the missing question stay real processes.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { SCHEDULE_MODE_LABELS } from "../../lib/display/index.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { startFakeOpenAiServer } from "../helpers/fake-openai-server.js";
import { runCliHere, runCliOnTinyModels } from "../helpers/run-script.js";

const runCli = runCliOnTinyModels;

before(async () => {
  await ensureTinyModels();
});

/** The local date as YYYY-MM-DD (what the CLI calls "heute"). */
function localDate(d = new Date()): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

test("answers a question end to end and saves the trace", async () => {
  const trace = join(mkdtempSync(join(tmpdir(), "kit-cli-")), "trace.json");
  const r = await runCli(
    ["Wie ist heute das Wetter in Barcelona?", "--offline", "--max-iterations", "2", "--trace", trace],
    { TRAVEL_TODAY: "2026-01-29" },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Datum: 2026-01-29 \(aus TRAVEL_TODAY\)/);
  assert.match(
    r.stdout,
    /Frage: Wie ist heute das Wetter in Barcelona\? \(heute: 2026-01-29, Ausführung nach Abhängigkeiten, höchstens 2 Runden\)/,
  );
  assert.match(r.stdout, /Fertig: beantwortet\./);
  assert.doesNotMatch(r.stdout, /answered|Modus dependency/);
  assert.match(r.stdout, /Backend: node-llama-cpp/);
  assert.match(r.stdout, /Reise-Server: http:\/\/127\.0\.0\.1:\d+\/mcp \(Offline-Daten\)/);
  assert.match(r.stdout, /Runde 1:/);
  assert.match(r.stdout, /\nAntwort:\n\S/);
  const saved = JSON.parse(readFileSync(trace, "utf8")) as {
    question: string;
    events: { type: string; today?: string }[];
    status: string;
  };
  assert.equal(saved.question, "Wie ist heute das Wetter in Barcelona?");
  assert.equal(saved.events[0]?.type, "run_start");
  assert.equal(saved.events[0]?.today, "2026-01-29", "runAgent received the date (prompt and user.today)");
  assert.equal(saved.events.at(-1)?.type, "final");
  assert.equal(saved.status, "answered");
});

test("without TRAVEL_TODAY the local date reaches the agent", async () => {
  const trace = join(mkdtempSync(join(tmpdir(), "kit-cli-")), "trace.json");
  const before = localDate();
  const r = await runCliHere(
    ["Wie ist heute das Wetter in Rom?", "--offline", "--max-iterations", "1", "--rag-k", "0", "--trace", trace],
    { TRAVEL_TODAY: "" },
  );
  const after = localDate();
  assert.ok(r.code === 0 || r.code === 3, r.stderr);
  const saved = JSON.parse(readFileSync(trace, "utf8")) as { events: { type: string; today?: string }[] };
  assert.ok([before, after].includes(saved.events[0]?.today ?? ""), `today: ${saved.events[0]?.today}`);
  assert.match(r.stdout, new RegExp(`Datum: (${before}|${after})\n`));
});

test("without TRAVEL_TODAY the travel server it starts uses the CLI's local date, not the UTC date", async () => {
  // A zone whose date differs from UTC's right now: UTC+14 in the UTC afternoon, UTC-12 in the morning.
  const tz = new Date().getUTCHours() >= 12 ? "Etc/GMT-14" : "Etc/GMT+12";
  const cliDate = new Intl.DateTimeFormat("en-CA", { timeZone: tz }).format(new Date());
  assert.notEqual(cliDate, new Date().toISOString().slice(0, 10));
  // A scripted model: one weather call too far ahead (the error names the server's "heute"), then an answer.
  const far = { lat: 41.3874, lon: 2.1686, start_date: "2099-01-01", end_date: "2099-01-01", include_raw: null };
  const plan = {
    steps: [{ description: "Wetter", tools: [{ id: "w", name: "get_weather", arguments: far }] }],
    final: null,
  };
  const llm = await startFakeOpenAiServer([
    { kind: "text", text: JSON.stringify(plan) },
    { kind: "text", text: JSON.stringify({ steps: [], final: "Dafür gibt es keine Schätzung." }) },
  ]);
  try {
    const trace = join(mkdtempSync(join(tmpdir(), "kit-cli-")), "trace.json");
    const r = await runCli(
      ["Wetter in Barcelona 2099?", "--offline", "--max-iterations", "2", "--rag-k", "0", "--trace", trace],
      {
        TRAVEL_TODAY: "",
        TZ: tz,
        LLM_BACKEND: "openai",
        LLM_BASE_URL: llm.baseUrl,
      },
    );
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    assert.match(r.stdout, new RegExp(`Datum: ${cliDate}\n`));
    const saved = JSON.parse(readFileSync(trace, "utf8")) as { events: { type: string; message?: string }[] };
    const error = saved.events.find((e) => e.type === "tool_error");
    assert.ok(error, r.stdout);
    assert.match(error.message ?? "", new RegExp(`\\(heute: ${cliDate}\\)`));
  } finally {
    await llm.close();
  }
});

test("the help names the schedule modes with the labels the run uses", async () => {
  const r = await runCliHere(["--help"]);
  assert.equal(r.code, 0);
  for (const label of Object.values(SCHEDULE_MODE_LABELS)) assert.ok(r.stdout.includes(`(${label}`), label);
  assert.match(r.stdout, /lokale Datum; TRAVEL_TODAY=JJJJ-MM-TT/);
});

test("a malformed TRAVEL_TODAY is a German usage error before anything loads", async () => {
  const r = await runCliHere(["Wie ist heute das Wetter in Rom?", "--offline"], { TRAVEL_TODAY: "gestern" });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /TRAVEL_TODAY muss ein Datum JJJJ-MM-TT sein, nicht "gestern"\./);
  assert.doesNotMatch(r.stdout, /Backend:/);
});

test("without a model file it says where to put it, without a stack trace", async () => {
  const missing = join(tmpdir(), "kein-modell-hier.gguf");
  const r = await runCliHere(["Wie ist das Wetter in Rom?", "--offline", "--model", missing]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /Das Sprachmodell fehlt: .*kein-modell-hier\.gguf\nStimmt der Pfad in --model\?/);
  assert.match(r.stderr, /npm run models:pull/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
  assert.equal(existsSync(missing), false);
});

test("bad options and a missing question print usage and exit 2", async () => {
  const noQuestion = await runCli([]); // a real process: exit code 2 and usage on stdout
  assert.equal(noQuestion.code, 2);
  assert.match(noQuestion.stdout, /Aufruf: npm start/);
  const badNumber = await runCliHere(["Frage?", "--max-iterations", "viele"]);
  assert.equal(badNumber.code, 2);
  assert.match(badNumber.stderr, /--max-iterations erwartet eine Zahl/);
  const badMode = await runCliHere(["Frage?", "--mode", "turbo"]);
  assert.equal(badMode.code, 2);
  assert.match(badMode.stderr, /--mode muss eines von/);
  const unknown = await runCliHere(["Frage?", "--gibtsnicht"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unbekannte Option „--gibtsnicht“\..*gehört hinter „--“/);
  assert.match(unknown.stderr, /Aufruf: npm start/);
  assert.doesNotMatch(unknown.stderr, /Unknown option|^\s+at /m);
  const missingValue = await runCliHere(["Frage?", "--model"]);
  assert.equal(missingValue.code, 2);
  assert.match(missingValue.stderr, /Die Option „--model“ braucht einen Wert\./);
  const valueForFlag = await runCliHere(["Frage?", "--offline=ja"]);
  assert.equal(valueForFlag.code, 2);
  assert.match(valueForFlag.stderr, /Die Option „--offline“ nimmt keinen Wert\./);
  // Node names an option with a short alias as '-h, --help'; the message names the long form.
  const valueForHelp = await runCliHere(["--help=ja"]);
  assert.equal(valueForHelp.code, 2);
  assert.match(valueForHelp.stderr, /Die Option „--help“ nimmt keinen Wert\./);
});
