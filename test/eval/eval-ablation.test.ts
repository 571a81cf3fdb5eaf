// The "feedback" ablation recognises the agent's plan feedback by the leads the agent's prompts export
// (PLAN_FEEDBACK_LEADS), not by a copy of their text: both feedback messages, as the agent writes them,
// reach the model blinded; every other message passes unchanged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { planParseErrorMessage, planProblemsMessage } from "../../lib/agent/prompts.js";
import { withoutFeedback } from "../../lib/eval/runner.js";
import { ScriptedLlm } from "../../lib/testing/scripted-llm.js";

test("the feedback ablation blinds both plan feedback messages and nothing else", async () => {
  const scripted = new ScriptedLlm(['{"steps": [], "final": "ok"}']);
  const problems = planProblemsMessage([{ kind: "unknown_tool", message: "Das Tool „fliegen“ gibt es nicht." }]);
  const parseError = planParseErrorMessage({ message: "kein JSON gefunden" });
  await withoutFeedback(scripted).chat([
    { role: "system", content: "System" },
    { role: "user", content: "Wie wird das Wetter in Wien?" },
    { role: "user", content: problems },
    { role: "user", content: parseError },
  ]);
  const sent = scripted.requests[0]!.messages.map((m) => m.content);
  assert.equal(sent[0], "System");
  assert.equal(sent[1], "Wie wird das Wetter in Wien?");
  for (const blinded of [sent[2], sent[3]]) {
    assert.match(blinded ?? "", /^Dein Plan war nicht verwendbar\./u);
    assert.doesNotMatch(blinded ?? "", /fliegen|kein JSON/u);
  }
});
