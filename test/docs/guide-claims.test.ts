// The instructor guide says what the program does: every `npm run X -- --option` it names is an option of
// X; the day's board command opens the board to the course network; the keys, the name line and the port
// the guide gives for the board are the board's own; the Modell-Check's column names are the page's.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { COLUMN_NAMES } from "../../lib/eval/report.js";
import { DEFAULT_BOARD_PORT } from "../../scripts/apps/board/main.js";
import { boardPage } from "../../scripts/apps/board/page.js";
import { WORKSHOP_PORTS } from "../../scripts/apps/doctor/main.js";

const root = findProjectRoot();
const guide = readFileSync(join(root, "docs", "instructor-guide.md"), "utf8");
const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> })
  .scripts;

/** `npm run X -- …` commands in a text, with the options they pass. */
function commands(text: string): { script: string; options: string[]; line: string }[] {
  return [...text.matchAll(/npm run ([\w:-]+) -- ([^`\n]*)/g)].map((m) => ({
    script: m[1]!,
    options: [...m[2]!.matchAll(/(?:^|\s)--([a-z][\w-]*)/g)].map((o) => o[1]!),
    line: m[0],
  }));
}

/** The source text of the folder an npm script runs (its options are declared there); an entry file that
 * hands over to scripts/apps/<name>/ (doctor.mjs) is followed there. */
function sourceOf(script: string): string | undefined {
  const file = /(scripts\/[\w/.-]+\.(?:ts|mjs))/.exec(scripts[script] ?? "")?.[1];
  if (!file) return undefined;
  const handover = /import\("\.\/(apps\/[\w-]+\/[\w-]+\.ts)"\)/.exec(readFileSync(join(root, file), "utf8"))?.[1];
  const folder = dirname(join(root, handover ? join("scripts", handover) : file));
  return readdirSync(folder)
    .filter((f) => /\.(ts|mjs)$/.test(f))
    .map((f) => readFileSync(join(folder, f), "utf8"))
    .join("\n");
}

test("every option the guide passes to an npm script is one of that script's options", () => {
  const unknown = commands(guide).flatMap(({ script, options, line }) => {
    const source = sourceOf(script);
    if (source === undefined) return [];
    return options
      .filter((o) => !new RegExp(`["'\`]${o}["'\`]\\s*:|--${o}\\b`).test(source))
      .map((o) => `${line} → --${o}`);
  });
  assert.deepEqual(unknown, []);
});

test("on the day the board starts for the course network (a plain `npm run board` reaches only the instructor's machine)", () => {
  const day = guide.slice(guide.indexOf("**Am Tag:**"), guide.indexOf("## Modell-Check"));
  assert.ok(day.length > 100, "the guide's „Am Tag“ list");
  const boardLines = commands(day).filter((c) => c.script === "board");
  assert.ok(boardLines.length > 0, "the day's list starts the board");
  for (const c of boardLines) assert.ok(c.options.includes("host") && c.options.includes("allowed-host"), c.line);
  assert.doesNotMatch(day, /`npm run board`\)/, "no plain npm run board as the day's command");
});

test("the board's keys, name line and port are as the guide says", () => {
  const page = boardPage({
    join: { url: "http://kurs-pc.local:8790", code: "k7mq-2xhp-9dta", qrSvg: "<svg></svg>" },
    instructor: true,
  });
  for (const key of ['"b"', '"h"', "/^[1-4]$/", '"0"'])
    assert.ok(page.includes(key), `the page handles the key ${key}`);
  assert.match(guide, /Taste \*\*B\*\*/);
  assert.match(guide, /oder \*\*H\*\*/);
  assert.match(guide, /Taste\s+\*\*1\*\*–\*\*4\*\*/);
  const main = readFileSync(join(root, "scripts", "apps", "board", "main.ts"), "utf8");
  for (const text of [page, main]) assert.match(text, /--name "Vorname"/, "page and terminal write the same name line");
  assert.match(guide, /--name "Vorname"/);
  assert.ok(
    WORKSHOP_PORTS.some((p) => p.port === DEFAULT_BOARD_PORT),
    "doctor checks the board's port",
  );
  assert.match(guide, new RegExp(`:${DEFAULT_BOARD_PORT}\\b`));
});

test("the Modell-Check's column names in the guide are the page's", () => {
  for (const name of Object.values(COLUMN_NAMES)) assert.ok(guide.includes(name), name);
  assert.doesNotMatch(guide, /s\/Versuch/, "an old column name");
});
