// The plan agent over your own MCP server (examples/my-server.ts, stdio) next to the kit's travel server.
//
//   npx tsx examples/agent-own-mcp-server.ts ["<Frage>"]
//
// Model and travel data come from the usual settings (.env: LLM_MODEL_PATH or LLM_BACKEND=openai,
// TRAVEL_OFFLINE). Both servers run as child processes and end with this script.
import { fileURLToPath } from "node:url";
import { loadConfig, loadLlm, McpToolClient, runAgent, runStatusLabel } from "../lib/index.js";

const question = process.argv[2] ?? "Wie ist das Wetter heute in Zürich, und wie viel sind 50 Euro in Franken?";

// Any MCP server over stdio: a command line plus its environment. Here: this Node with tsx's loader.
const ownServer = {
  command: process.execPath,
  args: ["--import", import.meta.resolve("tsx"), fileURLToPath(new URL("./my-server.ts", import.meta.url))],
  cwd: loadConfig().root,
};
const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));

const [llm, reise, eigene] = await Promise.all([
  loadLlm(),
  McpToolClient.connectStdio(),
  McpToolClient.connectCommand(ownServer, env),
]);
try {
  // Several clients by alias: one merged catalog; a name offered twice would become "reise.x" / "eigene.x".
  const result = await runAgent({ question, llm, tools: { reise, eigene }, maxIterations: 4 });

  const start = result.trace.events.find((e) => e.type === "run_start");
  console.log(`Werkzeuge: ${start?.type === "run_start" ? start.tools.join(", ") : "?"}`);
  console.log("Tool-Aufrufe:");
  for (const e of result.trace.events) {
    if (e.type === "tool_call") console.log(`  ${e.toolId}: ${e.toolName}(${JSON.stringify(e.arguments)})`);
    if (e.type === "tool_result") console.log(`    → ${JSON.stringify(e.result).slice(0, 120)}`);
    if (e.type === "tool_error") console.log(`    → Fehler: ${e.message.slice(0, 120)}`);
  }
  console.log(`Status: ${result.status} (${runStatusLabel(result.status)}), Runden: ${result.iterations}`);
  console.log(`Antwort:\n${result.final}`);
} finally {
  await Promise.allSettled([reise.close(), eigene.close(), llm.dispose()]);
}
