// The vote table (display/vote.ts) and the German vote lines (display/event-text.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { describeVoteEvent } from "../../lib/display/event-text.js";
import { voteHtml } from "../../lib/display/vote.js";
import type { VoteRun } from "../../lib/patterns/vote.js";

const run = (n: number, key: string | null, final: string, redFlag?: string): VoteRun => ({
  run: n,
  seed: n,
  status: key ? "answered" : "max_iterations",
  final,
  key,
  ...(redFlag ? { redFlag } : {}),
  changes: [],
  promptTokensEvaluated: 0,
  durationMs: 5,
});

describe("vote display", () => {
  test("one escaped row per key, the winner highlighted, red-flagged runs in a last row", () => {
    const html = voteHtml({
      decision: {
        winner: "k1",
        tie: false,
        tally: [
          { key: "k1", count: 2, runs: [0, 2], final: "Rom <Italien> & mehr" },
          { key: "k2", count: 1, runs: [1], final: "Paris" },
        ],
      },
      runs: [run(0, "k1", "Rom"), run(1, "k2", "Paris"), run(2, "k1", "Rom"), run(3, null, "", "keine Antwort")],
      redFlagged: 1,
      runsUsed: 4,
      runsSaved: 1,
    });
    assert.match(html, /<table class="kit-vote-table tex2jax_ignore"/);
    const rows = [...html.matchAll(/<tr( style="[^"]*")?>(.*?)<\/tr>/g)].slice(1);
    assert.equal(rows.length, 3);
    assert.match(rows[0]![1]!, /font-weight:bold/, "winner row");
    assert.match(rows[0]![2]!, /<code>k1<\/code>.*>2<.*>1, 3<.*Rom &#60;Italien&#62; &#38; mehr/);
    assert.equal(rows[1]![1], undefined);
    assert.match(rows[2]![1]!, /color:#a00/);
    assert.match(rows[2]![2]!, /ungültig.*>1<.*>4<.*keine Antwort/);
    assert.match(html, /<p>Gewinner: <code>k1<\/code>; 4 Läufe, 1 gespart\.<\/p><\/div>$/);
  });

  test("German lines per vote event", () => {
    assert.equal(
      describeVoteEvent({ type: "vote_run", run: run(0, null, "", "leer") }),
      "Abstimmung: Lauf 1 (Seed 0) – ungültig (leer), 5 ms",
    );
    assert.equal(
      describeVoteEvent({
        type: "vote_commit",
        toolName: "save_trip_plan",
        path: "rom.md",
        ok: false,
        message: "abgelehnt",
      }),
      "Abstimmung: rom.md nicht geschrieben: abgelehnt",
    );
  });

  test("counts of one are singular: 1 Stimme, 1 Lauf", () => {
    const decision = {
      winner: null,
      tie: true,
      tally: [
        { key: "k1", count: 1, runs: [0], final: "Rom" },
        { key: "k2", count: 1, runs: [1], final: "Paris" },
      ],
    };
    assert.equal(
      describeVoteEvent({
        type: "vote_decision",
        decision,
        rule: "ahead-by",
        margin: 1,
        redFlagged: 0,
        runsUsed: 1,
        runsSaved: 1,
      }),
      "Abstimmung (1 Stimme Vorsprung): k1: 1, k2: 1; 0 ungültig; kein Gewinner, nichts übernommen; 1 Lauf, 1 gespart",
    );
  });
});
