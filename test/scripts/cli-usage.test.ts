// Every command of the kit, run as the person at the terminal runs it: a wrong option is one German
// sentence naming it, then the usage, exit code 2, nothing on stdout and no stack; --help is the usage on
// stdout, exit code 0, and nothing starts (no model, no server, no notebook).
import assert from "node:assert/strict";
import { parseArgs } from "node:util";
import { describe, it, test } from "node:test";
import { editDistance, germanParseArgsMessage } from "../../scripts/node/parse-args-german.js";
import { runTsFile } from "../helpers/run-script.js";

/** npm script (or how it is run), its file, what its usage text starts with, and an option that takes a value. */
const COMMANDS: [command: string, file: string, usage: string, valued?: string][] = [
  ["npm start", "scripts/apps/cli/main.ts", "Aufruf: npm start", "--model"],
  ["npm run setup", "scripts/setup.mjs", "Aufruf: npm run setup"],
  ["npm run doctor", "scripts/doctor.mjs", "Aufruf: npm run doctor", "--only"],
  ["npm run workshop", "scripts/apps/workshop/main.ts", "Aufruf: npm run workshop", "--kurs"],
  ["npm run board", "scripts/apps/board/main.ts", "Aufruf: npm run board", "--port"],
  ["npm run hub", "scripts/apps/hub/main.ts", "Aufruf: npm run hub", "--port"],
  ["npm run klassenraum", "scripts/apps/klassenraum/main.ts", "Aufruf: npm run klassenraum", "--kontext"],
  ["npm run slides", "scripts/apps/slides/main.ts", "Aufruf: npm run slides", "--tempo"],
  ["npm run models:pull", "scripts/apps/models/pull.ts", "npm run models:pull", "--embedding-dtype"],
  ["npm run models:warm", "scripts/apps/models/warm.ts", "Aufruf: npm run models:warm", "--only"],
  ["npm run models:twin", "scripts/dev/twins/main.ts", "Aufruf: npm run models:twin", "--out"],
  ["npm run models:tiny", "scripts/dev/tiny-models/main.ts", "Aufruf: npm run models:tiny"],
  ["npm run travel-server", "mcp-server-travel/src/main.ts", "Aufruf: npm run travel-server", "--port"],
  ["npm run math-server", "mcp-server-math/src/main.ts", "Aufruf: npm run math-server", "--port"],
  ["npm run eval:rag", "scripts/apps/eval/rag.ts", "Aufruf: npm run eval:rag", "--depth"],
  ["npm run eval:agent", "scripts/apps/eval/agent.ts", "Aufruf: npm run eval:agent", "--k"],
  ["npm run test:notebooks", "scripts/dev/run-notebooks.ts", "Aufruf: npm run test:notebooks"],
  ["npm run test:browser", "scripts/dev/browser-check.ts", "Aufruf: npm run test:browser", "--dir"],
  ["npm run build:notebook-lib", "scripts/dev/build-notebook-lib.ts", "Aufruf: npm run build:notebook-lib"],
  ["npm run bench", "bench/run.ts", "Aufruf: npm run bench", "--n"],
  ["npm test", "scripts/dev/test.ts", "Aufruf: npm test", "--only"],
  ["npm run docs", "scripts/dev/api-docs.ts", "Aufruf: npm run docs"],
  ["npm run kernel:install", "scripts/apps/workshop/kernel-install.ts", "Aufruf: npm run kernel:install"],
  ["npm run llama:build", "scripts/dev/llama-build.ts", "Aufruf: npm run llama:build"],
  ["npm run gpu:pack", "scripts/dev/gpu-pack.ts", "Aufruf: npm run gpu:pack"],
  ["slides stage of npm test", "scripts/dev/slides-check.ts", "Aufruf: npx tsx scripts/dev/slides-check.ts"],
];

/** Signs of node's or a library's own English, or of a stack trace. */
const NOT_FOR_PEOPLE = /Unknown option|argument|TypeError|ERR_PARSE_ARGS|^\s+at /m;

describe("every kit command: a wrong option in German, --help on stdout (real processes)", () => {
  for (const [command, file, usage, valued] of COMMANDS) {
    it(`${command} --gibt-es-nicht: German, names the option, the usage, exit code 2, nothing on stdout`, async () => {
      const r = await runTsFile(file, ["--gibt-es-nicht"], {}, { timeoutMs: 60_000 });
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /Unbekannte Option „--gibt-es-nicht“\./);
      assert.ok(r.stderr.includes(usage), `the usage follows:\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, NOT_FOR_PEOPLE);
    });
    if (valued) {
      it(`${command} ${valued} without its value: German, names the option, exit code 2, nothing on stdout`, async () => {
        const r = await runTsFile(file, [valued], {}, { timeoutMs: 60_000 });
        assert.equal(r.code, 2, r.stderr);
        assert.equal(r.stdout, "");
        assert.ok(r.stderr.includes(valued), r.stderr);
        assert.match(r.stderr, /Wert|erwartet/);
        assert.doesNotMatch(r.stderr, NOT_FOR_PEOPLE);
      });
    }
    it(`${command} --help: the usage on stdout, exit code 0, nothing on stderr`, async () => {
      const r = await runTsFile(file, ["--help"], {}, { timeoutMs: 60_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, "");
      assert.ok(r.stdout.includes(usage), r.stdout);
    });
  }
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
  assert.equal(messageFor(["--port"], ["port"], usage), "Die Option „--port“ braucht einen Wert. (--port P – Port (Standard 8790))");
  assert.equal(messageFor(["--port"], ["port"]), "Die Option „--port“ braucht einen Wert.");
});

test("edit distance counts a swap of neighbours as one edit", () => {
  assert.equal(editDistance("prot", "port"), 1);
  assert.equal(editDistance("", "abc"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("limit", "limit"), 0);
});

test("npm run bench -- hub --n 0: German, exit code 2, no bench starts", async () => {
  const r = await runTsFile("bench/run.ts", ["hub", "--n", "0"], {}, { timeoutMs: 60_000 });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^--n erwartet eine ganze Zahl von 1 bis 200 \(bekommen: „0“\)\./);
});
