import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { collectRefs, RefError, resolveRefs } from "../../lib/plan/refs.js";
import { describeValue } from "../../lib/plan/describe-value.js";

const results: Record<string, unknown> = {
  geo_bcn: { lat: 41.39, lon: 2.17, names: ["Barcelona", "Barna"], meta: { source: "offline" } },
  parks: {
    parks: [
      { name: "Parc Güell", distance_km: 1.2 },
      { name: "Ciutadella", distance_km: 0.4 },
    ],
  },
  plain: 42,
};
const user = { raw: "Wie ist das Wetter in Barcelona?", destination: "Barcelona", dates: ["2026-01-29"] };

function refError(fn: () => unknown): RefError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof RefError, `expected RefError, got ${String(error)}`);
    assert.equal(error.name, "RefError");
    return error;
  }
  assert.fail("expected a RefError");
}

describe("resolveRefs", () => {
  test("object and string forms, user.*, array indices", () => {
    const args = {
      lat: { $ref: "geo_bcn.lat" },
      lon: "$ref:geo_bcn.lon",
      city: { $ref: "user.destination" },
      date: "$ref:user.dates.0",
      second: { $ref: "parks.parks.1.name" },
      bracket: "$ref:parks.parks[0].distance_km",
      literal: "Barcelona",
    };
    assert.deepEqual(resolveRefs(args, results, user), {
      lat: 41.39,
      lon: 2.17,
      city: "Barcelona",
      date: "2026-01-29",
      second: "Ciutadella",
      bracket: 1.2,
      literal: "Barcelona",
    });
  });

  test("a bare {$ref: id} is replaced by the whole result; nested objects and arrays are walked", () => {
    const args = {
      all: { $ref: "geo_bcn" },
      nested: { points: [{ $ref: "geo_bcn.lat" }, ["$ref:plain"]], keep: [1, "x", null] },
    };
    assert.deepEqual(resolveRefs(args, results, user), {
      all: results.geo_bcn,
      nested: { points: [41.39, [42]], keep: [1, "x", null] },
    });
  });

  test("plain records work as result stores (own properties only)", () => {
    assert.equal(resolveRefs({ $ref: "a.b" }, { a: { b: 3 } }, {}), 3);
    const e = refError(() => resolveRefs({ $ref: "toString" }, { a: 1 }, {}));
    assert.equal(e.kind, "unknown_root");
  });

  test("missing path: typed error naming the ref and what was there", () => {
    const e = refError(() => resolveRefs({ x: { $ref: "geo_bcn.latitude" } }, results, user));
    assert.equal(e.kind, "missing_path");
    assert.equal(e.ref, "geo_bcn.latitude");
    assert.equal(e.segment, "latitude");
    assert.match(e.message, /geo_bcn\.latitude/);
    assert.match(e.found ?? "", /"lat", "lon"/);

    const index = refError(() => resolveRefs("$ref:parks.parks.5.name", results, user));
    assert.match(index.message, /Index 5/);
    assert.match(index.found ?? "", /Liste mit 2/);

    const scalar = refError(() => resolveRefs("$ref:plain.value", results, user));
    assert.match(scalar.found ?? "", /Zahl 42/);

    const word = refError(() => resolveRefs("$ref:geo_bcn.names.first", results, user));
    assert.match(word.message, /Index/);
  });

  test("unknown root", () => {
    const e = refError(() => resolveRefs({ $ref: "wetter.temp" }, results, user));
    assert.equal(e.kind, "unknown_root");
    assert.match(e.message, /"wetter"/);
  });

  test("forbidden segments: result./arguments. first, __proto__/constructor/prototype anywhere", () => {
    for (const ref of [
      "geo_bcn.result.lat",
      "geo_bcn.arguments",
      "geo_bcn.__proto__",
      "user.constructor",
      "geo_bcn.meta.prototype",
      "__proto__.x",
    ]) {
      const e = refError(() => resolveRefs({ $ref: ref }, results, user));
      assert.equal(e.kind, "forbidden_segment", ref);
    }
  });

  test("never walks prototypes", () => {
    for (const ref of [
      "geo_bcn.toString",
      "geo_bcn.hasOwnProperty",
      "geo_bcn.names.length",
      "geo_bcn.names.map",
      "user.valueOf",
    ]) {
      const e = refError(() => resolveRefs({ $ref: ref }, results, user));
      assert.equal(e.kind, "missing_path", ref);
    }
  });

  test("malformed references", () => {
    for (const value of [
      { $ref: 5 },
      { $ref: "geo_bcn.lat", extra: 1 },
      "$ref:",
      "$ref:geo_bcn..lat",
      { $ref: " " },
      "$ref:.lat",
    ]) {
      const e = refError(() => resolveRefs({ arg: value }, results, user));
      assert.equal(e.kind, "malformed", JSON.stringify(value));
    }
  });

  test("a key named __proto__ stays an own property and does not change the prototype", () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "a": {"$ref": "geo_bcn.lat"}}') as Record<
      string,
      unknown
    >;
    const out = resolveRefs(args, results, user) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(Object.prototype.hasOwnProperty.call(out, "__proto__"), true);
    assert.equal((out as { polluted?: unknown }).polluted, undefined);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });

  test("describeValue names class instances for what they are, not as empty objects", () => {
    assert.equal(describeValue(new Date("2026-01-29T00:00:00Z")), "ein Datum (Date 2026-01-29T00:00:00.000Z)");
    assert.equal(describeValue(new Date(Number.NaN)), "ein ungültiges Datum (Date)");
    assert.equal(describeValue(new Map([["a", 1]])), "eine Map mit 1 Eintrag");
    assert.equal(describeValue(new Set()), "eine Menge (Set) mit 0 Einträgen");
    assert.equal(describeValue(/ab+c/), "ein regulärer Ausdruck /ab+c/");
    assert.equal(describeValue(new TypeError("kaputt")), "ein Fehler (TypeError: kaputt)");
    class Ort {
      lat = 1;
    }
    assert.equal(describeValue(new Ort()), "ein Objekt der Klasse Ort (keine reinen JSON-Daten)");
    assert.equal(
      describeValue(() => 1),
      "eine Funktion",
    );
    assert.equal(describeValue({}), "ein leeres Objekt");
    assert.equal(describeValue(Object.create(null)), "ein leeres Objekt");
    assert.equal(describeValue({ a: 1 }), 'ein Objekt mit den Feldern "a"');
    const e = refError(() => resolveRefs({ $ref: "t.when.year" }, { t: { when: new Date(0) } }, {}));
    assert.match(
      e.message,
      /"t\.when" ist ein Datum \(Date 1970-01-01T00:00:00\.000Z\); ein Feld "year" gibt es dort nicht/,
    );
  });

  test("collectRefs lists references with locations, errors instead of throwing", () => {
    const occ = collectRefs({ a: { $ref: "x.y" }, b: ["$ref:user.raw", { $ref: 1 }], c: "$ref:x.result" });
    assert.deepEqual(
      occ.map((o) => [o.location.join("."), o.ref, o.error?.kind]),
      [
        ["a", "x.y", undefined],
        ["b.0", "user.raw", undefined],
        ["b.1", undefined, "malformed"],
        ["c", "x.result", "forbidden_segment"],
      ],
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const PROTOTYPE_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "length",
];
const segment = fc.oneof(
  fc.constantFrom(...PROTOTYPE_NAMES, "result", "arguments", "0", "1", "lat", "", " "),
  fc.string({ maxLength: 6 }),
);
/** Tool ids / user fields for the stores: random ones and names that exist on every object's prototype chain. */
const storeKey = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES, "t1", "raw"), fc.string({ maxLength: 6 }));
const refString = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("."));
const refValue = fc.oneof(
  refString.map((r) => ({ $ref: r })),
  refString.map((r) => `$ref:${r}`),
);
const jsonWithRefs = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue({ maxDepth: 2 }),
    refValue,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

