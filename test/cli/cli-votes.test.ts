// `--votes k` as a newcomer runs it: a real subprocess with the tiny GGUF and the offline travel server.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { ensureTinyModels } from "../../scripts/tiny-models/ensure.js";
import { runCliOnTinyModels } from "../helpers/run-script.js";

const runCli = (args: string[]) => runCliOnTinyModels(args);

before(async () => {
  await ensureTinyModels();
});

test("--votes: bad values and combinations are refused with a German message (exit 2)", async () => {
  const zero = await runCli(["Frage?", "--votes", "0"]);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--votes erwartet eine Zahl ≥ 1/);
  const chat = await runCli(["Frage?", "--votes", "3", "--chat"]);
  assert.equal(chat.code, 2);
  assert.match(chat.stderr, /--votes geht nur mit einer einzelnen Frage/);
});

test("--votes 2 on the tiny GGUF: both runs are reported, then the decision and an answer", async () => {
  const r = await runCli(["Wie ist heute das Wetter in Barcelona?", "--votes", "2", "--offline", "--rag-k", "0", "--max-iterations", "1"]);
  assert.ok(r.code === 0 || r.code === 3, `exit ${r.code}: ${r.stderr}`);
  assert.match(r.stdout, /Abstimmung: Lauf 1 \(Seed 1\)/);
  assert.match(r.stdout, /Abstimmung: Lauf 2 \(Seed 2\)/);
  assert.match(r.stdout, /Abstimmung \(2 Stimmen Vorsprung\): .*2 Läufe, 0 gespart/);
  assert.match(r.stdout, /Antwort:\n\S/);
  assert.doesNotMatch(r.stderr, /^\s+at /m);
});
