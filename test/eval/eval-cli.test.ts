// `npm run eval:agent` as a real subprocess: the oracle's JSON and HTML report, German usage errors (exit 2;
// in-process as scripts/kit.ts runs them, one real process kept), output paths checked before the run,
// Ctrl+C (SIGINT) keeping the finished tasks, and the tiny GGUF end to end (its numbers printed, not asserted).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectRoot, tinyModelPaths } from "../../lib/config.js";
import { groupFigures, type EvalReport } from "../../lib/eval/index.js";
import { runCommand, runCommandHere } from "../helpers/run-script.js";

const withDir = async (use: (dir: string) => Promise<void>) => {
  const dir = await mkdtemp(join(tmpdir(), "eval-cli-"));
  try {
    await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

describe("eval:agent on the command line", () => {
  test("--oracle: table, JSON with the agreed shape (rates 0–1) and an HTML report with the same figures", () =>
    withDir(async (dir) => {
      const json = join(dir, "bericht.json");
      const html = join(dir, "bericht.html");
      const run = await runCommand("eval:agent", [
        "--oracle",
        "--k",
        "2",
        "--category",
        "parallel",
        "--limit",
        "2",
        "--json",
        json,
        "--html",
        html,
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /Parallel\s+2\s+100 %\s+100 %/);
      assert.match(run.stderr, /\[4\/4\] parallel-2 Versuch 2: bestanden/);
      const report = JSON.parse(await readFile(json, "utf8")) as EvalReport;
      assert.deepEqual(
        {
          tasks: report.summary.tasks,
          categories: report.summary.categories,
          k: report.summary.k,
          passAt1: report.summary.passAt1,
          passK: report.summary.passK,
        },
        { tasks: 2, categories: ["parallel"], k: 2, passAt1: 1, passK: 1 },
      );
      assert.deepEqual(
        report.tasks.map((t) => [t.id, t.category, t.passes, t.runs]),
        [
          ["parallel-1", "parallel", 2, 2],
          ["parallel-2", "parallel", 2, 2],
        ],
      );
      assert.deepEqual(groupFigures(report.tasks).passK, report.summary.passK);
      const page = await readFile(html, "utf8");
      assert.match(page, /<table class="kit-eval-table[^"]*"/);
      assert.match(page, /<td[^>]*>Gesamt<\/td><td[^>]*>2<\/td><td[^>]*>100 %<\/td>/);
    }));

  test("usage errors exit 2 with one German message: no parser or zod English, no stack", () =>
    withDir(async (dir) => {
      const arrayFile = join(dir, "liste.json");
      await writeFile(arrayFile, "[]\n");
      for (const [args, message] of [
        [["--oracle", "--style", "quer"], /^--style erwartet plan oder half oder native, erhalten: "quer"\./],
        [["--oracle", "--category", "wetter"], /^Unbekannte Kategorie „wetter“/],
        [["--oracle", "--tasks", "package.json"], /^Aufgabendatei .*package\.json, Feld/],
        [
          ["--oracle", "--tasks", arrayFile],
          /^Aufgabendatei .*liste\.json, Feld \(Wurzel\): Ungültige Eingabe: erwartet object, erhalten Array\./,
        ],
        [["--oracle", "--li", "3"], /^Unbekannte Option „--li“\. Gemeint: --limit\?/],
        [
          ["--oracle", "--json", "--k", "2"],
          /^Die Option „--json“ braucht einen Wert, es folgt aber eine andere Option\./,
        ],
        [["--oracle", "--k"], /^Die Option „--k“ braucht einen Wert\./],
        [["--oracle", "--oracle=ja"], /^Die Option „--oracle“ nimmt keinen Wert\./],
        [["--oracle", "drei"], /^Unerwartete Angabe „drei“/],
        [["--oracle", "--k", "1000"], /^--k erwartet höchstens 10, erhalten: 1000\./],
        [["--vergleich", "nur-einer.json"], /^--vergleich braucht mindestens zwei Berichte/],
        [["--vergleich", "package.json", "package.json"], /^Bericht .*package\.json, Feld summary: Ungültige Eingabe/],
        [
          ["--vergleich", "a.json", "b.json", "--k", "2"],
          /^--vergleich liest nur fertige Berichte; --k gehört zu einem Lauf\./,
        ],
      ] as const) {
        const run = await runCommandHere("eval:agent", [...args]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.match(run.stderr, message, args.join(" "));
        assert.doesNotMatch(
          run.stderr,
          /\n\s+at |Unknown|ambiguous|argument|Invalid input|expected|received|Error:/,
          args.join(" "),
        );
      }
    }));

  test("a real process: a usage error and an unwritable output path are exit 2 with the German message alone", async () => {
    const usage = await runCommand("eval:agent", ["--oracle", "--style", "quer"]);
    assert.equal(usage.code, 2, usage.stderr);
    assert.equal(usage.stdout, "");
    assert.match(usage.stderr, /^--style erwartet plan oder half oder native, erhalten: "quer"\./);
    assert.doesNotMatch(usage.stderr, /\n\s+at |Error:/);
    const path = await runCommand("eval:agent", ["--oracle", "--limit", "1", "--json", "/proc/nope/r.json"]);
    assert.equal(path.code, 2, path.stderr);
    assert.match(path.stderr, /^--json \/proc\/nope\/r\.json: den Ordner \/proc\/nope gibt es nicht/);
    assert.doesNotMatch(path.stderr, /Versuch 1|ENOENT|\n\s+at /);
  });

  test("an output path that cannot be written fails before the run (exit 2), also under /proc", () =>
    withDir(async (dir) => {
      const file = join(dir, "eine-datei");
      await writeFile(file, "x");
      for (const [args, message] of [
        [["--json", join(file, "r.json")], /^--json .*eine-datei\/r\.json: .*eine-datei ist eine Datei, kein Ordner\./],
        [["--html", join(file, "r.html")], /^--html .*eine-datei\/r\.html: .*eine-datei ist eine Datei, kein Ordner\./],
        [["--json", "/proc/nope/r.json"], /^--json \/proc\/nope\/r\.json: den Ordner \/proc\/nope gibt es nicht/],
        [["--html", dir], /^--html .*: das ist ein Ordner, keine Datei\./],
      ] as const) {
        const run = await runCommandHere("eval:agent", [
          "--oracle",
          "--k",
          "1",
          "--category",
          "parallel",
          "--limit",
          "1",
          ...args,
        ]);
        assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
        assert.match(run.stderr, message);
        assert.doesNotMatch(run.stderr, /Versuch 1|ENOENT|EEXIST/, "nothing ran, no English errno text");
      }
    }));

  test("Ctrl+C (SIGINT) stops after the current run and keeps the finished tasks' results", () =>
    withDir(async (dir) => {
      const json = join(dir, "teil.json");
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          join("scripts", "kit.ts"),
          "eval:agent",
          "--oracle",
          "--k",
          "3",
          "--json",
          json,
          "--html",
          join(dir, "b.html"),
        ],
        {
          cwd: findProjectRoot(),
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stderr = "";
      let stdout = "";
      let sent = false;
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        // After the second task's last run: two tasks are finished.
        if (!sent && /koordinaten-2 Versuch 3/.test(stderr)) {
          sent = true;
          child.kill("SIGINT");
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      assert.ok(sent, stderr);
      assert.equal(code, 130, stderr);
      assert.match(stderr, /Abbruch: der laufende Versuch endet/);
      assert.match(stdout, /Abgebrochen: \d+ von 45 Aufgaben fertig/);
      const report = JSON.parse(await readFile(json, "utf8")) as EvalReport;
      assert.equal(report.meta.complete, false);
      assert.ok(report.tasks.length >= 2 && report.tasks.length < 45, `${report.tasks.length} tasks`);
      assert.deepEqual(
        report.tasks.slice(0, 2).map((t) => [t.id, t.passes, t.runs]),
        [
          ["koordinaten-1", 3, 3],
          ["koordinaten-2", 3, 3],
        ],
      );
      assert.ok(
        report.tasks.every((t) => t.runs === 3),
        "only whole tasks are kept",
      );
    }));

  test("the tiny GGUF runs two tasks end to end (numbers printed, not asserted: random weights)", () =>
    withDir(async (dir) => {
      const json = join(dir, "tiny.json");
      const tiny = tinyModelPaths();
      const env = {
        LLM_MODEL_PATH: tiny.gguf,
        MODELS_OFFLINE: "1",
        LLM_THREADS: "1",
        LLM_GPU: "cpu",
        LLM_BACKEND: "local",
      };
      const run = await runCommand(
        "eval:agent",
        [
          "--k",
          "1",
          "--category",
          "ein-werkzeug",
          "--limit",
          "2",
          "--max-rounds",
          "2",
          "--json",
          json,
          "--html",
          join(dir, "t.html"),
        ],
        env,
        { timeoutMs: 240_000 },
      );
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(await readFile(json, "utf8")) as EvalReport;
      assert.deepEqual(
        report.tasks.map((t) => t.runs),
        [1, 1],
      );
      assert.ok(report.summary.passAt1 >= 0 && report.summary.passAt1 <= 1);
      console.log(
        `tiny GGUF: ${run.stdout
          .split("\n")
          .filter((l) => /Gesamt/.test(l))
          .join("")}`,
      );
    }));
});
