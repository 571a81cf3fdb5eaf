// The check sets are not vacuous: typical wrong solutions (the mistakes participants make) each get a ❌
// in the case that is about that mistake.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ChatMessage } from "../../lib/llm/types.js";
import { checkBuildMessages, checkIsRefusal, checkRefusalPrompt, checkTrimHistory } from "../../lib/exercises/part1.js";
import { checkChunkSentences, checkHitAtK, checkSmallestK, type RetrievalResult } from "../../lib/exercises/part2.js";
import {
  checkCoordinatesFromHistory,
  checkMissingArguments,
  checkParseToolCall,
  checkRechenPrompt,
  type HistoryEntry,
} from "../../lib/exercises/part3.js";
import { HALF_AGENT_FORMAT } from "../../lib/half-agent/prompts.js";
import { checkReadyCalls, checkReferencedIds, checkResolveRefs, type PlannedCall } from "../../lib/exercises/part4.js";
import { type AnyFunction, type CheckFunction } from "../../lib/exercises/check-runner.js";

async function failsOn<F extends AnyFunction>(check: CheckFunction<F>, fn: F, caseName: RegExp): Promise<void> {
  const report = await check(fn, { log: () => {} });
  const failed = report.cases.filter((c) => !c.ok).map((c) => c.name);
  assert.ok(
    failed.some((n) => caseName.test(n)),
    `expected a ❌ on ${caseName}; failing: ${failed.join(" | ") || "none"}`,
  );
}

describe("Teil 1 mutants", () => {
  test("buildMessages that always adds a system message", async () => {
    await failsOn(
      checkBuildMessages,
      (system, turns, q) => [
        { role: "system", content: system },
        ...turns.flatMap((t): ChatMessage[] => [
          { role: "user", content: t.user },
          { role: "assistant", content: t.assistant },
        ]),
        { role: "user", content: q },
      ],
      /Leerer System-Prompt/u,
    );
  });

  test("trimHistory that drops single messages instead of whole exchanges", async () => {
    await failsOn(
      checkTrimHistory,
      (messages, max, count) => {
        const out = [...messages];
        const total = () => out.reduce((s, m) => s + count(m.content), 0);
        while (total() > max && out.length > 2) out.splice(1, 1);
        return out;
      },
      /ganze Wortwechsel/u,
    );
  });

  test("trimHistory that counts characters instead of using countTokens", async () => {
    await failsOn(
      checkTrimHistory,
      (messages, max) => {
        let out = [...messages];
        while (out.reduce((s, m) => s + m.content.length, 0) > max && out.length > 2)
          out = [out[0] as ChatMessage, ...out.slice(3)];
        return out;
      },
      /Budget/u,
    );
  });

  test("refusalPrompt with a hard-coded text", async () => {
    await failsOn(
      checkRefusalPrompt,
      () =>
        'Nur Städtereisen in Europa. Sonst: "Dazu kann ich nichts sagen – ich helfe dir gern bei deiner Reiseplanung."',
      /anderes Thema/u,
    );
  });

  test("isRefusal as a plain includes()", async () => {
    await failsOn(checkIsRefusal, (answer, refusal) => answer.includes(refusal), /Groß-\/Kleinschreibung/u);
  });
});

