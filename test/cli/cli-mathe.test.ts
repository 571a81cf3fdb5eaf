// The CLI with --mathe: the travel and the math server as real subprocesses behind one merged tool
// catalog, the tiny GGUF planning over it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, test } from "node:test";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";
import { runCliHere, runCommandHere } from "../helpers/run-script.js";

before(async () => {
  await ensureTinyModels();
});

test("--mathe attaches the math server: one run over the tools of both servers, ending cleanly", async () => {
  const trace = join(mkdtempSync(join(tmpdir(), "kit-cli-mathe-")), "trace.json");
  const question = "Um wie viel Grad ist es heute in Rom wärmer als in Oslo?";
  const r = await runCliHere(
    [question, "--mathe", "--offline", "--max-iterations", "2", "--rag-k", "0", "--trace", trace],
    {
      TRAVEL_TODAY: "2026-01-29",
    },
  );
  assert.ok([0, 3].includes(r.code ?? -1), `exit ${r.code}: ${r.stderr}`); // 3 = no answer within the rounds (random weights)
  assert.match(r.stdout, /Reise-Server: http:\/\/127\.0\.0\.1:\d+\/mcp \(Offline-Daten\)/);
  assert.match(r.stdout, /Rechen-Server: http:\/\/127\.0\.0\.1:\d+\/mcp/);
  assert.match(r.stdout, /\nAntwort:\n\S/);
  const saved = JSON.parse(readFileSync(trace, "utf8")) as { events: { type: string; tools?: string[] }[] };
  const tools = saved.events[0]?.tools ?? [];
  assert.deepEqual([...tools].sort(), [
    "addition",
    "ask_user",
    "division",
    "geocode",
    "get_parks",
    "get_spots",
    "get_weather",
    "multiplikation",
    "rank_spots",
    "rechne",
    "save_trip_plan",
    "subtraktion",
  ]);
  assert.equal(saved.events.at(-1)?.type, "final");
});

test("the help names --mathe", async () => {
  const r = await runCommandHere("start", ["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /--mathe\s+zusätzlich den Rechen-Server anbinden/);
});