const BUILTIN_PROTOTYPES = new Set<unknown>([
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
]);

/**
 * Walks the whole resolved value: only JSON data (null, strings, finite numbers, booleans, arrays,
 * plain objects), nowhere a function, a built-in prototype, an object with another prototype, or a
 * value that exists only through the prototype chain (undefined, symbols, bigints).
 */
function assertPlainJsonData(value: unknown, where = "(Ergebnis)"): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    assert.ok(Number.isFinite(value), `${where}: ${String(value)}`);
    return;
  }
  assert.equal(typeof value, "object", `${where} is a ${typeof value}`);
  const obj = value as object;
  assert.ok(!BUILTIN_PROTOTYPES.has(obj), `${where} is a built-in prototype`);
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (Array.isArray(obj)) {
    assert.equal(proto, Array.prototype, `${where}: array with a foreign prototype`);
    obj.forEach((item, i) => assertPlainJsonData(item, `${where}[${i}]`));
    return;
  }
  assert.ok(proto === Object.prototype || proto === null, `${where}: object with a foreign prototype`);
  for (const key of Reflect.ownKeys(obj)) {
    assert.equal(typeof key, "string", `${where}: symbol key`);
    const descriptor = Object.getOwnPropertyDescriptor(obj, key);
    assert.ok(descriptor && "value" in descriptor, `${where}.${String(key)}: accessor property`);
    assertPlainJsonData(descriptor.value, `${where}.${String(key)}`);
  }
}

