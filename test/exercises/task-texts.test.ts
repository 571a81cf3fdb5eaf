// What the Aufgabe intros and the instructor guide say about the tasks agrees with the notebooks: as many
// tasks as the notebook has, the same practice time in the intro, the guide's table and the day plan,
// and a day plan whose blocks follow each other without gaps.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { EXERCISE_CHECKS } from "../../lib/exercises/tasks.js";
import { notebookPairs, root } from "./notebook-cells.js";

const guide = readFileSync(join(root, "docs/instructor-guide.md"), "utf8");

/** "~25–30 min" → [25, 30]. */
function minutes(text: string): [number, number] {
  const m = /(\d+)(?:–(\d+))?/u.exec(text);
  assert.ok(m, `no minutes in „${text}“`);
  return [Number(m[1]), Number(m[2] ?? m[1])];
}

/** The guide's overview row of a part: its task functions and practice time. */
function overviewRow(part: number): { functions: string[]; time: [number, number] } {
  const row = guide.split("\n").find((l) => l.startsWith(`| ${part} | \``));
  assert.ok(row, `overview row for part ${part}`);
  const cells = row.split("|").map((c) => c.trim());
  return {
    functions: [...(cells[5] ?? "").matchAll(/`(\w+)`/gu)].map((m) => m[1] ?? ""),
    time: minutes(cells[6] ?? ""),
  };
}

/** The day plan: start (minutes since midnight), duration and block text per row. */
function dayPlan(): { start: number; duration: number; block: string }[] {
  return [...guide.matchAll(/^\| (\d\d):(\d\d) \| (\d+) min \| (.*) \|$/gmu)].map((m) => ({
    start: Number(m[1]) * 60 + Number(m[2]),
    duration: Number(m[3]),
    block: m[4] ?? "",
  }));
}

describe("task texts", () => {
  for (const { part, exercise } of notebookPairs()) {
    const intro = exercise.cells[0]?.source ?? "";
    const tasks = new Set(
      exercise.cells.flatMap((c) => [...c.source.matchAll(/^## Aufgabe (\d+\.\d+)/gmu)].map((m) => m[1])),
    );

    test(`Aufgabe ${part}: the intro lists every task (${tasks.size}) and the guide the same time`, () => {
      const listed = intro.match(/^\d+\. /gmu) ?? [];
      assert.equal(listed.length, tasks.size, "one numbered line per „## Aufgabe N.M“ heading");
      assert.doesNotMatch(intro, /\b(?:Drei|drei) (?:Bausteine|Aufgaben|Teile)\b/u);
      const planned = /Plane etwa (\d+(?:–\d+)?) Minuten ein/u.exec(intro);
      assert.ok(planned, "the intro names a practice time");
      assert.deepEqual(minutes(planned[1] ?? ""), overviewRow(part).time, "intro and the guide's overview agree");
    });

    test(`Aufgabe ${part}: the guide lists the task functions and plans the upper time plus 5 minutes`, () => {
      const row = overviewRow(part);
      assert.deepEqual(
        row.functions,
        EXERCISE_CHECKS[part].map((c) => c.set.functionName),
      );
      const block = dayPlan().find((b) => b.block.startsWith(`**Aufgabe ${part}**`));
      assert.ok(block, `day plan row for Aufgabe ${part}`);
      const practice = Number(/\((\d+)/u.exec(block.block)?.[1]);
      assert.equal(practice, row.time[1], "the day plan gives the upper estimate as practice time");
      assert.equal(block.duration, practice + 5, "plus 5 minutes for the solution");
    });
  }

  test("the day plan's blocks follow each other without gaps or overlaps", () => {
    const plan = dayPlan();
    assert.ok(plan.length >= 10);
    plan.slice(1).forEach((b, i) => assert.equal(b.start, (plan[i]?.start ?? 0) + (plan[i]?.duration ?? 0), b.block));
  });
});
