// The helpers the exercise notebooks hand out: JSON objects in chatty text, $ref paths, safe look-up,
// and the guard that keeps demo cells quiet while a task is unsolved.
import assert from "node:assert/strict";
import { test } from "node:test";
import { NotSolvedError, whenSolved } from "../../lib/exercises/index.js";
import { jsonObjectsIn } from "../../lib/exercises/part3.js";
import { lookUpRef, refPath } from "../../lib/exercises/part4.js";

test("jsonObjectsIn finds every top-level object, skips broken ones, ignores braces in strings", () => {
  const text = 'Ich nutze {geocode}: {"tool": "a", "arguments": {"x": "}"}} und ```json\n{"b": [1]}\n``` {"c": ';
  assert.deepEqual(jsonObjectsIn(text), [{ tool: "a", arguments: { x: "}" } }, { b: [1] }]);
  assert.deepEqual(jsonObjectsIn("kein JSON"), []);
  assert.deepEqual(jsonObjectsIn("[1, 2]"), []);
});

test("refPath knows both forms and nothing else", () => {
  assert.equal(refPath({ $ref: "geo.lat" }), "geo.lat");
  assert.equal(refPath("$ref:geo.lon"), "geo.lon");
  assert.equal(refPath("siehe $ref:geo.lat"), undefined);
  assert.equal(refPath({ $ref: "geo.lat", extra: 1 }), undefined);
  assert.equal(refPath(null), undefined);
});

test("lookUpRef follows own fields and list indexes, and names the path when it fails", () => {
  const results = { geo: { lat: 1, list: [{ n: "a" }, null] } };
  assert.equal(lookUpRef("geo.lat", results, {}), 1);
  assert.equal(lookUpRef("geo.list.1", results, {}), null);
  assert.equal(lookUpRef("user.raw", results, { raw: "Frage" }), "Frage");
  for (const bad of [
    "geo.hoehe",
    "geo.list.2",
    "geo.list.n",
    "geo.toString",
    "user.__proto__",
    "constructor.name",
    "rom.lat",
  ]) {
    assert.throws(
      () => lookUpRef(bad, results, {}),
      (e: Error) => e.message.includes(bad),
      bad,
    );
  }
});

test("whenSolved prints a hint for an unsolved task and passes other errors on", async () => {
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => lines.push(line);
  try {
    assert.equal(
      await whenSolved("1.1", () => {
        throw new NotSolvedError();
      }),
      undefined,
    );
    assert.equal(await whenSolved("1.1", async () => 42), 42);
  } finally {
    console.log = log;
  }
  assert.deepEqual(lines, ["⏳ Diese Zelle braucht Aufgabe 1.1 – sie ist noch nicht gelöst."]);
  await assert.rejects(
    whenSolved("1.1", () => {
      throw new Error("anders");
    }),
    /anders/u,
  );
  // Decided by class, not by text: another error that happens to say the same words passes on.
  await assert.rejects(
    whenSolved("1.1", () => {
      throw new Error("Noch nicht gelöst");
    }),
    /Noch nicht gelöst/u,
  );
});

test("NotSolvedError reads exactly as the old skeleton error did", () => {
  const error = new NotSolvedError();
  assert.equal(String(error), "Error: Noch nicht gelöst");
  assert.ok(error instanceof Error);
});
