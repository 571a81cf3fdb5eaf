// How long does plan extraction take on hostile model output? Issue 15: the old code-fence regex
// backtracked quadratically on "```" followed by a long run of letters without a newline (50k chars
// 1.5 s, 200k chars 17.8 s). Goal: linear, 200k characters in < 50 ms.
// Run: npx tsx bench/json-extract.bench.ts
import { extractJsonObject } from "../lib/plan/json-extract.js";
import { printMarkdownTable } from "./markdown-table.js";

const PLAN = '{"steps":[{"id":"s1","tool":"geocode","args":{"destination":"Rom"}}]}';

const inputs: [string, (n: number) => string][] = [
  ["``` + letters, no newline", (n) => "```" + "a".repeat(n)],
  ["``` + letters + newline, unclosed", (n) => "```json" + "a".repeat(n) + "\n{" + "b".repeat(10)],
  ["many ``` openers", (n) => "```x".repeat(Math.floor(n / 4))],
  ["fenced plan after prose", (n) => "x ".repeat(Math.floor(n / 2)) + "\n```json\n" + PLAN + "\n```"],
  ["unclosed braces", (n) => "{".repeat(n)],
];

function time(text: string): number {
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    extractJsonObject(text);
    runs.push(performance.now() - t);
  }
  return Math.min(...runs);
}

const sizes = [50_000, 200_000];
const rows = inputs.map(([name, make]) => [name, ...sizes.map((n) => time(make(n)).toFixed(1))]);
console.log(`extractJsonObject on hostile input (best of 3), Node ${process.version}`);
console.log("goal (issue 15): linear, 200k characters < 50 ms\n");
printMarkdownTable(["input", ...sizes.map((n) => `${n / 1000}k chars ms`)], rows);
