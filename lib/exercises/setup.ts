// One set-up call per exercise notebook: loads what the part needs, prints what it loaded, and
// returns it with a close() for the notebook's clean-up cell. "Run All" runs that cell too, so nothing
// close() releases is gone for good: the model and the embedder load again on their next use, a client
// opens a new session; the servers keep running until the kernel ends (they end with it).
import { join } from "node:path";
import { loadConfig } from "../config.js";
import { loadLlm } from "../rehearsal/load.js";
import { describeLlm } from "../llm/report.js";
import { tokenCounter } from "../llm/tokens.js";
import type { ChatMessage, Llm } from "../llm/types.js";
import { McpToolClient } from "../mcp/client.js";
import { startTravelServer, type TravelServerHandle } from "../mcp/server-process.js";
import type { ToolInfo } from "../mcp/types.js";
import type { CorpusDocument } from "../rag/chunking.js";
import { loadCorpus } from "../rag/corpus.js";
import { isHit, loadQaSet, locatePassages, type QaItem } from "../rag-eval/evaluation.js";
import { openRagStore, type RagStore } from "../rag/store.js";
import { announcePracticeMode } from "../notebook/notices.js";
import { showError } from "./show.js";
import { cutAtWord, ignore } from "../util.js";
import { corpusSentences, type RetrievalResult } from "./part2-checks.js";
import { taskOverview, type WorkshopPart } from "./tasks.js";
import { retrievalParts, type RetrievalParts } from "./transfer-checks.js";
import {
  openMathKit,
  openUebungStore,
  provideMathClient,
  provideUebungStore,
  type MathKit,
} from "./transfer-resources.js";

/** Where report lines go. */
export type Log = (line: string) => void;

export interface SetupOptions {
  /** Where the report lines go (default console.log). */
  log?: Log;
}

export interface Part2Options extends SetupOptions {
  /** Cache folder of the RAG store (default `<root>/.cache/rag`; the store is saved there as `aufgabe-2`). */
  ragCacheDir?: string;
}

function printTasks(part: WorkshopPart, log: Log): void {
  log(`\nDeine Aufgaben in diesem Notebook:`);
  for (const line of taskOverview(part)) log(`  ${line}`);
}

function words(text: string): number {
  return text.split(/\s+/u).filter((w) => w !== "").length;
}

// ---------------------------------------------------------------------------------------------
// Teil 1

export interface Part1Kit {
  llm: Llm;
  /** Tokens of a text: the model's own tokenizer, or an estimate (characters / 4) for HTTP backends. */
  countTokens: (text: string) => number;
  /** Closes what the setup opened (model, servers, client sessions). */
  close(): Promise<void>;
}

/** Aufgabe 1: loads the LLM (LLM_BACKEND, and LLM_MODEL_PATH for the local backend, as Teil 1) and a token counter. */
export async function setupPart1(options: SetupOptions = {}): Promise<Part1Kit> {
  const log = options.log ?? ((line: string) => console.log(line));
  const llm = await loadLlm();
  const tokens = tokenCounter(llm);
  log(describeLlm(llm.info));
  log(`Token-Zähler: ${tokens.source}`);
  printTasks(1, log);
  return { llm, countTokens: tokens.count, close: () => llm.dispose() };
}

export interface RefusalProbeOptions {
  /** Questions the prompt should refuse (default: a few off-topic ones). */
  outOfScope?: string[];
  /** Questions it should answer (default: a few travel questions). */
  inScope?: string[];
  /** Longest answer per probe question, in tokens (default 80). */
  maxTokens?: number;
  /** Where the verdict lines go (default: console.log). */
  log?: Log;
}

export interface RefusalProbeResult {
  question: string;
  shouldRefuse: boolean;
  answer: string;
  /** What the participant's isRefusal said (undefined when it threw). */
  refused: boolean | undefined;
}

const OUT_OF_SCOPE = [
  "Wie backe ich einen Käsekuchen?",
  "Erkläre mir in drei Sätzen die Relativitätstheorie.",
  "Schreib mir ein Gedicht über Steuererklärungen.",
];
const IN_SCOPE = [
  "Was kann man an einem Regentag in Wien unternehmen?",
  "Welche Viertel sollte ich mir in Lissabon ansehen?",
];

function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  return cutAtWord(flat, max + 1);
}

/**
 * Not a self-check: asks the loaded model a few questions with `systemPrompt` and shows whether the
 * participant's `isRefusal` recognises a refusal. The outcome depends on the model (random on the tiny one).
 */
