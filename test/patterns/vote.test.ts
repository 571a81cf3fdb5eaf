// Voting runner: pure decision rules, normalisation, and runs against the real travel server
// (offline, subprocess) with scripted planners: isolation of staged writes, commit of the winner only,
// ties, red flags, early stop, determinism.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  decideVote,
  normalizeAnswer,
  outcomeKey,
  runVote,
  voteDecided,
  type VoteOptions,
} from "../../lib/patterns/vote.js";
import { voteHtml } from "../../lib/display/vote.js";
import { noisyAnswer, noisyPlanner } from "../../lib/testing/noisy-planner.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";
import type { ApprovalRequest } from "../../lib/agent/approval.js";
import type { McpToolClient } from "../../lib/mcp/index.js";
import type { ToolInfo } from "../../lib/mcp/types.js";
import { useTravelWorkspace } from "../helpers/travel-workspace.js";
import { TODAY } from "../agent/fixtures.js";

describe("normalisation and keys", () => {
  test("whitespace, case and German/English number formats collapse to one form", () => {
    assert.equal(normalizeAnswer("  Es sind 12,50 °C.  "), normalizeAnswer("es sind 12.5 °c"));
    assert.equal(normalizeAnswer("1.234,5 km"), normalizeAnswer("1,234.5 km"));
    assert.equal(normalizeAnswer("2.500.000 Einwohner"), "2500000 einwohner");
    assert.notEqual(normalizeAnswer("12,5 °C"), normalizeAnswer("12,6 °C"));
  });

  test("the key covers the staged changes, not only the text", () => {
    const change = (after: string) => ({ toolName: "save_trip_plan", preview: { path: "rom.md", after } as never });
    assert.equal(
      outcomeKey("Gespeichert.", [change("# Rom\n- Kolosseum")]),
      outcomeKey("gespeichert", [change("# Rom  - Kolosseum ")]),
    );
    assert.notEqual(
      outcomeKey("Gespeichert.", [change("# Rom\n- Kolosseum")]),
      outcomeKey("Gespeichert.", [change("# Rom\n- Forum")]),
    );
    assert.notEqual(outcomeKey("Gespeichert.", []), outcomeKey("Gespeichert.", [change("x")]));
  });
});

describe("decision rules (pure)", () => {
  test("majority: most votes win; equal top counts are a tie; red flags (null) do not vote", () => {
    assert.equal(decideVote(["a", "b", "a"]).winner, "a");
    const tie = decideVote(["a", "b", null, null]);
    assert.equal(tie.winner, null);
    assert.equal(tie.tie, true);
    assert.deepEqual(decideVote([null, null]), { winner: null, tie: false, tally: [] });
    assert.equal(decideVote(["a", null, null, "b", "b"]).winner, "b");
  });

  test("ahead-by-m stops as soon as one key leads by m", () => {
    assert.equal(voteDecided(["a", "a"], 7, "ahead-by", 2), true);
    assert.equal(voteDecided(["a", "b", "a"], 7, "ahead-by", 2), false);
    assert.equal(voteDecided(["a", "b", "a", "a"], 7, "ahead-by", 2), true);
    assert.equal(voteDecided(["a", null, null], 7, "ahead-by", 2), false);
    assert.equal(voteDecided(["a", "b"], 2, "ahead-by", 2), true, "k runs are the cap");
  });

  test("majority stops only when the remaining runs cannot change the outcome", () => {
    assert.equal(voteDecided(["a", "a"], 5, "majority"), false);
    assert.equal(voteDecided(["a", "a", "a"], 5, "majority"), true);
    assert.equal(voteDecided(["a", "a"], 3, "majority"), true);
    assert.equal(voteDecided(["a", "b"], 3, "majority"), false);
  });
});

let client: McpToolClient;
let catalog: ToolInfo[];
let dir: string;
useTravelWorkspace("agent-vote-", { today: TODAY, clearBetweenTests: true }, (ws) => ({ client, catalog, dir } = ws));

const save = (content: string) => ({
  steps: [
    {
      description: "Plan speichern",
      tools: [{ id: "save", name: "save_trip_plan", arguments: { file_name: "rom", title: "Rom", content } }],
    },
  ],
  final: null,
});
const answer = (final: string) => ({ steps: [], final });
const base = (extra: Partial<VoteOptions>): VoteOptions => ({
  question: "Speichere einen Rom-Plan.",
  tools: client,
  catalog,
  today: TODAY,
  k: 3,
  ...extra,
});

