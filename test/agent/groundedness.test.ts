// The groundedness check: numbers, dates and places of an answer against what the model was given.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { checkGroundedness, isTravelQuestion } from "../../lib/agent/groundedness.js";

const geo = { query: "Rom", lat: 41.8933, lon: 12.4829, display_name: "Rom, Italien", source: "offline" };
const weather = { source: "offline", days: [{ date: "2025-06-14", tmin_c: 17.2, tmax_c: 27.6, precip_mm: 0.4 }] };
const question = "Wie wird das Wetter morgen in Rom?";

describe("checkGroundedness", () => {
  test("a grounded answer: rounded numbers, a German date, the place from the tool result", () => {
    const r = checkGroundedness({
      final: "Am 14. Juni werden in Rom bis zu 28 °C erwartet, nachts 17,2 °C, kaum Regen (0,4 mm).",
      question,
      toolResults: [geo, weather],
      toolCalls: 2,
    });
    assert.deepEqual(
      r.claims.map((c) => c.text),
      ["14. Juni", "28 °C", "17,2 °C", "0,4 mm", "Rom"],
    );
    assert.deepEqual(r.warnings, []);
  });

  test("an invented answer: each invented number, date and place is listed once", () => {
    const r = checkGroundedness({
      final: "In Rom sind es 24 °C, in Trastevere am 15.06. sogar 24 °C.",
      question,
      toolResults: [geo, weather],
      toolCalls: 2,
    });
    assert.deepEqual(
      r.unsupported.map((c) => [c.kind, c.text]),
      [
        ["date", "15.06."],
        ["number", "24 °C"],
        ["number", "24 °C"],
        ["place", "Trastevere"],
      ],
    );
    assert.deepEqual(r.warnings, ["nicht belegt: 15.06.", "nicht belegt: 24 °C", "nicht belegt: Trastevere"]);
  });

  test("the precision of the answer decides: 27.6 backs 28 and 27,6 but not 27,4", () => {
    const check = (final: string) =>
      checkGroundedness({ final, question, toolResults: [weather], toolCalls: 1 }).warnings;
    assert.deepEqual(check("Bis 28 °C."), []);
    assert.deepEqual(check("Bis 27,6 °C."), []);
    assert.deepEqual(check("Bis 27,4 °C."), ["nicht belegt: 27,4 °C"]);
  });

  test("question, context and earlier turns count as sources; list markers are not claims", () => {
    const r = checkGroundedness({
      final: "1. Museum in Florenz\n2. Am 3. Mai 12 Grad",
      question: "Was tun in Florenz am 3. Mai?",
      context: "Im Mai liegen die Tageswerte um 12 Grad.",
      toolResults: [],
      otherSources: [],
      toolCalls: 1,
    });
    assert.deepEqual(r.warnings, []);
  });

  test("a travel question answered without any tool is flagged, small talk is not", () => {
    const r = checkGroundedness({ final: "Gern ist gemütlich!", question, toolResults: [], toolCalls: 0 });
    assert.equal(r.noToolCalls, true);
    assert.match(r.warnings[0] ?? "", /ohne ein einziges Werkzeug-Ergebnis/);
    assert.equal(
      checkGroundedness({ final: "Hallo!", question: "Hallo, wer bist du?", toolResults: [], toolCalls: 0 })
        .noToolCalls,
      false,
    );
    assert.equal(isTravelQuestion("Wo kann ich in Lissabon joggen?"), true);
  });
});
