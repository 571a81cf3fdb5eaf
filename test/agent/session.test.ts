// AgentSession: follow-ups with history, save → load → continue, damaged files; and the sliding
// window on the real tiny GGUF (20 planning rounds, 10 follow-up questions: never a context overflow).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tinyModelPaths } from "../../lib/config.js";
import { loadLocalLlm, type LocalLlm } from "../../lib/llm/index.js";
import { AgentSession, SessionFileError } from "../../lib/agent/session.js";
import { runAgent } from "../../lib/agent/loop.js";
import { ScriptedLlm, type ScriptedRequest } from "../../lib/testing/scripted-llm.js";
import type { AgentEvent } from "../../lib/agent/trace.js";
import { createTravelFake, TODAY } from "./fixtures.js";

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), "session-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const geoPlan = (city: string) => ({
  steps: [{ description: "Ort", tools: [{ id: `geo_${city}`, name: "geocode", arguments: { destination: city } }] }],
  final: null,
});
const answer = (final: string) => ({ steps: [], final });

describe("AgentSession (scripted planner)", () => {
  test("a follow-up sees the earlier question, answer and tool facts; save → load → continue sends the same prompt", async () => {
    const tools = createTravelFake();
    const llm = new ScriptedLlm([
      geoPlan("Rom"),
      answer("Rom liegt bei 41.8933 N."),
      answer("Morgen bleibt es in Rom trocken."),
    ]);
    const session = new AgentSession({ llm, tools, today: TODAY });
    await session.ask("Wo liegt Rom?");
    await session.ask("Und morgen?");
    assert.deepEqual(
      session.turns.map((t) => t.question),
      ["Wo liegt Rom?", "Und morgen?"],
    );
    const followUp = llm.requests[2]?.messages.map((m) => `${m.role}: ${m.content}`).join("\n") ?? "";
    assert.match(
      followUp,
      /user: Wo liegt Rom\?\nassistant: Rom liegt bei 41\.8933 N\.\n\n\(Werkzeug-Fakten dazu: \{"geo_Rom":\{"lat":41\.8933/,
    );
    assert.match(followUp, /user: Und morgen\?$/);

    const path = join(dir, "sitzung.json");
    await session.save(path);
    const next = (requests: ScriptedRequest[]) => (r: ScriptedRequest) => (requests.push(r), answer("ok"));
    const a: ScriptedRequest[] = [];
    const b: ScriptedRequest[] = [];
    await session.ask("Und übermorgen?", { llm: new ScriptedLlm([next(a)]) });
    const loaded = await AgentSession.load(path, { llm: new ScriptedLlm([next(b)]), tools, today: TODAY });
    await loaded.ask("Und übermorgen?");
    assert.deepEqual(b[0]?.messages, a[0]?.messages, "same next prompt after save → load");
    assert.equal(loaded.turns.length, 3);
  });

  test("only the newest maxTurns turns are kept", async () => {
    const session = new AgentSession({
      llm: new ScriptedLlm([answer("a")], { whenExhausted: "repeat-last" }),
      tools: createTravelFake(),
      maxTurns: 2,
    });
    for (const q of ["eins?", "zwei?", "drei?"]) await session.ask(q);
    assert.deepEqual(
      session.turns.map((t) => t.question),
      ["zwei?", "drei?"],
    );
    assert.deepEqual(
      session
        .history()
        .filter((m) => m.role === "user")
        .map((m) => m.content),
      ["zwei?", "drei?"],
    );
  });

  test("a damaged or missing file gives a typed German error", async () => {
    const options = { llm: new ScriptedLlm([]), tools: createTravelFake() };
    const broken = join(dir, "kaputt.json");
    await writeFile(broken, '{"version": 1, "turns": [');
    await assert.rejects(
      AgentSession.load(broken, options),
      (e: unknown) =>
        e instanceof SessionFileError && e.kind === "not_json" && /ist beschädigt: kein gültiges JSON/.test(e.message),
    );
    await writeFile(broken, JSON.stringify({ version: 1, savedAt: "x", turns: [{ question: 1 }] }));
    await assert.rejects(
      AgentSession.load(broken, options),
      (e: unknown) =>
        e instanceof SessionFileError && e.kind === "invalid" && /Feld turns\.0\.question/.test(e.message),
    );
    await assert.rejects(
      AgentSession.load(join(dir, "fehlt.json"), options),
      (e: unknown) => e instanceof SessionFileError && e.kind === "unreadable" && /existiert nicht/.test(e.message),
    );
  });
});

describe("AgentSession files", () => {
  const options = () => ({ llm: new ScriptedLlm([]), tools: createTravelFake() });
  const turn = (question: string) => ({ question, answer: "ok", status: "answered" as const, facts: "", warnings: [] });

  test("two saves to one path at once, 200 rounds: the file is always one complete session, no temporary files stay", async () => {
    const sub = await mkdtemp(join(dir, "parallel-"));
    const path = join(sub, "sitzung.json");
    const a = new AgentSession(options(), [turn("kurz?")]);
    const b = new AgentSession(
      options(),
      Array.from({ length: 6 }, (_, i) => turn(`eine deutlich längere Frage Nummer ${i}?`.repeat(20))),
    );
    let corrupted = 0;
    for (let round = 0; round < 200; round++) {
      const saves = await Promise.allSettled([a.save(path), b.save(path)]);
      const loaded = await AgentSession.load(path, options()).catch(() => undefined);
      if (saves.some((s) => s.status === "rejected") || (loaded?.turns.length !== 1 && loaded?.turns.length !== 6))
        corrupted++;
    }
    assert.equal(corrupted, 0, `${corrupted} of 200 rounds failed a save or left a damaged file`);
    assert.deepEqual(await readdir(sub), ["sitzung.json"]);
  });

  test("saving into a missing folder: a typed German error that says what to do", async () => {
    const session = new AgentSession(options(), [turn("wo?")]);
    const path = join(dir, "fehlt", "sitzung.json");
    await assert.rejects(
      session.save(path),
      (e: unknown) =>
        e instanceof SessionFileError &&
        e.kind === "unwritable" &&
        /Ordner .*fehlt.* existiert nicht/.test(e.message) &&
        /Lege ihn an/.test(e.message),
    );
  });

  test("a file saved by an editor with a byte order mark loads", async () => {
    const path = join(dir, "bom.json");
    await writeFile(path, `\uFEFF${JSON.stringify(new AgentSession(options(), [turn("mit BOM?")]).toJSON())}`);
    const loaded = await AgentSession.load(path, options());
    assert.deepEqual(
      loaded.turns.map((t) => t.question),
      ["mit BOM?"],
    );
  });
});

// The short version of the window soak (bench/agent-window.bench.ts runs 20 planning rounds and 10
// follow-up questions): a prompt budget just above the planner prompt makes the window trim within a
// few rounds, so the path is exercised in about a tenth of the time.
describe("sliding window on the tiny GGUF (context 4096, default planner prompt 1,264 Llama 3 tokens)", () => {
  let llm: LocalLlm;
  let stateDir: string;
  before(async () => {
    stateDir = await mkdtemp(join(tmpdir(), "window-state-"));
    llm = await loadLocalLlm({
      modelPath: tinyModelPaths().gguf,
      gpu: "cpu",
      threads: 1,
      contextSize: 4096,
      promptStateDir: stateDir,
      warmStateDir: false,
    });
  });
  after(async () => {
    await llm?.dispose();
    await rm(stateDir, { recursive: true, force: true });
  });

  test("planning rounds under a tight prompt budget: the window trims, the run never overflows the context", async () => {
    const events: AgentEvent[] = [];
    const result = await runAgent({
      question: "Wie wird das Wetter morgen in Rom?",
      llm,
      tools: createTravelFake(),
      today: TODAY,
      maxIterations: 4,
      // Seed 4's random plans run long (seed 3 answers in round 2).
      generation: { maxTokens: 200, temperature: 0.8, seed: 4 },
      contextWindow: { maxPromptTokens: 1450 },
      onEvent: (e) => events.push(e),
    });
    assert.ok(["answered", "max_iterations"].includes(result.status), `${result.status}: ${result.error ?? ""}`);
    assert.ok(
      events.some((e) => e.type === "history_trimmed"),
      "the window had to trim",
    );
    assert.equal(events.filter((e) => e.type === "plan_error" && e.kind === "generation").length, 0);
  });

  test("follow-up questions in one session under a tight budget: earlier turns make room, no LLM error", async () => {
    const session = new AgentSession({
      llm,
      tools: createTravelFake(),
      today: TODAY,
      maxIterations: 2,
      maxTurns: 2,
      generation: { maxTokens: 200, temperature: 0.8, seed: 5 },
      contextWindow: { maxPromptTokens: 1450 }, // the planner prompt (1,264 tokens) + about one turn
    });
    let droppedHistory = 0;
    for (const q of ["Wie wird das Wetter morgen in Rom?", "Und übermorgen?", "Und in Berlin?"]) {
      const result = await session.ask(q, {
        onEvent: (e) => (droppedHistory += e.type === "history_trimmed" ? e.report.droppedHistoryMessages : 0),
      });
      assert.notEqual(result.status, "llm_error", `${q}: ${result.error ?? ""}`);
    }
    assert.equal(session.turns.length, 2, "maxTurns");
    assert.ok(droppedHistory > 0, "earlier turns had to be left out at some point");
  });
});