describe("Teil 2 mutants", () => {
  test("chunker that keeps the full overlap even when it does not fit", async () => {
    await failsOn(
      checkChunkSentences,
      (sentences, max, overlap) => {
        const chunks: string[][] = [];
        let cur: string[] = [];
        for (const s of sentences) {
          if (cur.length === 0 || [...cur, s].join(" ").length <= max) cur.push(s);
          else {
            chunks.push(cur);
            cur = [...cur.slice(Math.max(0, cur.length - overlap)), s];
          }
        }
        if (cur.length > 0) chunks.push(cur);
        return chunks;
      },
      /kleiner|fällt weg/u,
    );
  });

  test("chunker with one sentence per chunk (not greedy)", async () => {
    await failsOn(checkChunkSentences, (sentences) => sentences.map((s) => [s]), /voll gepackt|echte Sätze/u);
  });

  test("hitAtK in percent", async () => {
    await failsOn(
      checkHitAtK,
      (results: RetrievalResult[], k: number) =>
        (100 * results.filter((r) => r.retrieved.slice(0, k).some((id) => r.relevant.includes(id))).length) /
        Math.max(1, results.length),
      /Anteil/u,
    );
  });

  test("smallestK that stops at k = 5", async () => {
    await failsOn(
      checkSmallestK,
      (results: RetrievalResult[], target: number) => {
        for (let k = 1; k <= 5; k++) {
          const share =
            results.filter((r) => r.retrieved.slice(0, k).some((id) => r.relevant.includes(id))).length /
            results.length;
          if (share >= target) return k;
        }
        return null;
      },
      /längsten Ergebnisliste/u,
    );
  });

  test("smallestK that returns Infinity for an unreachable target (JSON would make it null)", async () => {
    await failsOn(
      checkSmallestK,
      (results: RetrievalResult[], target: number) => {
        const longest = Math.max(0, ...results.map((r) => r.retrieved.length));
        for (let k = 1; k <= longest; k++) {
          const share =
            results.filter((r) => r.retrieved.slice(0, k).some((id) => r.relevant.includes(id))).length /
            results.length;
          if (share >= target) return k;
        }
        return Infinity;
      },
      /Unerreichbares Ziel/u,
    );
  });
});

describe("Teil 3 mutants", () => {
  test("parseToolCall from the first '{' to the last '}'", async () => {
    await failsOn(
      checkParseToolCall,
      (text: string) => {
        try {
          const value = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
            tool: string;
            arguments?: Record<string, unknown>;
          };
          return { tool: value.tool, arguments: value.arguments ?? {} };
        } catch {
          return null;
        }
      },
      /Klammer schon im Text/u,
    );
  });

  test("parseToolCall that accepts any tool name", async () => {
    await failsOn(
      checkParseToolCall,
      (text: string) => {
        try {
          const value = JSON.parse(text) as { tool: string; arguments?: Record<string, unknown> };
          return { tool: value.tool, arguments: value.arguments ?? {} };
        } catch {
          return null;
        }
      },
      /Unbekanntes Tool/u,
    );
  });

  test("missingArguments with a falsy check (0 and false count as missing)", async () => {
    await failsOn(
      checkMissingArguments,
      (args, schema) => ((schema.required as string[] | undefined) ?? []).filter((n) => !args[n]),
      /0 und false/u,
    );
  });

  test("coordinatesFromHistory that takes the first match, not the newest", async () => {
    await failsOn(
      checkCoordinatesFromHistory,
      (history: HistoryEntry[], destination: string) => {
        const entry = history.find(
          (e) =>
            e.tool === "geocode" &&
            !e.error &&
            String(e.arguments.destination).trim().toLowerCase() === destination.trim().toLowerCase(),
        );
        const r = entry?.result as { lat: number; lon: number } | undefined;
        return r ? { lat: r.lat, lon: r.lon } : null;
      },
      /neueste/u,
    );
  });
});

describe("Teil 3 transfer mutants: rechenPrompt (3.4a)", () => {
  const ROLE = "Du bist ein Rechenassistent.";
  const RULE = "Rechne nie selbst, sondern rufe für jede Rechnung ein Tool auf.";
  const prompt = (...parts: string[]) => parts.join("\n\n");

  test("a prompt with role, rule, format and catalog passes every case", async () => {
    const report = await checkRechenPrompt((katalog: string) => prompt(ROLE, RULE, HALF_AGENT_FORMAT, katalog), {
      log: () => {},
    });
    assert.equal(report.failed, 0, JSON.stringify(report.cases.filter((c) => !c.ok)));
  });

  test("without the catalog", async () => {
    await failsOn(checkRechenPrompt, () => prompt(ROLE, RULE, HALF_AGENT_FORMAT), /Katalog wörtlich/u);
  });

  test("without the ban on mental arithmetic", async () => {
    await failsOn(checkRechenPrompt, (katalog: string) => prompt(ROLE, HALF_AGENT_FORMAT, katalog), /Kopfrechnen/u);
  });

  test("without the answer format", async () => {
    await failsOn(checkRechenPrompt, (katalog: string) => prompt(ROLE, RULE, katalog), /Antwortformat/u);
  });

  test("without a role", async () => {
    await failsOn(checkRechenPrompt, (katalog: string) => prompt(RULE, HALF_AGENT_FORMAT, katalog), /Rolle/u);
  });

  test("with the first catalog built in", async () => {
    let first: string | undefined;
    await failsOn(
      checkRechenPrompt,
      (katalog: string) => prompt(ROLE, RULE, HALF_AGENT_FORMAT, (first ??= katalog)),
      /anderen Katalog/u,
    );
  });
});

