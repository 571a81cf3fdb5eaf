// The shared helpers of lib/util.ts: one copy each, used across the parts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { errorText, hasOwn, isPlainObject, ownValue } from "../../lib/util.js";

test("errorText: an Error's message (optionally with its class), anything else as String", () => {
  assert.equal(errorText(new TypeError("kaputt")), "kaputt");
  assert.equal(errorText(new TypeError("kaputt"), { withName: true }), "TypeError: kaputt");
  assert.equal(errorText("nur Text", { withName: true }), "nur Text");
  assert.equal(errorText(42), "42");
  assert.equal(errorText(undefined), "undefined");
});

test("isPlainObject, hasOwn and ownValue never follow inherited fields", () => {
  assert.deepEqual([isPlainObject({}), isPlainObject([]), isPlainObject(null), isPlainObject("x")], [true, false, false, false]);
  const bare = Object.create(null) as Record<string, unknown>;
  bare.a = 1;
  assert.equal(hasOwn(bare, "a"), true);
  assert.equal(ownValue(bare, "a"), 1);
  assert.equal(ownValue({}, "toString"), undefined);
  assert.equal(hasOwn({}, "__proto__"), false);
});
