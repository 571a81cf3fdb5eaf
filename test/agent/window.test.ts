// The sliding window (pure): head and question always stay, older rounds are summarised, then dropped.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ChatMessage } from "../../lib/llm/types.js";
import { fitToWindow, summariseFeedback, wasTrimmed } from "../../lib/agent/window.js";

const count = (text: string) => Math.ceil(text.length / 4);
const feedback = (id: string, size: number) =>
  `Tool-Ergebnisse:\n{"id":"${id}","tool":"get_weather","arguments":{},"result":"${"x".repeat(size)}"}\n\nPlane weiter.`;
const round = (i: number, size = 400): ChatMessage[] => [
  { role: "assistant", content: `{"steps":[{"tools":[{"id":"w${i}"}]}],"final":null}` },
  { role: "user", content: feedback(`w${i}`, size) },
];
const parts = (rounds: number, history: ChatMessage[] = []) => ({
  head: [
    { role: "system" as const, content: "SYSTEM ".repeat(50) },
    { role: "system" as const, content: "KONTEXT ".repeat(20) },
  ],
  history,
  question: { role: "user" as const, content: "Wie wird das Wetter morgen in Rom?" },
  rounds: Array.from({ length: rounds }, (_, i) => round(i)).flat(),
});

describe("fitToWindow", () => {
  test("everything fits: sent unchanged", () => {
    const p = parts(2);
    const { messages, report } = fitToWindow(p, { budgetTokens: 10_000, count });
    assert.deepEqual(messages, [...p.head, p.question, ...p.rounds]);
    assert.equal(wasTrimmed(report), false);
  });

  test("20 rounds into a small budget: system, context and question stay, the newest rounds stay word for word", () => {
    const p = parts(20, [
      { role: "user", content: "Alte Frage" },
      { role: "assistant", content: "Alte Antwort" },
    ]);
    const { messages, report } = fitToWindow(p, { budgetTokens: 1200, count });
    assert.ok(report.tokens <= 1200, `${report.tokens} tokens`);
    assert.deepEqual(messages.slice(0, 2), p.head);
    assert.ok(messages.includes(p.question));
    assert.deepEqual(messages.slice(-2), round(19));
    assert.equal(report.droppedHistoryMessages, 2);
    assert.ok(report.summarisedRounds >= 1 && report.droppedRounds >= 1);
    assert.ok(messages.some((m) => m.content.includes("ältere Planungsrunde(n) ausgelassen")));
  });

  test("moderate pressure: older rounds summarised (ids and ok), nothing dropped", () => {
    const p = parts(4);
    const { messages, report } = fitToWindow(p, { budgetTokens: 600, count });
    assert.equal(report.droppedRounds, 0);
    assert.equal(report.summarisedRounds, 2);
    assert.ok(
      messages.some(
        (m) => m.content === "Tool-Ergebnisse (gekürzt, Werte weiter über $ref erreichbar): w0 (get_weather): ok",
      ),
    );
  });

  test("a single huge tool result is cut to fit", () => {
    const p = { ...parts(0), rounds: round(0, 40_000) };
    const { report, messages } = fitToWindow(p, { budgetTokens: 1000, count });
    assert.ok(report.shortened && report.tokens <= 1000);
    assert.match(messages.at(-1)?.content ?? "", /… \(gekürzt\)$/);
  });

  test("summariseFeedback keeps ids, tools and failure", () => {
    const text =
      'Tool-Ergebnisse:\n{"id":"a","tool":"geocode","arguments":{},"result":{}}\n{"id":"b","tool":"get_weather","arguments":{},"error":"kaputt"}\n\nx';
    assert.equal(
      summariseFeedback(text),
      "Tool-Ergebnisse (gekürzt, Werte weiter über $ref erreichbar): a (geocode): ok; b (get_weather): fehlgeschlagen",
    );
  });
});
