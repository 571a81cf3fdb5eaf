// The Modell-Check as a decision page, looked at in Chromium: the oracle's report (`eval:agent --oracle`,
// labelled as the bench's self-test), a scripted-mistake run's report (failures with question and reason),
// and `--vergleich` of them (two files, then three): both models side by side per category, the
// recommendation naming the better model, all visible text German. Real servers, the oracle run a real
// subprocess (the comparisons, which only read reports, run the command in this process), real
// Chromium at 1920×1080 and 1280×720; SCREENSHOT_DIR keeps the screenshots.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { McpToolClient, startMathServer, startTravelServer, type ServerHandle } from "../../lib/mcp/index.js";
import { runEvaluation, type EvalReport } from "../../lib/eval/index.js";
import { machineInfo } from "../../lib/eval/run-meta.js";
import { CATEGORY_LABELS, loadTaskSet, selectionText, selectTasks, TASK_CATEGORIES } from "../../lib/eval/tasks.js";
import { evalReportPage } from "../../lib/display/eval.js";
import { noisyOracle } from "../../lib/testing/eval-oracle.js";
import { runCommand, runCommandHere } from "../helpers/run-script.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const set = loadTaskSet(join(findProjectRoot(), "data", "eval", "agent-tasks.json"));
const tasks = selectTasks(set, { limit: 1 });
let dir: string;
const file = (name: string) => join(dir, name);

/** English keys and words that must not reach the page (the report JSON's field names among them). */
const ENGLISH =
  /\b(style|complete|backend|oracle|true|false|undefined|null|NaN|passed|failed|tasks|category|summary|runs|seed|model|settings|error|answer|question|machine|plan validity)\b/i;

/** A scripted run that is right with probability p per run, as if it were `model` on this machine. */
async function mistakeRun(p: number, model: string): Promise<EvalReport> {
  const servers: ServerHandle[] = [];
  const workspace = await mkdtemp(join(tmpdir(), "eval-compare-ws-"));
  try {
    const travel = await startTravelServer({
      offline: true,
      timeoutMs: 60_000,
      env: { TRAVEL_TODAY: set.today, TRAVEL_WORKSPACE_DIR: workspace },
    });
    servers.push(travel);
    const math = await startMathServer({ timeoutMs: 60_000 });
    servers.push(math);
    const tools = { reise: await McpToolClient.connect(travel.url), mathe: await McpToolClient.connect(math.url) };
    try {
      return await runEvaluation({
        set,
        tasks,
        k: 2,
        style: "plan",
        tools,
        planner: (task, seed) => noisyOracle(task, seed, p).planner,
        meta: {
          backend: "node-llama-cpp",
          model: `models/${model}.gguf`,
          machine: machineInfo("CPU"),
          startedAt: new Date().toISOString(),
          selection: selectionText(set, tasks, { limit: 1 }),
          seed: 1,
          tasksFile: "data/eval/agent-tasks.json",
          today: set.today,
        },
      });
    } finally {
      await tools.reise.close();
      await tools.mathe.close();
    }
  } finally {
    for (const s of servers) await s.stop();
    await rm(workspace, { recursive: true, force: true });
  }
}

let good: EvalReport;
let weak: EvalReport;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "eval-compare-"));
  const oracle = await runCommand("eval:agent", [
    "--oracle",
    "--k",
    "2",
    "--limit",
    "1",
    "--json",
    file("oracle.json"),
    "--html",
    file("oracle.html"),
  ]);
  assert.equal(oracle.code, 0, oracle.stderr);
  assert.match(
    oracle.stderr,
    /Modell-Check: je höchstens 1 Aufgabe aus jeder der 9 Kategorien \(9 von 45\), je 2 Versuche.*Planer: Selbsttest des Prüfstands, kein Modell/,
  );
  good = await mistakeRun(0.9, "Probe-Modell-gut");
  weak = await mistakeRun(0.3, "Probe-Modell-schwach");
  await writeFile(file("gut.json"), JSON.stringify(good));
  await writeFile(file("schwach.json"), JSON.stringify(weak));
  await writeFile(file("schwach.html"), evalReportPage(weak));
});

after(() => rm(dir, { recursive: true, force: true }));

