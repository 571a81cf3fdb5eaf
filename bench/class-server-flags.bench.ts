// What klassenraum's KV-cache setting costs in tokens/s: llama-bench (llama.cpp's own, the class server's code)
// on a speed twin with the class server's model shape, KV cache f16 (llama.cpp's default: how klassenraum started
// the server before) against q8_0 with flash attention (what scripts/apps/klassenraum/class-sizing.ts picks: half
// the cache's memory), prompt and generation on an empty and on a filled context. Both settings run in the same
// llama-bench call, so they see the same load. Memory of each setting: class-sizing.ts.
//
// npm run bench -- class-server-flags
// Env: FLAGS_TWIN=llama-3.1-8b (a menu id, see scripts/dev/twins/shapes.ts)  FLAGS_DEPTHS=0,1024
//      FLAGS_PROMPT=128  FLAGS_GEN=16  FLAGS_REPS=2  FLAGS_THREADS=2
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { findLlamaTools } from "../scripts/dev/llama-build.js";
import { cachedTwin } from "../scripts/dev/twins/main.js";
import { printMarkdownTable } from "./markdown-table.js";
import { reportGoal } from "./summary.js";

const env = process.env;
const TWIN = env.FLAGS_TWIN ?? "llama-3.1-8b";
const DEPTHS = env.FLAGS_DEPTHS ?? "0,1024";
const PROMPT = env.FLAGS_PROMPT ?? "128";
const GEN = env.FLAGS_GEN ?? "16";
const REPS = env.FLAGS_REPS ?? "2";
const THREADS = env.FLAGS_THREADS ?? "2";

interface BenchRow {
  type_k: string;
  n_prompt: number;
  n_gen: number;
  n_depth: number;
  avg_ts: number;
}

const tools = findLlamaTools();
if (!("bin" in tools)) {
  console.log(`class-server-flags: skipped: no llama-bench (${tools.missing})`);
  reportGoal({
    metric: "KV q8_0 vs f16, tokens/s",
    goal: "measured",
    measured: `skipped (${tools.missing})`,
    met: undefined,
  });
} else {
  const twin = await cachedTwin(TWIN);
  console.log(`twin ${TWIN}: ${twin.path}${twin.writeMs ? ` (written in ${(twin.writeMs / 1000).toFixed(1)} s)` : ""}`);
  // q8_0 for V needs flash attention, so the settings cannot be crossed in one call: they take turns, one
  // repetition each, so both see the same load.
  const settings = {
    f16: ["-ctk", "f16", "-ctv", "f16", "-fa", "off"],
    q8_0: ["-ctk", "q8_0", "-ctv", "q8_0", "-fa", "on"],
  };
  const rows: BenchRow[] = [];
  for (let rep = 0; rep < Number(REPS); rep++) {
    for (const flags of Object.values(settings)) {
      const out = execFileSync(
        join(tools.bin, "llama-bench"),
        [
          "-m",
          twin.path,
          "-t",
          THREADS,
          "-p",
          PROMPT,
          "-n",
          GEN,
          "-d",
          DEPTHS,
          "-r",
          "1",
          "-ngl",
          "0",
          "-o",
          "json",
          ...flags,
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 16 * 1024 * 1024 },
      );
      rows.push(...(JSON.parse(out) as BenchRow[]));
    }
  }
  const label = (r: BenchRow) => `${r.n_prompt > 0 ? `pp${r.n_prompt}` : `tg${r.n_gen}`} @ depth ${r.n_depth}`;
  const tests = [...new Set(rows.map(label))];
  const mean = (test: string, kv: string) => {
    const speeds = rows.filter((r) => label(r) === test && r.type_k === kv).map((r) => r.avg_ts);
    return speeds.reduce((a, b) => a + b, 0) / speeds.length;
  };
  const table = tests.map((test) => {
    const f16 = mean(test, "f16");
    const q8 = mean(test, "q8_0");
    return [test, f16.toFixed(1), q8.toFixed(1), (q8 / f16).toFixed(2)];
  });
  const load = (await import("node:fs")).readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`\nllama-bench, ${TWIN} twin, -t ${THREADS}, ${REPS} reps (load ${load})\n`);
  printMarkdownTable(["test", "KV f16 tokens/s", "KV q8_0 + flash attention tokens/s", "q8_0 / f16"], table);
  for (const [test, , , ratio] of table)
    reportGoal({ metric: `KV q8_0 vs f16, ${test}`, goal: "measured", measured: `${ratio}×`, met: undefined });
}
