// The scripted answers (self-test, rehearsal) write numbers as Germans do, and the checkers still find them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mentionsNumber } from "../../lib/eval/checks.js";
import { fillAnswer } from "../../lib/testing/index.js";

test("a filled answer says „52,52 Grad Nord“, never 52.52, and the checker accepts it", () => {
  const results = new Map<string, unknown>([
    ["geo", { lat: 52.52, lon: 13.405, name: "Berlin", einwohner: 3_850_809 }],
  ]);
  const answer = fillAnswer(
    "Berlin liegt bei {geo.lat} Grad Nord und {geo.lon} Grad Ost; {geo.einwohner} Einwohner, {geo.fehlt}.",
    results,
  );
  assert.equal(answer, "Berlin liegt bei 52,52 Grad Nord und 13,405 Grad Ost; 3.850.809 Einwohner, ?.");
  assert.ok(mentionsNumber(answer, 52.52) && mentionsNumber(answer, 13.405) && mentionsNumber(answer, 3_850_809));
});
