// `npm run llama:build`: builds the llama.cpp tools for the CPU (scripts/dev/llama-build.ts).
import { defineCommand } from "../../node/command.js";
import { ensureLlamaTools } from "../llama-build.js";

export const command = defineCommand({
  name: "llama:build",
  invocation: "npm run llama:build",
  summary: "Baut llama-server, llama-bench und llama-quantize für die CPU (einmalig 10–20 Minuten); keine Optionen.",
  options: {},
  run: main,
});

async function main(): Promise<number> {
  const t = performance.now();
  const r = await ensureLlamaTools((s) => console.log(s));
  const secs = ((performance.now() - t) / 1000).toFixed(0);
  if (!("bin" in r)) {
    console.log(`llama.cpp tools skipped: ${r.missing}`);
    return 1;
  }
  console.log(`llama.cpp tools ready in ${r.bin} (${secs} s)`);
  return 0;
}