describe("the Modell-Check pages", () => {
  test("the scripted runs differ (else the recommendation would prove nothing)", () => {
    assert.ok(good.summary.passAt1 > weak.summary.passAt1, `${good.summary.passAt1} vs ${weak.summary.passAt1}`);
    assert.ok(weak.tasks.some((t) => t.failures.length > 0));
  });

  test("--vergleich with two files (oracle, a scripted run): both runs, every category, the model recommended, never the self-test", async () => {
    const run = await runCommandHere("eval:agent", [
      "--vergleich",
      file("oracle.json"),
      file("gut.json"),
      "--html",
      file("zwei.html"),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Empfehlung: Probe-Modell-gut – das einzige Modell im Vergleich \(\d+ % bestanden, [\d,]+ Sekunden je Aufgabe\)\. Der Selbsttest des Prüfstands ist kein Modell und zählt nicht\./,
    );
    assert.match(
      run.stdout,
      /⚠️ Nur 9 Aufgaben – zu wenig für eine Entscheidung\. Mit 95 % Sicherheit liegt „klappt beim ersten Versuch“ bei Probe-Modell-gut: zwischen \d+ % und \d+ %\. Für eine Entscheidung braucht es etwa \d+ Aufgaben/,
    );
    const page = await readFile(file("zwei.html"), "utf8");
    assert.match(page, /Selbsttest des Prüfstands, kein Modell<\/th>/);
    assert.match(page, /Probe-Modell-gut ★ Empfehlung<\/th>/);
    // A single model that passes less than half is not recommended.
    const weakOnly = await runCommandHere("eval:agent", [
      "--vergleich",
      file("oracle.json"),
      file("schwach.json"),
      "--html",
      file("schwach-allein.html"),
    ]);
    assert.equal(weakOnly.code, 0, weakOnly.stderr);
    assert.match(
      weakOnly.stdout,
      /^Keine Empfehlung: Probe-Modell-schwach, das einzige Modell im Vergleich, besteht nur \d+ %\. Für Teil 4 den Klassen-Server erwägen/,
    );
    assert.doesNotMatch(await readFile(file("schwach-allein.html"), "utf8"), /★ Empfehlung/);
    for (const c of TASK_CATEGORIES)
      assert.ok(
        page.includes(
          `<td style="border:1px solid #d0d7de;padding:4px 8px">${CATEGORY_LABELS[c].replace("$", "$")}</td>`,
        ),
        c,
      );
  });

  test("--compare with three files: the recommendation names the better model with its reason and speed", async () => {
    const run = await runCommandHere("eval:agent", [
      "--compare",
      file("oracle.json"),
      file("schwach.json"),
      file("gut.json"),
      "--html",
      file("drei.html"),
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /^Empfehlung für den Workshop: Probe-Modell-gut – \d+ % statt \d+ % (bei „[^“]+“, gesamt \d+ % statt \d+ % )?(bestanden )?gegenüber Probe-Modell-schwach(, aber langsamer: [\d,]+ statt | und schneller: [\d,]+ statt |, etwa gleich schnell \()[\d,]+ Sekunden je Antwort in Teil 4/,
    );
    assert.match(await readFile(file("drei.html"), "utf8"), /Probe-Modell-gut ★ Empfehlung<\/th>/);
  });

  test("in Chromium at 1920×1080 and 1280×720: German only, no sideways scrolling, the recommendation above the fold", async (t) => {
    if (!existsSync(CHROMIUM)) return t.skip("no Chromium");
    const shots = process.env.SCREENSHOT_DIR ?? dir;
    await mkdir(shots, { recursive: true });
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    try {
      for (const [width, height] of [
        [1920, 1080],
        [1280, 720],
      ] as const) {
        const page = await browser.newPage({ viewport: { width, height } });
        for (const name of ["drei", "zwei", "oracle", "schwach"]) {
          await page.goto(`file://${file(`${name}.html`)}`);
          const text = await page.locator("body").innerText();
          const english = text
            .split("\n")
            .filter((line) =>
              ENGLISH.test(
                line.replace(
                  /\S+\.(json|gguf)\b|Probe-Modell-\w+|pass@1|pass\^\d|s\/Versuch|\$ref|Prompt-Tokens|Startwert \(Seed\)/g,
                  "",
                ),
              ),
            );
          assert.deepEqual(english, [], `${name}: English on the page`);
          assert.doesNotMatch(text, /\b\d+\.\d\b/, `${name}: a decimal point instead of a comma`);
          const sideways = (await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) as number;
          assert.ok(sideways <= 0, `${name} at ${width}×${height}: ${sideways} px sideways`);
          if (name === "drei" || name === "zwei") {
            const box = await page.locator(".kit-eval-recommendation").boundingBox();
            assert.ok(
              box && box.y + box.height <= height,
              `${name}: the recommendation is below the fold at ${width}×${height}`,
            );
            const header = await page.locator("table.kit-eval-compare thead").innerText();
            assert.match(header, /Selbsttest des Prüfstands, kein Modell/);
            assert.equal(await page.locator("table.kit-eval-compare tbody tr").count(), TASK_CATEGORIES.length + 1);
            assert.match(header, /klappt beim ersten Versuch\s+klappt bei jedem Versuch\s+Sekunden je Aufgabe/);
            assert.match(text, /zu wenig für eine Entscheidung/);
            assert.doesNotMatch(text, /verschieden viele Versuche/, "the self-test never counts as another k");
          }
          if (name === "oracle") {
            assert.match(text, /Selbsttest des Prüfstands, kein Modell\. Ein geskripteter Planer/);
            assert.match(text, /^Ergebnis: der Prüfstand ist in Ordnung/m);
          }
          if (name === "schwach") {
            const failed = weak.tasks.find((task) => task.failures.length > 0)!;
            assert.ok(text.includes(failed.question!), "a failure shows its question");
            assert.match(
              text,
              new RegExp(
                `^Ergebnis: ${Math.round(weak.summary.passAt1 * 100)} % der Versuche bestanden \\(pass@1\\)`,
                "m",
              ),
            );
            for (const term of [
              "klappt beim ersten Versuch (pass@1)",
              "klappt bei jedem Versuch (pass^2)",
              "Pläne gültig",
              "Sekunden je Aufgabe",
            ]) {
              assert.match(text, new RegExp(`^${term.replace(/[$^()]/g, "\\$&")}\\s`, "m"), `legend: ${term}`);
            }
            assert.match(text, /zu wenig für eine Entscheidung/);
            assert.match(text, /^Rechner\s.+Kerne/m);
            assert.match(text, /^Datum\s+\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/m);
          }
          await page.screenshot({ path: join(shots, `${name}-${width}x${height}.png`), fullPage: name !== "drei" });
        }
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});

test("WORKSHOP_PROBE=1 npm run eval:agent says in German that rehearsal has no model to check", async () => {
  const run = await runCommandHere("eval:agent", ["--limit", "1"], { WORKSHOP_PROBE: "1" });
  assert.equal(run.code, 1, run.stderr);
  assert.match(
    run.stderr,
    /Im Probelauf \(WORKSHOP_PROBE=1\) gibt es kein Modell zu prüfen.*npm run eval:agent -- --oracle/s,
  );
  assert.doesNotMatch(run.stderr, /Modelldatei nicht gefunden|Error|at /);
});
