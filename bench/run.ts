// `npm run bench [-- filter]` — runs every bench/*.bench.ts in its own process and prints its table,
// then one summary table of all goals the bench files reported (bench/summary.ts).
// By default on the tiny generated models (mechanics and ratios); BENCH_REAL_MODEL=1 uses the
// configured models (LLM_MODEL_PATH, EMBEDDING_MODEL) for real speed numbers.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProjectRoot } from "../lib/config.js";
import { defineCommand } from "../scripts/node/command.js";
import { UsageError } from "../scripts/node/parse-args-german.js";
import { testEnvironment } from "../scripts/dev/test-env.js";
import { printSummary, readGoals, SUMMARY_ENV, type GoalResult } from "./summary.js";

export const command = defineCommand({
  name: "bench",
  invocation: "npm run bench --",
  summary: "Misst Tempo und Speicher: jede bench/*.bench.ts in einem eigenen Prozess, dann eine Tabelle aller Ziele.",
  options: {
    n: {
      type: "string",
      value: "N",
      help: "so viele Teilnehmende im hub-Bench (Standard 5; z. B. npm run bench -- hub --n 20)",
    },
    realistisch: {
      type: "boolean",
      help: "hub-Bench wie am Kurstag: je Person Kernel mit lib und Reise-Server, jede zweite zwei (ohne llama-server)",
    },
    tageslauf: {
      type: "boolean",
      help: "hub-Bench: Speicher über sechs Notebooks eines Tages, mit und ohne Aufräum-Zelle (ohne llama-server)",
    },
  },
  positionals: "[NAMENSTEIL …]",
  notes:
    "NAMENSTEIL: nur die bench/*.bench.ts, deren Name das enthält (z. B. rag)\nBENCH_REAL_MODEL=1: mit den eingestellten Modellen statt der winzigen",
  run: ({ positionals, values }) => main(positionals, values.n, values.realistisch === true, values.tageslauf === true),
});

async function main(
  filters: string[],
  participants: string | undefined,
  realistic: boolean,
  notebookDay: boolean,
): Promise<number> {
  if (
    participants !== undefined &&
    !(/^\d+$/.test(participants) && Number(participants) >= 1 && Number(participants) <= 200)
  ) {
    throw new UsageError(`--n erwartet eine ganze Zahl von 1 bis 200 (bekommen: „${participants}“).`);
  }
  const root = findProjectRoot();
  const summaryDir = mkdtempSync(join(tmpdir(), "bench-summary-"));
  const summaryFile = join(summaryDir, "goals.jsonl");
  const env = {
    ...(await testEnvironment({ tinyModels: process.env.BENCH_REAL_MODEL !== "1" })),
    [SUMMARY_ENV]: summaryFile,
    ...(participants ? { HUB_BENCH_PARTICIPANTS: participants } : {}),
    ...(realistic ? { HUB_BENCH_REALISTIC: "1" } : {}),
    ...(notebookDay ? { HUB_BENCH_DAY: "1" } : {}),
  };
  const files = readdirSync(join(root, "bench"))
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => filters.length === 0 || filters.some((q) => f.includes(q)))
    .sort();
  const failures: GoalResult[] = [];
  for (const file of files) {
    console.log(`\n=== ${file}`);
    const r = spawnSync(process.execPath, ["--import", "tsx", join("bench", file)], {
      cwd: root,
      env,
      stdio: "inherit",
    });
    if (r.status !== 0)
      failures.push({
        metric: "bench run",
        goal: "exit code 0",
        measured: `exit ${r.status ?? r.signal}`,
        met: false,
        source: file,
      });
  }
  const goals = [...readGoals(summaryFile), ...failures];
  rmSync(summaryDir, { recursive: true, force: true });
  console.log(
    `\n=== Summary (${process.env.BENCH_REAL_MODEL === "1" ? "configured models" : "tiny models"}; ${goals.length} goals)\n`,
  );
  printSummary(goals);
  return failures.length ? 1 : 0;
}
