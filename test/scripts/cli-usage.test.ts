// Every command of the kit: a wrong option is one German sentence naming it, then the usage, exit code 2,
// nothing on stdout and no stack; --help is the usage on stdout, exit code 0, and nothing starts (no model,
// no server, no notebook). The registry is walked in-process; a few real processes are kept as smoke tests.
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { describe, it, test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { COMMANDS } from "../../scripts/commands.js";
import { runCommand, type Command } from "../../scripts/node/command.js";
import { editDistance, germanParseArgsMessage, UsageError } from "../../scripts/node/parse-args-german.js";
import { runTsFile } from "../helpers/run-script.js";

/** Signs of node's or a library's own English, or of a stack trace. */
const NOT_FOR_PEOPLE = /Unknown option|argument|TypeError|ERR_PARSE_ARGS|^\s+at /m;

/** The UsageError that running `command` with `argv` throws (parsing ends before `run` starts anything). */
async function usageError(command: Command, argv: string[]): Promise<UsageError> {
  try {
    await runCommand(command, argv, new AbortController().signal);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  assert.fail(`${command.name} ${argv.join(" ")} ran instead of refusing`);
}

// In-process: each command of the registry (scripts/commands.ts) is loaded and its command line parsed as
// scripts/kit.ts does; nothing runs, so no process is needed.
describe("every kit command: a wrong option in German, --help is the usage (in-process, the whole registry)", () => {
  for (const [name, load] of Object.entries(COMMANDS)) {
    it(`${name}: --help, --gibt-es-nicht, an option without its value`, async () => {
      const command = await load();
      assert.equal(command.name, name, "the registry name is the command's name");
      assert.match(command.usage, /^Aufruf: /);
      const help = await usageError(command, ["--help"]);
      assert.equal(help.exitCode, 0);
      assert.equal(help.message, command.usage);
      for (const [option, spec] of Object.entries(command.options)) {
        if (spec.help !== undefined)
          assert.ok(command.usage.includes(spec.label ?? `--${option}`), `${name}: --${option} is in the usage`);
      }

      const unknown = await usageError(command, ["--gibt-es-nicht"]);
      assert.equal(unknown.exitCode, 2);
      assert.match(unknown.message, /^Unbekannte Option „--gibt-es-nicht“\./);
      assert.ok(unknown.message.includes(command.usage), `the usage follows:\n${unknown.message}`);
      assert.doesNotMatch(unknown.message, NOT_FOR_PEOPLE);

      const valued = Object.entries(command.options).find(([, o]) => o.type === "string")?.[0];
      if (valued) {
        const missing = await usageError(command, [`--${valued}`]);
        assert.equal(missing.exitCode, 2);
        assert.ok(missing.message.includes(`--${valued}`), missing.message);
        assert.match(missing.message, /Wert|erwartet/);
        assert.doesNotMatch(missing.message, NOT_FOR_PEOPLE);
      }
    });
  }
});

test("every npm script but the bootstraps, the MCP servers and the third-party tools runs scripts/kit.ts with a registered command", () => {
  const scripts = (
    JSON.parse(readFileSync(join(findProjectRoot(), "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
  const own = Object.entries(scripts).filter(([, line]) => /\btsx\b|\bnode\b/.test(line));
  const outside = own.filter(([, line]) => !/^(exec )?tsx scripts\/kit\.ts /.test(line));
  assert.deepEqual(outside.map(([n]) => n).sort(), ["doctor", "math-server", "setup", "travel-server"]);
  for (const [npmName, line] of own) {
    const command = /scripts\/kit\.ts (\S+)/.exec(line)?.[1];
    if (command) assert.ok(command in COMMANDS, `${npmName}: ${command} is registered`);
  }
});

/** Real processes: the entry, the plain-JS bootstraps and the standalone MCP servers, as the person at the terminal runs them. */
const SMOKE: [command: string, file: string, args: string[], usage: string][] = [
  ["npm start", "scripts/kit.ts", ["start"], "Aufruf: npm start"],
  ["npm run board", "scripts/kit.ts", ["board"], "Aufruf: npm run board"],
  ["npm run setup", "scripts/setup.mjs", [], "Aufruf: npm run setup"],
  ["npm run doctor", "scripts/doctor.mjs", [], "Aufruf: npm run doctor"],
  ["npm run travel-server", "mcp-server-travel/src/main.ts", [], "Aufruf: npm run travel-server"],
  ["npm run math-server", "mcp-server-math/src/main.ts", [], "Aufruf: npm run math-server"],
];

describe("smoke: real processes print the same (exit codes, stdout or stderr, no stack)", () => {
  for (const [command, file, args, usage] of SMOKE) {
    it(`${command} --gibt-es-nicht: German, the usage on stderr, exit code 2; --help on stdout, exit code 0`, async () => {
      const r = await runTsFile(file, [...args, "--gibt-es-nicht"], {}, { timeoutMs: 60_000 });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /Unbekannte Option „--gibt-es-nicht“\./);
      assert.ok(r.stderr.includes(usage), `the usage follows:\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, NOT_FOR_PEOPLE);
      const help = await runTsFile(file, [...args, "--help"], {}, { timeoutMs: 60_000 });
      assert.equal(help.code, 0, help.stderr);
      assert.equal(help.stderr, "");
      assert.ok(help.stdout.includes(usage), help.stdout);
    });
  }
  it("a definition file run directly says where commands run and fails (no silent exit 0)", async () => {
    const r = await runTsFile("scripts/dev/test.ts", ["--only", "unit"], {}, { timeoutMs: 60_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /scripts\/dev\/test\.ts ist kein Einstieg: die Befehle laufen über scripts\/kit\.ts, z\. B\. npx tsx scripts\/kit\.ts test /,
    );
  });
  it("an unknown command: German, the list of commands, exit code 2", async () => {
    const r = await runTsFile("scripts/kit.ts", ["bord"], {}, { timeoutMs: 60_000 });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Unbekannter Befehl „bord“\.\nAufruf: npx tsx scripts\/kit\.ts <Befehl>/);
  });
});

/** The German message for parsing `args` against options `names` (all string options). */
function messageFor(args: string[], names: string[], usage?: string): string | undefined {
  try {
    parseArgs({ args, options: Object.fromEntries(names.map((n) => [n, { type: "string" as const }])), strict: true });
  } catch (error) {
    return germanParseArgsMessage(error, names, usage);
  }
  return undefined;
}

test("an unknown option suggests the one meant: a prefix or a typo, never a far one", () => {
  const names = ["port", "host", "limit", "code", "haengt-nach"];
  assert.equal(messageFor(["--prot", "1"], names), "Unbekannte Option „--prot“. Gemeint: --port?");
  assert.equal(messageFor(["--li", "3"], names), "Unbekannte Option „--li“. Gemeint: --limit?");
  assert.equal(messageFor(["--haengt-nah", "3"], names), "Unbekannte Option „--haengt-nah“. Gemeint: --haengt-nach?");
  assert.equal(messageFor(["--gibt-es-nicht"], names), "Unbekannte Option „--gibt-es-nicht“.");
  assert.equal(messageFor(["--xy"], names), "Unbekannte Option „--xy“.", "two letters are too short to guess from");
});

test("a missing value quotes the usage line of its option", () => {
  const usage = "Aufruf: x [--port P]\n  --port P          Port (Standard 8790)\n  --port-range R    anderes";
  assert.equal(
    messageFor(["--port"], ["port"], usage),
    "Die Option „--port“ braucht einen Wert. (--port P – Port (Standard 8790))",
  );
  assert.equal(messageFor(["--port"], ["port"]), "Die Option „--port“ braucht einen Wert.");
});

test("edit distance counts a swap of neighbours as one edit", () => {
  assert.equal(editDistance("prot", "port"), 1);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("limit", "limit"), 0);
});

test("npm run bench -- hub --n 0: German, exit code 2, no bench starts", async () => {
  const r = await runTsFile("scripts/kit.ts", ["bench", "hub", "--n", "0"], {}, { timeoutMs: 60_000 });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^--n erwartet eine ganze Zahl von 1 bis 200 \(bekommen: „0“\)\./);
});