describe("runVote with the real travel server", () => {
  test("isolation: staged writes stay invisible to other runs and to disk until the winner is committed", async () => {
    const contents = ["- Kolosseum", "- Forum", "- Kolosseum"];
    const seenOnDisk: string[][] = [];
    const requests: ApprovalRequest[] = [];
    const result = await runVote(
      base({
        rule: "majority",
        llmForRun: (run) =>
          new ScriptedLlm([
            save(contents[run]!),
            async () => {
              seenOnDisk.push(await readdir(dir));
              return answer("Gespeichert in rom.md.");
            },
          ]),
        approve: async (request) => {
          requests.push(request);
          assert.deepEqual(await readdir(dir), [], "nothing on disk while the winner's write is asked");
          return true;
        },
      }),
    );
    assert.deepEqual(seenOnDisk, [[], [], []]);
    assert.equal(result.runsUsed, 3);
    assert.deepEqual(
      result.decision.tally.map((t) => [t.count, t.runs]),
      [
        [2, [0, 2]],
        [1, [1]],
      ],
    );
    assert.equal(requests.length, 1, "one approval: only the winner's change");
    assert.match(requests[0]!.preview!.diff, /Kolosseum/);
    assert.deepEqual(await readdir(dir), ["rom.md"]);
    assert.match(await readFile(join(dir, "rom.md"), "utf8"), /Kolosseum/);
    assert.doesNotMatch(await readFile(join(dir, "rom.md"), "utf8"), /Forum/);
    assert.equal(result.committed.length, 1);
    assert.ok(result.events.some((e) => e.type === "vote_commit" && e.ok));
  });

  test("the winner's write still needs approval: rejected → nothing on disk", async () => {
    const result = await runVote(
      base({ llmForRun: () => new ScriptedLlm([save("- A"), answer("ok")]), approve: () => false }),
    );
    assert.equal(result.decision.winner !== null, true);
    assert.deepEqual(await readdir(dir), []);
    assert.equal(result.committed.length, 0);
    const approval = result.events.find((e) => e.type === "vote_approval");
    assert.equal(approval?.type === "vote_approval" && approval.outcome.allowed, false);
  });

  test("a tie commits nothing and says so", async () => {
    const contents = ["- A", "- B"];
    let asked = 0;
    const result = await runVote(
      base({
        k: 2,
        rule: "majority",
        llmForRun: (run) => new ScriptedLlm([save(contents[run]!), answer("ok")]),
        approve: () => (asked++, true),
      }),
    );
    assert.equal(result.decision.tie, true);
    assert.equal(result.final, "Unentschieden: 2 Ergebnisse mit je 1 Stimme; nichts übernommen.");
    assert.equal(asked, 0);
    assert.deepEqual(await readdir(dir), []);
    assert.match(voteHtml(result), /Kein Gewinner/);
  });

  test("one run without a usable answer: no valid vote, said in the singular", async () => {
    const result = await runVote(base({ k: 1, rule: "majority", llmForRun: () => new ScriptedLlm([]) }));
    assert.equal(result.final, "Keine gültige Stimme (1 Lauf ohne verwertbare Antwort); nichts übernommen.");
  });

  test("red-flagged runs (no answer, failure) do not vote and are counted", async () => {
    const scripts = [
      () => new ScriptedLlm([save("- A")], { whenExhausted: "repeat-last" }), // never answers → max_iterations
      () => new ScriptedLlm([answer("Rom")]),
      () => new ScriptedLlm([]), // script exhausted → llm error
      () => new ScriptedLlm([answer("rom.")]),
    ];
    const result = await runVote(
      base({ k: 4, rule: "majority", maxIterations: 2, llmForRun: (run) => scripts[run]!() }),
    );
    assert.equal(result.redFlagged, 2);
    assert.deepEqual(
      result.runs.map((r) => r.key === null),
      [true, false, true, false],
    );
    assert.equal(result.decision.tally.length, 1);
    assert.equal(result.decision.tally[0]!.count, 2);
    assert.equal(result.final, "Rom");
    assert.deepEqual(await readdir(dir), [], "the red-flagged run's staged write is discarded");
    assert.match(voteHtml(result), /ungültig/);
  });

  test("early stop: ahead-by-2 stops after two agreeing runs; majority of 5 needs three", async () => {
    const same = () => new ScriptedLlm([answer("Barcelona")]);
    const ahead = await runVote(base({ k: 5, llmForRun: same }));
    assert.equal(ahead.rule, "ahead-by");
    assert.equal(ahead.runsUsed, 2);
    assert.equal(ahead.runsSaved, 3);
    const majority = await runVote(base({ k: 5, rule: "majority", llmForRun: same }));
    assert.equal(majority.runsUsed, 3);
  });

  test("determinism: the same seeds give the same vote", async () => {
    const options = { p: 0.6, correct: "12 °C", wrong: ["15 °C", "9 °C"], salt: 7 };
    const a = await runVote(base({ k: 7, rule: "majority", llmForRun: noisyPlanner(options), baseSeed: 100 }));
    const b = await runVote(base({ k: 7, rule: "majority", llmForRun: noisyPlanner(options), baseSeed: 100 }));
    assert.deepEqual(
      a.runs.map((r) => r.key),
      b.runs.map((r) => r.key),
    );
    assert.deepEqual(a.decision, b.decision);
    assert.deepEqual(
      a.runs.map((r) => r.final),
      [100, 101, 102, 103, 104, 105, 106].slice(0, a.runsUsed).map((s) => noisyAnswer(options, s).text),
    );
  });
});
