// `npm run models:warm` — the instructor runs it once, on any machine with the model: it evaluates the
// planner's and the half-agent's system prompts (travel; travel + math) for the configured model and the
// workshop's context settings (LLM_CONTEXT_SIZE) and writes their KV states into `prompt-states/`
// beside the model file, with a manifest (lib/llm/warm-states.ts). Copying `models/` to the USB stick
// carries them; on every laptop the first plan then evaluates only the question.
//
//   npm run models:warm [-- --only planer-reise,halbagent-reise]
import { copyFile, mkdir, readdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import esmImport from "../../../lib/esm.cjs";
import { loadConfig } from "../../../lib/config.js";
import { writeFileAtomic } from "../../../lib/files.js";
import { TRAVEL_MATH_ROLE } from "../../../lib/agent/index.js";
import { resolveOptions } from "../../../lib/agent/run-options.js";
import { startRun } from "../../../lib/agent/run-state.js";
import { buildHalfAgentSystemPrompt } from "../../../lib/half-agent/index.js";
import { loadLocalLlm, type LocalLlm, resolveModelPath, todayMessage } from "../../../lib/llm/index.js";
import { readSidecar } from "../../../lib/llm/prompt-state.js";
import { MANIFEST_FILE, readWarmManifest, WARM_FORMAT, warmStateDir, type WarmEntry } from "../../../lib/llm/warm-states.js";
import { combineToolClients, McpToolClient, startMathServer, startTravelServer, type ToolInfo } from "../../../lib/mcp/index.js";
import { formatToolsForPrompt } from "../../../lib/schema/text.js";
import { errorText } from "../../../lib/util.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman } from "../../node/parse-args-german.js";

/** One prompt to prepare: its name (part of the file name) and where the workshop uses it. */
export interface WarmPrompt {
  name: string;
  usedBy: string;
  system: string;
  /** Most tokens of the whole prompt for the workshop to use it (default: what fits the context). */
  maxTokens?: (contextSize: number) => number;
}

const MB = 1e6;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1).replace(".", ",")} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1).replace(".", ",")} s`;

/** The planner's system prompt exactly as runAgent builds it (catalog, `user.today`, ask_user, role). */
async function plannerPrompt(llm: LocalLlm, tools: Parameters<typeof resolveOptions>[0]["tools"], role?: string): Promise<string> {
  const run = await startRun(resolveOptions({ llm, tools, question: "?", today: "2000-01-01", role }));
  return run.messages[0]!.content;
}

/** The workshop's long system prompts, built from the real travel and math servers' catalogs. */
export async function workshopPrompts(llm: LocalLlm): Promise<WarmPrompt[]> {
  const travelServer = await startTravelServer({ offline: true });
  const mathServer = await startMathServer().catch(async (error: unknown) => {
    await travelServer.stop();
    throw error;
  });
  const reise = await McpToolClient.connect(travelServer.url);
  const mathe = await McpToolClient.connect(mathServer.url);
  try {
    const travel: ToolInfo[] = await reise.listTools();
    const both = combineToolClients({ reise, mathe });
    const merged = await both.listTools();
    return [
      { name: "planer-reise", usedBy: "Teil 4, npm start", system: await plannerPrompt(llm, reise) },
      { name: "planer-reise-mathe", usedBy: "npm start -- --mathe", system: await plannerPrompt(llm, { reise, mathe }, TRAVEL_MATH_ROLE) },
      { name: "halbagent-reise", usedBy: "Teil 3 (Kurzfassung), Teil 4 (Stilvergleich)", system: buildHalfAgentSystemPrompt(travel) },
      { name: "halbagent-reise-katalog", usedBy: "Teil 3 (ausführlicher Katalog)", system: buildHalfAgentSystemPrompt(travel, { catalog: formatToolsForPrompt(travel) }), maxTokens: (context) => context / 2 }, // Teil 3 takes it only then
      { name: "halbagent-reise-mathe", usedBy: "Halb-Agent mit Rechen-Server", system: buildHalfAgentSystemPrompt(merged, { role: TRAVEL_MATH_ROLE }) },
    ];
  } finally {
    await reise.close();
    await mathe.close();
    await Promise.all([travelServer.stop(), mathServer.stop()]);
  }
}

/** Copies `from` to `to` through a temporary file and a rename (a reader never sees half a state). */
async function copyAtomic(from: string, to: string): Promise<void> {
  const tmp = `${to}.${process.pid}.tmp`;
  try {
    await copyFile(from, tmp);
    await rename(tmp, to);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Evaluates each prompt once, saves its state, and writes the states and the manifest into `dir`. */
export async function warmPrompts(llm: LocalLlm, modelPath: string, prompts: readonly WarmPrompt[], log: (line: string) => void): Promise<WarmEntry[]> {
  const dir = warmStateDir(modelPath);
  const stem = basename(modelPath).replace(/\.gguf$/i, "").replace(/[^\w.-]/g, "_"); // the manifest allows only these
  const entries: WarmEntry[] = [];
  await mkdir(dir, { recursive: true });
    for (const prompt of prompts) {
      await llm.resetCache();
      const messages = [{ role: "system" as const, content: prompt.system }, todayMessage("2000-01-01"), { role: "user" as const, content: "Hallo" }];
      const contextSize = llm.info.contextSize ?? 0;
      const tokens = llm.countPromptTokens(messages);
      if (tokens > (prompt.maxTokens?.(contextSize) ?? contextSize - 1)) {
        log(`  ${prompt.name.padEnd(24)} übersprungen: ${tokens} Tokens, zu lang für den Kontext von ${contextSize} (wird so nicht benutzt)`);
        continue;
      }
      await llm.chat(messages, { maxTokens: 1, temperature: 0 });
      const event = llm.lastPromptState;
      if (event?.action !== "saved") throw new Error(`${prompt.name}: kein Zustand gespeichert (${event?.note ?? "Prompt zu kurz?"})`);
      const saved = await readSidecar(event.file);
      const file = `${stem}.${prompt.name}.ctx${saved.identity.settings.contextSize}.kvstate`;
      await copyAtomic(event.file, join(dir, file));
      entries.push({
        name: prompt.name,
        file,
        model: { file: basename(modelPath), ...saved.identity.model },
        settings: saved.identity.settings,
        key: saved.key,
        tokens: saved.tokens,
        bytes: saved.bytes,
        sha256: saved.sha256,
        layout: saved.layout ?? false,
        createdAt: new Date().toISOString(),
      });
      log(`  ${prompt.name.padEnd(24)} ${String(saved.tokens).padStart(5)} Tokens in ${seconds(event.evaluateMs ?? 0)} → ${mb(saved.bytes)}  (${prompt.usedBy})`);
  }
  await writeManifest(dir, entries);
  return entries;
}

/** The manifest: these entries plus those of other files (other models or context sizes); unreferenced state files are removed. */
async function writeManifest(dir: string, entries: WarmEntry[]): Promise<void> {
  const old = await readWarmManifest(dir);
  const mine = new Set(entries.map((e) => e.file));
  const kept = old && !("problem" in old) ? old.entries.filter((e) => !mine.has(e.file)) : [];
  const all = [...kept, ...entries];
  const { getModuleVersion } = await esmImport<typeof import("node-llama-cpp")>("node-llama-cpp");
  await writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify({ format: WARM_FORMAT, nodeLlamaCpp: await getModuleVersion(), entries: all }, null, 1)}\n`);
  const referenced = new Set(all.map((e) => e.file));
  for (const name of await readdir(dir)) {
    if (name.endsWith(".kvstate") && !referenced.has(name)) await rm(join(dir, name), { force: true });
  }
}