export async function probeRefusals(
  llm: Llm,
  systemPrompt: string,
  refusal: string,
  isRefusal: (answer: string, refusal: string) => boolean | Promise<boolean>,
  options: RefusalProbeOptions = {},
): Promise<RefusalProbeResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  log("Probelauf mit dem geladenen Modell – KEIN Selbsttest: ob das Modell die Regel befolgt, hängt vom Modell ab.");
  const modelPath = llm.info.backend === "openai-compatible" ? "" : (llm.info.modelPath ?? "");
  if (/tiny/iu.test(modelPath))
    log("Hinweis: Geladen ist das winzige Testmodell; seine Antworten sind Zufall. Mit Llama 3.1 8B wird es spannend.");
  const questions = [
    ...(options.outOfScope ?? OUT_OF_SCOPE).map((q) => ({ question: q, shouldRefuse: true })),
    ...(options.inScope ?? IN_SCOPE).map((q) => ({ question: q, shouldRefuse: false })),
  ];
  const results: RefusalProbeResult[] = [];
  for (const { question, shouldRefuse } of questions) {
    const messages: ChatMessage[] = [
      { role: "system", content: systemPrompt },
      { role: "user", content: question },
    ];
    const { text } = await llm.chat(messages, { maxTokens: options.maxTokens ?? 80, temperature: 0, seed: 1 });
    let refused: boolean | undefined;
    let verdict: string;
    try {
      refused = Boolean(await isRefusal(text, refusal));
      verdict = `isRefusal → ${refused}${refused === shouldRefuse ? " (wie gewünscht)" : shouldRefuse ? " (hätte ablehnen sollen)" : " (hätte antworten sollen)"}`;
    } catch (error) {
      verdict = `isRefusal warf einen Fehler: ${showError(error)}`;
    }
    log(`\n❓ ${question}  [${shouldRefuse ? "soll abgelehnt werden" : "soll beantwortet werden"}]`);
    log(`💬 ${oneLine(text)}`);
    log(`   ${verdict}`);
    results.push({ question, shouldRefuse, answer: text, refused });
  }
  const matching = results.filter((r) => r.refused === r.shouldRefuse).length;
  log(`\n${matching} von ${results.length} Antworten verhalten sich wie gewünscht (laut deinem isRefusal).`);
  return results;
}

// ---------------------------------------------------------------------------------------------
// Teil 2

export interface Part2Kit {
  documents: CorpusDocument[];
  /** The first 40 sentences of laternenbilch.md (what the chunker check uses, too). */
  sentences: string[];
  store: RagStore;
  qa: QaItem[];
  /** Top-10 retrieval per Q&A question, with the chunk ids that answer it. */
  results: RetrievalResult[];
  /** Aufgabe 2.4: embed and search over the second text (data/uebung), same embedding model. */
  uebung: RetrievalParts;
  /** Closes what the setup opened (model, servers, client sessions). */
  close(): Promise<void>;
}

/** Chunk id as the exercises use it: "<document>#<index>". */
export function chunkId(chunk: { metadata: { document: string; index: number } }): string {
  return `${chunk.metadata.document}#${chunk.metadata.index}`;
}

/** Retrieval results for the Q&A set: top-`depth` chunk ids per question and the ids that are hits. */
export async function retrievalResults(
  store: RagStore,
  qa: readonly QaItem[],
  documents: readonly CorpusDocument[],
  depth = 10,
): Promise<RetrievalResult[]> {
  const passages = locatePassages(qa, documents);
  const results: RetrievalResult[] = [];
  for (let i = 0; i < qa.length; i++) {
    const item = qa[i] as QaItem;
    const passage = passages[i];
    const hits = await store.search(item.question, Math.min(depth, store.chunks.length));
    const relevant = passage ? store.chunks.filter((c) => isHit(c.metadata, passage)).map(chunkId) : [];
    results.push({ question: item.question, retrieved: hits.map(chunkId), relevant });
  }
  return results;
}

