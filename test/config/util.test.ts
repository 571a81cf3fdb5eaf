// The shared helpers of lib/util.ts: one copy each, used across the parts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { countText, errorText, germanNumber, hasOwn, ignore, isPlainObject, ownValue } from "../../lib/util.js";

test("errorText: an Error's message (optionally with its class), anything else as String", () => {
  assert.equal(errorText(new TypeError("kaputt")), "kaputt");
  assert.equal(errorText(new TypeError("kaputt"), { withName: true }), "TypeError: kaputt");
  assert.equal(errorText("nur Text", { withName: true }), "nur Text");
  assert.equal(errorText(42), "42");
  assert.equal(errorText(undefined), "undefined");
});

test("isPlainObject, hasOwn and ownValue never follow inherited fields", () => {
  assert.deepEqual(
    [isPlainObject({}), isPlainObject([]), isPlainObject(null), isPlainObject("x")],
    [true, false, false, false],
  );
  const bare = Object.create(null) as Record<string, unknown>;
  bare.a = 1;
  assert.equal(hasOwn(bare, "a"), true);
  assert.equal(ownValue(bare, "a"), 1);
  assert.equal(ownValue({}, "toString"), undefined);
  assert.equal(hasOwn({}, "__proto__"), false);
});

test("germanNumber: fixed decimals by default (toFixed's German twin), or the value as it is with { upTo }", () => {
  assert.equal(germanNumber(0.735, 3), "0,735");
  assert.equal(germanNumber(1.6, 1), "1,6");
  assert.equal(germanNumber(2558), "2.558");
  assert.equal(germanNumber(2.5), "3");
  assert.equal(germanNumber(0.25, { upTo: 6 }), "0,25");
  assert.equal(germanNumber(1234.5, { upTo: 6 }), "1.234,5");
  assert.equal(germanNumber(1 / 3, { upTo: 6 }), "0,333333");
  assert.equal(germanNumber(7, { upTo: 6 }), "7");
});

test("countText: the German noun in the right number, large counts with a thousands point", () => {
  assert.equal(countText(1, "Satz", "Sätze"), "1 Satz");
  assert.equal(countText(0, "Satz", "Sätze"), "0 Sätze");
  assert.equal(countText(1234, "Stimme", "Stimmen"), "1.234 Stimmen");
});

test("ignore(reason): the failure resolves to undefined; with KIT_DEBUG=1 it is printed with its reason", async (t) => {
  assert.equal(await Promise.reject(new Error("weg")).catch(ignore("closing what is gone")), undefined);
  assert.equal(await Promise.resolve(3).catch(ignore("never used")), 3);
  const printed: string[] = [];
  t.mock.method(console, "error", (line: string) => printed.push(line));
  await Promise.reject(new Error("weg")).catch(ignore("closing what is gone"));
  assert.deepEqual(printed, []);
  process.env.KIT_DEBUG = "1";
  try {
    await Promise.reject(new Error("weg")).catch(ignore("closing what is gone"));
  } finally {
    delete process.env.KIT_DEBUG;
  }
  assert.deepEqual(printed, ["ignored (closing what is gone): weg"]);
});