const WARM_OPTIONS = {
  only: { type: "string", value: "NAMEN", help: "nur diese System-Prompts (durch Komma getrennt; Standard: alle), z. B. --only planer-reise,halbagent-reise" },
} as const;

export const command = defineCommand({
  name: "models:warm",
  invocation: "npm run models:warm --",
  summary: "Berechnet die System-Prompts der Notebooks einmal vor, damit die erste Antwort schnell kommt.",
  options: WARM_OPTIONS,
  run: ({ argv }) => main(argv),
});

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgsGerman({ args: argv, options: command.options }, command.usage);
  const only = values.only?.split(",").map((n) => n.trim()).filter(Boolean);
  const config = loadConfig();
  if (config.llmBackend !== "local") {
    console.log("models:warm bereitet Zustände für das lokale Modell vor; mit LLM_BACKEND=openai rechnet der Klassen-Server, da gibt es nichts vorzubereiten.");
    return 1;
  }
  const started = performance.now();
  const scratch = join(tmpdir(), `models-warm-${process.pid}`);
  let llm: LocalLlm;
  let modelPath: string;
  try {
    modelPath = resolveModelPath();
    // The workshop's settings from .env (LLM_CONTEXT_SIZE …), as loadLlm uses them; a scratch cache.
    llm = await loadLocalLlm({ modelPath, promptStateDir: scratch, warmStateDir: false });
  } catch (error) {
    console.log(`❌ ${errorText(error)}`);
    return 1;
  }
  try {
    const dir = warmStateDir(modelPath);
    console.log(`Modell: ${modelPath}\nKontext: ${llm.info.contextSize} Tokens, ${llm.info.gpu}, ${llm.info.threads ?? "?"} Threads`);
    const all = await workshopPrompts(llm);
    const unknown = only?.filter((n) => !all.some((p) => p.name === n)) ?? [];
    if (unknown.length > 0) {
      console.log(`Unbekannt: ${unknown.join(", ")} (möglich: ${all.map((p) => p.name).join(", ")})`);
      return 2;
    }
    const prompts = all.filter((p) => !only || only.includes(p.name));
    console.log(`Berechne ${prompts.length} System-Prompts:`);
    const entries = await warmPrompts(llm, modelPath, prompts, (line) => console.log(line));
    const total = entries.reduce((n, e) => n + e.bytes, 0);
    const shown = relative(process.cwd(), dir).startsWith("..") ? dir : relative(process.cwd(), dir);
    const count = entries.length === 1 ? "1 Zustand" : `${entries.length} Zustände`;
    console.log(`\n✅ ${count} (${mb(total)}) in ${shown}/ nach ${seconds(performance.now() - started)}.`);
    console.log("   Beim Kopieren von models/ auf den USB-Stick mitnehmen; npm run doctor prüft, ob sie passen.");
    return 0;
  } catch (error) {
    console.log(`❌ Vorbereitung abgebrochen: ${errorText(error)}`);
    return 1;
  } finally {
    await llm.dispose();
    await rm(scratch, { recursive: true, force: true });
  }
}