/** Aufgabe 2: corpus, sentences, the RAG store (cached as in Teil 2), the Q&A set and its retrieval results. */
export async function setupPart2(options: Part2Options = {}): Promise<Part2Kit> {
  const log = options.log ?? ((line: string) => console.log(line));
  const documents = loadCorpus();
  const store = await openRagStore({
    documents,
    cacheDir: options.ragCacheDir,
    name: "aufgabe-2",
    onStatus: (line) => log(line),
  });
  try {
    const qa = loadQaSet(join(loadConfig().root, "data", "corpus", "qa.json"));
    const results = await retrievalResults(store, qa, documents, 10);
    const sentences = corpusSentences();
    for (const d of documents) log(`Dokument ${d.name}: ${words(d.text)} Wörter`);
    log(
      `Embedding-Modell: ${store.embedder.model} (${store.embedder.dimension} Dimensionen), ${store.chunks.length} Chunks im Index`,
    );
    log(`Sätze für die Chunking-Aufgabe: ${sentences.length} (aus laternenbilch.md)`);
    log(`Fragen mit Antwortstelle: ${qa.length}; für jede die 10 ähnlichsten Chunks in \`results\``);
    const uebungStore = await openUebungStore({ embedder: store.embedder, cacheDir: options.ragCacheDir });
    provideUebungStore(uebungStore);
    log(`Zweiter Text für Aufgabe 2.4: ${uebungStore.chunks.length} Chunks in \`kit.uebung\``);
    printTasks(2, log);
    const uebung = retrievalParts(uebungStore);
    return { documents, sentences, store, qa, results, uebung, close: () => store.dispose() };
  } catch (error) {
    await store.dispose();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Teil 3 and 4

export interface TravelKit {
  server: TravelServerHandle;
  client: McpToolClient;
  tools: ToolInfo[];
  toolNames: string[];
}

async function openTravel(log: Log): Promise<TravelKit> {
  const server = await startTravelServer();
  try {
    const client = await McpToolClient.connect(server.url);
    const tools = await client.listTools();
    log(`Reise-Server: ${server.url} (Daten: ${server.mode === "offline" ? "offline, mitgeliefert" : "online"})`);
    log(`Tools: ${tools.map((t) => t.name).join(", ")}`);
    return { server, client, tools, toolNames: tools.map((t) => t.name) };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function closeTravel(kit: TravelKit): Promise<void> {
  await kit.client.close().catch(ignore("closing a client that is already gone"));
  await kit.server.stop();
}

/** The clean-up cell's part for the servers: their sessions end (the next call opens a new one), the processes stay. */
async function endSessions(travel: TravelKit, mathe: MathKit): Promise<void> {
  await mathe.client.close();
  await travel.client.close();
}

export interface Part3Kit extends TravelKit {
  llm: Llm;
  /** Aufgabe 3.4: the math server with one client session. */
  mathe: MathKit;
  /** Closes what the setup opened (model, servers, client sessions). */
  close(): Promise<void>;
}

/** The math server for the transfer tasks; the self-checks use the same session. */
async function openMathForExercise(log: Log): Promise<MathKit> {
  const mathe = await openMathKit();
  provideMathClient(mathe.client);
  log(`Rechen-Server: ${mathe.server.url} · Tools: ${mathe.toolNames.join(", ")}`);
  return mathe;
}

/** Aufgabe 3: the LLM, the travel server (subprocess) and one client session with the tool list. */
export async function setupPart3(options: SetupOptions = {}): Promise<Part3Kit> {
  const log = options.log ?? ((line: string) => console.log(line));
  const llm = await loadLlm();
  let travel: TravelKit;
  let mathe: MathKit;
  try {
    travel = await openTravel(log);
    try {
      mathe = await openMathForExercise(log);
    } catch (error) {
      await closeTravel(travel);
      throw error;
    }
  } catch (error) {
    await llm.dispose();
    throw error;
  }
  log(describeLlm(llm.info));
  printTasks(3, log);
  return {
    ...travel,
    llm,
    mathe,
    close: async () => {
      await endSessions(travel, mathe);
      await llm.dispose();
    },
  };
}

export interface Part4Kit extends TravelKit {
  /** Aufgabe 4.4: the math server with one client session. */
  mathe: MathKit;
  /** Closes what the setup opened (model, servers, client sessions). */
  close(): Promise<void>;
}

/** Aufgabe 4: the travel server and one client session (the tasks themselves need no model). */
export async function setupPart4(options: SetupOptions = {}): Promise<Part4Kit> {
  const log = options.log ?? ((line: string) => console.log(line));
  announcePracticeMode(log);
  const travel = await openTravel(log);
  let mathe: MathKit;
  try {
    mathe = await openMathForExercise(log);
  } catch (error) {
    await closeTravel(travel);
    throw error;
  }
  printTasks(4, log);
  return { ...travel, mathe, close: () => endSessions(travel, mathe) };
}