function prototypesUntouched(): void {
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(Object.prototype), []);
}

function containsRef(value: unknown): boolean {
  if (typeof value === "string") return value.startsWith("$ref:");
  if (Array.isArray(value)) return value.some(containsRef);
  if (typeof value === "object" && value !== null)
    return Object.keys(value).some((k) => k === "$ref" || containsRef((value as Record<string, unknown>)[k]));
  return false;
}

describe("resolveRefs properties", () => {
  test("arbitrary JSON with arbitrary references: plain JSON data or a RefError, nothing else", () => {
    fc.assert(
      fc.property(
        jsonWithRefs,
        fc.dictionary(storeKey, fc.jsonValue({ maxDepth: 3 })),
        fc.dictionary(storeKey, fc.jsonValue({ maxDepth: 2 })),
        (value, store, userCtx) => {
          try {
            assertPlainJsonData(resolveRefs(value, store, userCtx));
            assertPlainJsonData(resolveRefs(value, store, userCtx));
          } catch (error) {
            if (error instanceof assert.AssertionError) throw error;
            assert.ok(error instanceof RefError, String(error));
            assert.ok(error.message.length > 0);
          }
          prototypesUntouched();
        },
      ),
      { numRuns: 400 },
    );
  });

  test("values without references come back unchanged", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }).filter((v) => !containsRef(v)),
        (value) => {
          assert.deepEqual(resolveRefs(value, {}, {}), value);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a path to an existing own value resolves to exactly that value", () => {
    const key = fc
      .stringMatching(/^[a-z][a-z0-9_]{0,5}$/)
      .filter((k) => !["constructor", "prototype", "result", "arguments"].includes(k));
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)),
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(key, tie("node"), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(tree, fc.array(fc.nat(), { maxLength: 4 }), (root, choices) => {
        // Walk down along own keys / indices chosen by `choices`.
        let current: unknown = root;
        const path: string[] = [];
        for (const c of choices) {
          if (Array.isArray(current) && current.length > 0) {
            const i = c % current.length;
            path.push(String(i));
            current = current[i];
          } else if (typeof current === "object" && current !== null && Object.keys(current).length > 0) {
            const keys = Object.keys(current);
            const k = keys[c % keys.length] as string;
            path.push(k);
            current = (current as Record<string, unknown>)[k];
          } else break;
        }
        const ref = ["t1", ...path].join(".");
        assert.deepEqual(resolveRefs({ $ref: ref }, { t1: root }, {}), current);
      }),
      { numRuns: 300 },
    );
  });
});