describe("Teil 4 mutants", () => {
  const refOf = (v: unknown): string | undefined =>
    typeof v === "string" && v.startsWith("$ref:")
      ? v.slice(5)
      : v !== null &&
          typeof v === "object" &&
          !Array.isArray(v) &&
          typeof (v as Record<string, unknown>).$ref === "string"
        ? ((v as Record<string, unknown>).$ref as string)
        : undefined;

  test("resolveRefs that follows any property (prototype included)", async () => {
    const resolve = (value: unknown, results: Record<string, unknown>, user: Record<string, unknown>): unknown => {
      const ref = refOf(value);
      if (ref !== undefined) {
        const [root = "", ...path] = ref.split(".");
        let cur: unknown = root === "user" ? user : results[root];
        if (cur === undefined) throw new Error(`unbekannt: ${ref}`);
        for (const p of path) {
          cur = (cur as Record<string, unknown>)[p];
          if (cur === undefined) throw new Error(`fehlt: ${ref}`);
        }
        return cur;
      }
      if (Array.isArray(value)) return value.map((v) => resolve(v, results, user));
      if (value !== null && typeof value === "object")
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, results, user)]));
      return value;
    };
    await failsOn(checkResolveRefs, resolve, /Prototyp|Geerbte Felder|constructor/u);
  });

  test("resolveRefs that turns null into undefined (JSON would not see it inside a list)", async () => {
    const resolve = (value: unknown, results: Record<string, unknown>, user: Record<string, unknown>): unknown => {
      if (value === null || value === undefined) return undefined; // "nothing to resolve"
      const ref = refOf(value);
      if (ref !== undefined) {
        const [root = "", ...path] = ref.split(".");
        let cur: unknown = root === "user" ? user : Object.hasOwn(results, root) ? results[root] : undefined;
        if (cur === undefined) throw new Error(`unbekannt: ${ref}`);
        for (const p of path) {
          if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, p)) throw new Error(`fehlt: ${ref}`);
          cur = (cur as Record<string, unknown>)[p];
        }
        return cur ?? undefined;
      }
      if (Array.isArray(value)) return value.map((v) => resolve(v, results, user));
      if (typeof value === "object")
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, results, user)]));
      return value;
    };
    await failsOn(checkResolveRefs, resolve, /null in Listen/u);
  });

  test("resolveRefs that only knows the object form", async () => {
    const resolve = (value: unknown, results: Record<string, unknown>): unknown => {
      if (value !== null && typeof value === "object" && !Array.isArray(value)) {
        const ref = (value as Record<string, unknown>).$ref;
        if (typeof ref === "string")
          return ref.split(".").reduce<unknown>((cur, p) => (cur as Record<string, unknown>)[p], results);
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, results)]));
      }
      return value;
    };
    await failsOn(checkResolveRefs, resolve, /Text-Form/u);
  });

  test("referencedIds that counts user as a tool", async () => {
    await failsOn(
      checkReferencedIds,
      (value: unknown) => {
        const ids: string[] = [];
        const visit = (v: unknown): void => {
          const ref = refOf(v);
          if (ref !== undefined) ids.push(ref.split(".")[0] ?? "");
          else if (Array.isArray(v)) v.forEach(visit);
          else if (v !== null && typeof v === "object") Object.values(v).forEach(visit);
        };
        visit(value);
        return [...new Set(ids)];
      },
      /user/u,
    );
  });

  test("readyCalls that only sees the object form of $ref", async () => {
    await failsOn(
      checkReadyCalls,
      (calls: PlannedCall[], finished: string[]) =>
        calls
          .filter((c) => !finished.includes(c.id))
          .filter((c) =>
            Object.values(c.arguments).every((v) => {
              const ref = v !== null && typeof v === "object" ? (v as Record<string, unknown>).$ref : undefined;
              return typeof ref !== "string" || finished.includes(ref.split(".")[0] ?? "");
            }),
          )
          .map((c) => c.id),
      /Kette|Abhängigkeiten|beide/u,
    );
  });
});
