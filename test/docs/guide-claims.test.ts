// The instructor guide says what the program does: every `npm run X -- --option` it names is an option of
// X; the day's board command opens the board to the course network; the keys, the name line and the port
// the guide gives for the board are the board's own; the Modell-Check's column names are the page's.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { COLUMN_NAMES } from "../../lib/eval/report.js";
import { DEFAULT_BOARD_PORT } from "../../scripts/apps/board/main.js";
import { boardPage } from "../../scripts/apps/board/page.js";
import { WORKSHOP_PORTS } from "../../scripts/apps/doctor/main.js";
import { COMMANDS, isCommandName } from "../../scripts/commands.js";

const root = findProjectRoot();
const guide = readFileSync(join(root, "docs", "instructor-guide.md"), "utf8");

/** `npm run X -- …` commands in a text, with the options they pass. */
function commands(text: string): { script: string; options: string[]; line: string }[] {
  return [...text.matchAll(/npm run ([\w:-]+) -- ([^`\n]*)/g)].map((m) => ({
    script: m[1]!,
    options: [...m[2]!.matchAll(/(?:^|\s)--([a-z][\w-]*)/g)].map((o) => o[1]!),
    line: m[0],
  }));
}

/** The options an npm script's command takes (from the kit's command registry; its usage names them all). */
async function optionsOf(script: string): Promise<((option: string) => boolean) | undefined> {
  if (!isCommandName(script)) return undefined;
  const command = await COMMANDS[script]();
  return (option) => option in command.options || new RegExp(`--${option}\\b`).test(command.usage);
}

test("every option the guide passes to an npm script is one of that script's options", async () => {
  const unknown: string[] = [];
  for (const { script, options, line } of commands(guide)) {
    const known = await optionsOf(script);
    if (known === undefined) continue;
    unknown.push(...options.filter((o) => !known(o)).map((o) => `${line} → --${o}`));
  }
  assert.deepEqual(unknown, []);
  // The check itself: an option no command has is caught.
  const board = await optionsOf("board");
  assert.ok(board && board("aufgabe") && !board("gibt-es-nicht"));
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
