// `npm start -- "<Frage>" [options]` — the whole stack from the command line:
// model (lib/llm) + RAG context (lib/rag) + travel server subprocess (lib/mcp, with --mathe also the
// math server) + agent (lib/agent).
import { parseArgs } from "node:util";
import { existsSync } from "node:fs";
import { autoApprove, openTerminal, type Terminal } from "./interactive.js";
import {
  AgentSession,
  ConfigError,
  RagError,
  SCHEDULE_MODES,
  SCHEDULE_MODE_LABELS,
  describeAgentEvent,
  describeLlm,
  loadLlm,
  openRagStore,
  saveTrace,
  startMathServer,
  startTravelServer,
  TRAVEL_MATH_ROLE,
  type Llm,
  McpToolClient,
  type ServerHandle,
  type RagStore,
  type ScheduleMode,
  type TravelServerHandle,
  type AgentEvent,
  type AgentTrace,
  type VoteResult,
} from "../../../lib/index.js";
import { modelProblems, practiceEnvironment, probeEnvironment } from "../models/model-help.js";
import { NOT_SCRIPTED, PROBE_EXAMPLES } from "../../../lib/rehearsal/index.js";
import { groupAncestors, watchAncestors } from "./process-watch.js";
import { describeVoteEvent, runVote } from "../../../lib/index.js";
import { KitError } from "../../../lib/errors.js";
import { errorText, germanNumber, ignore } from "../../../lib/util.js";
import { defineCommand, StopSignal } from "../../node/command.js";
import { germanParseArgsMessage, UsageError } from "../../node/parse-args-german.js";

/** Longest time between a stop request (signal, npm gone) and the exit, whatever is still running. */
const STOP_GRACE_MS = 1000;

/** What the usage says after the option list. */
const NOTES = `Freigaben: Tools, die etwas verändern (save_trip_plan schreibt Reisepläne in den Ordner workspace/),
zeigen erst eine Vorschau mit Diff und fragen „Freigeben? [j]a / [n]ein / n: <Begründung>". Eine
Begründung bekommt das Modell zu lesen und plant neu. Ohne Terminal (Pipe, CI) werden solche Aufrufe
abgelehnt und Rückfragen des Agenten (ask_user) beantwortet niemand – es hängt nichts.
Unter der Antwort stehen Hinweise, wenn Zahlen, Daten oder Orte in keinem Tool-Ergebnis vorkommen.

Das heutige Datum (für den Prompt, user.today und den gestarteten Reise-Server)
ist das lokale Datum; TRAVEL_TODAY=JJJJ-MM-TT legt es fest.

Beispiel: npm start -- "Wie ist heute das Wetter in Barcelona?"`;

/** What rehearsal mode says under an answer the script does not have: questions it knows. */
const PROBE_QUESTIONS = [
  "\nIm Probelauf kennt das Drehbuch nur die Fragen der Notebooks und des Modell-Checks, zum Beispiel:",
  ...PROBE_EXAMPLES.map((q) => `  npm start -- --probe "${q}"`),
].join("\n");

/** Today as YYYY-MM-DD in the local time zone (what a participant calls "heute"). */
function localIsoDate(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** TRAVEL_TODAY (checked like the travel server does) or the local date. */
function todayFromEnv(env: NodeJS.ProcessEnv): { today: string; fixed: boolean } {
  const fixed = env.TRAVEL_TODAY?.trim();
  if (!fixed) return { today: localIsoDate(), fixed: false };
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fixed);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : undefined;
  if (!m || !date || date.toISOString().slice(0, 10) !== fixed) {
    throw new ConfigError(`TRAVEL_TODAY muss ein Datum JJJJ-MM-TT sein, nicht "${fixed}".`);
  }
  return { today: fixed, fixed: true };
}

/** The command line's options (parseArgs), also the names an unknown option is matched against. */
const OPTIONS = {
  model: { type: "string", value: "<datei.gguf>", help: "GGUF-Modell (sonst LLM_MODEL_PATH oder models/…)" },
  uebung: {
    type: "boolean",
    default: false,
    label: "--uebung, --practice",
    help: "Übungsmodus ohne Modell: winzige Zufallsmodelle aus models/tiny, Reisedaten\noffline (die Antworten sind Kauderwelsch) – zum Ausprobieren des Ablaufs",
  },
  übung: { type: "boolean", default: false },
  practice: { type: "boolean", default: false },
  probe: {
    type: "boolean",
    default: false,
    label: "--probe, --probelauf",
    help: "Probelauf ohne Modell: ein Drehbuch antwortet (🎭) auf die Fragen der Notebooks,\nz. B. „Wie ist heute das Wetter in Barcelona?“ – Reise-Server, Tools, Plan-Ausführung\nund Freigaben sind echt; in Sekunden den ganzen Ablauf sehen",
  },
  probelauf: { type: "boolean", default: false },
  offline: {
    type: "boolean",
    default: false,
    help: "Reise-Werkzeuge nur mit mitgelieferten Daten (wie TRAVEL_OFFLINE=1)",
  },
  mathe: {
    type: "boolean",
    default: false,
    help: "zusätzlich den Rechen-Server anbinden (exakte Arithmetik: addition,\nsubtraktion, multiplikation, division, rechne)",
  },
  "max-iterations": { type: "string", default: "6", value: "<n>", help: "höchstens n Planungsrunden (Standard 6)" },
  mode: {
    type: "string",
    default: "dependency",
    value: "<m>",
    help: `Ausführung der Tools: dependency (${SCHEDULE_MODE_LABELS.dependency}, Standard),\nstep-parallel (${SCHEDULE_MODE_LABELS["step-parallel"]}) oder sequential (${SCHEDULE_MODE_LABELS.sequential})`,
  },
  trace: {
    type: "string",
    value: "<datei.json>",
    help: 'kompletten Ablauf als JSON speichern; mit --votes: den Ablauf des Gewinner-Laufs,\ndazu unter "vote" die Abstimmung mit allen Läufen und ihren Ereignissen',
  },
  "rag-k": {
    type: "string",
    default: "3",
    value: "<n>",
    help: "so viele Textstellen aus data/corpus als Kontext (Standard 3, 0 = aus)",
  },
  "rag-min-score": {
    type: "string",
    default: "0.35",
    value: "<s>",
    help: "nur Textstellen mit Ähnlichkeit ≥ s (Standard 0,35)",
  },
  chat: {
    type: "boolean",
    default: false,
    help: 'Gespräch: nach der Antwort weitere Fragen stellen (Rückfragen wie „Und morgen?"),\nEnde mit leerer Zeile, „exit" oder Strg+D',
  },
  session: {
    type: "string",
    value: "<datei.json>",
    help: "Gespräch dort speichern und beim nächsten Start fortsetzen",
  },
  yes: {
    type: "boolean",
    default: false,
    help: "alle Tools, die etwas verändern (save_trip_plan), ohne Nachfrage freigeben",
  },
  "approval-timeout": {
    type: "string",
    default: "120",
    value: "<s>",
    help: "so viele Sekunden auf eine Freigabe warten, dann ablehnen (Standard 120)",
  },
  "answer-writer": {
    type: "boolean",
    default: false,
    help: "die Antwort schreibt ein zweiter Modellaufruf nur aus Frage, Kontext und Tool-Ergebnissen",
  },
  votes: {
    type: "string",
    default: "1",
    value: "<k>",
    help: "die Frage bis zu k-mal unabhängig beantworten lassen und abstimmen (Standard 1);\nübernommen wird nur das Ergebnis, das 2 Stimmen Vorsprung hat (bzw. nach k Läufen vorn liegt)",
  },
  help: { type: "boolean", short: "h", default: false, help: "diese Hilfe" },
} as const;

export const command = defineCommand({
  name: "start",
  invocation: "npm start --",
  summary: "Der Reise-Agent im Terminal: plant mit dem Modell, ruft die Werkzeuge des Reise-Servers auf und antwortet.",
  positionals: '"<Frage>"',
  options: OPTIONS,
  notes: NOTES,
  unknownOptionHint: "Eine Frage, die mit „-“ beginnt, gehört hinter „--“.",
  stopGraceMs: STOP_GRACE_MS,
  run: ({ argv, signal }) => run(argv, signal),
});
const USAGE = command.usage;

function parse(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    const message = germanParseArgsMessage(error, Object.keys(OPTIONS), USAGE);
    if (message === undefined) throw error;
    const unknownOption = (error as { code?: unknown }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    throw new UsageError(unknownOption ? `${message} Eine Frage, die mit „-“ beginnt, gehört hinter „--“.` : message);
  }
  const { values, positionals } = parsed;
  const question = positionals.join(" ").trim();
  const number = (name: string, value: string, min: number) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min)
      throw new ConfigError(`--${name} erwartet eine Zahl ≥ ${min}, nicht "${value}".`);
    return n;
  };
  if (!SCHEDULE_MODES.includes(values.mode as ScheduleMode)) {
    throw new ConfigError(`--mode muss eines von ${SCHEDULE_MODES.join(", ")} sein, nicht "${values.mode}".`);
  }
  if (Number(values.votes) > 1 && (values.chat || values.session)) {
    throw new ConfigError("--votes geht nur mit einer einzelnen Frage (ohne --chat und --session).");
  }
  const practice = values.uebung || values["übung"] || values.practice;
  if (practice && values.model) {
    throw new ConfigError(
      "--uebung nimmt das winzige Übungsmodell; --model passt nicht dazu. Eine der beiden Optionen weglassen.",
    );
  }
  const probe = values.probe || values.probelauf;
  if (probe && (practice || values.model)) {
    throw new ConfigError(
      `--probe antwortet aus dem Drehbuch, ohne Modell; ${practice ? "--uebung" : "--model"} passt nicht dazu. Eine der beiden Optionen weglassen.`,
    );
  }
  return {
    help: values.help,
    question,
    model: values.model,
    practice,
    probe,
    offline: values.offline,
    mathe: values.mathe,
    maxIterations: Math.floor(number("max-iterations", values["max-iterations"], 1)),
    mode: values.mode as ScheduleMode,
    trace: values.trace,
    ragK: Math.floor(number("rag-k", values["rag-k"], 0)),
    ragMinScore: number("rag-min-score", values["rag-min-score"], -1),
    chat: values.chat,
    session: values.session,
    yes: values.yes,
    approvalTimeoutMs: Math.round(number("approval-timeout", values["approval-timeout"], 1) * 1000),
    answerWriter: values["answer-writer"],
    votes: Math.floor(number("votes", values.votes, 1)),
  };
}

/**
 * What `--trace` writes with `--votes`: the winning run's trace (no events without a winner), so the file
 * reads like any trace, plus `vote`: the decision and every run with its own events.
 */
function voteTrace(
  question: string,
  mode: ScheduleMode,
  startedAt: Date,
  vote: VoteResult,
  runEvents: Map<number, AgentEvent[]>,
) {
  const base: AgentTrace = vote.winner?.trace ?? {
    version: 1,
    question,
    mode,
    startedAt: startedAt.toISOString(),
    events: [],
  };
  const changes = vote.events.filter((e) => e.type === "vote_approval" || e.type === "vote_commit");
  const runs = vote.runs.map((run) => ({ ...run, events: runEvents.get(run.run) ?? [] }));
  const { rule, margin, decision, runsUsed, runsSaved, redFlagged } = vote;
  return {
    ...base,
    final: vote.final,
    vote: { rule, margin, decision, runsUsed, runsSaved, redFlagged, changes, runs },
  };
}

async function retrieveContext(question: string, k: number, minScore: number): Promise<string | undefined> {
  if (k === 0) return undefined;
  let store: RagStore | undefined;
  try {
    store = await openRagStore({ onStatus: (line) => console.log(`RAG: ${line}`) });
    const { chunks } = await store.getRagContext(question, k);
    const relevant = chunks.filter((c) => c.score >= minScore);
    console.log(
      `RAG: ${relevant.length} von ${chunks.length} Textstellen ähnlich genug (≥ ${germanNumber(minScore, 2)}).`,
    );
    return relevant.length > 0 ? relevant.map((c) => c.text).join("\n\n---\n\n") : undefined;
  } catch (error) {
    // Without an embedding model the agent still works; say why the context is missing.
    if (error instanceof RagError) {
      console.log(`RAG übersprungen: ${error.message.split("\n")[0]}`);
      return undefined;
    }
    throw error;
  } finally {
    await store?.dispose();
  }
}

/**
 * Ctrl+C, `kill` of this process or of any process of our job (npm, sh, tsx, the travel server): abort the
 * run, clean up, and exit within STOP_GRACE_MS. process.exit() also kills the travel server (its exit hook).
 */
function installStop(kitSignal: AbortSignal): {
  signal: AbortSignal;
  watchServer(server: TravelServerHandle): () => void;
} {
  const controller = new AbortController();
  let code = 130;
  const stop = (why: string, exitCode: number) => {
    if (controller.signal.aborted) return;
    code = exitCode;
    console.error(`\nAbbruch (${why}): räume auf und beende.`);
    controller.abort(new Error(`Abbruch: ${why}`));
    setTimeout(() => process.exit(code), STOP_GRACE_MS).unref();
  };
  const exitCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
  // scripts/kit.ts aborts kitSignal on the first signal and exits on a second one.
  kitSignal.addEventListener(
    "abort",
    () => {
      const name = (kitSignal.reason as StopSignal).signal;
      stop(name, exitCodes[name]);
    },
    { once: true },
  );
  watchAncestors(groupAncestors(), (pid) => stop(`aufrufender Prozess ${pid} beendet`, 143));
  return {
    signal: controller.signal,
    watchServer(server) {
      const timer = setInterval(() => {
        if (server.exited) stop("Reise-Server beendet", 143);
      }, 200);
      timer.unref();
      controller.signal.addEventListener("abort", () => clearInterval(timer), { once: true });
      return () => clearInterval(timer);
    },
  };
}

let stopping: ReturnType<typeof installStop>;

async function main(argv: string[]): Promise<number> {
  const args = parse(argv);
  if (args.help || (!args.question && !args.chat)) {
    console.log(USAGE);
    return args.help ? 0 : 2;
  }
  const { today, fixed } = todayFromEnv(process.env);
  if (args.probe) {
    // The same set-up as `npm run workshop -- --probe`: WORKSHOP_PROBE=1 makes loadLlm hand out the scripted
    // model (it prints the rehearsal notice); servers, tools, plan executor and approval are the real ones.
    Object.assign(process.env, await probeEnvironment());
  } else if (args.practice) {
    // The same set-up as `npm run workshop -- --uebung`; the travel server inherits TRAVEL_OFFLINE=1 and
    // loadLlm prints the practice notice (WORKSHOP_PRACTICE=1), as in the notebooks.
    Object.assign(process.env, await practiceEnvironment());
  } else {
    // Before anything starts: no model means the ways out, not a stack of half-started servers.
    const problems = modelProblems(process.env, "start", args.model);
    if (problems.length > 0) throw new ConfigError(problems.join("\n"));
  }
  let llm: Llm | undefined;
  let server: TravelServerHandle | undefined;
  let unwatchServer: (() => void) | undefined;
  let client: McpToolClient | undefined;
  const math: { start?: Promise<ServerHandle>; client?: McpToolClient } = {};
  let terminal: Terminal | undefined;
  try {
    // Model and travel server start in parallel; both take a moment.
    // The server gets the CLI's date: on its own it would use the UTC date, which differs near midnight.
    const serverStart = startTravelServer({ offline: args.offline || undefined, env: { TRAVEL_TODAY: today } });
    serverStart.catch(ignore("awaited below; this only avoids an unhandled rejection while the model loads"));
    math.start = args.mathe ? startMathServer() : undefined;
    math.start?.catch(ignore("awaited and stopped in finally"));
    try {
      llm = await loadLlm(args.model ? { modelPath: args.model } : {});
    } catch (error) {
      await serverStart.then((s) => s.stop()).catch(ignore("the model failed to load; that error is thrown"));
      throw error;
    }
    console.log(describeLlm(llm.info));
    // Notes the model adds while answering (e.g. a saved prompt state it ignored), shown like those above.
    let notesShown = llm.info.notes.length;
    const showNewNotes = (info: { notes: string[] }) => {
      for (const note of info.notes.slice(notesShown)) console.log(`Hinweis: ${note}`);
      notesShown = info.notes.length;
    };
    server = await serverStart;
    stopping.signal.throwIfAborted();
    unwatchServer = stopping.watchServer(server);
    console.log(`Reise-Server: ${server.url} (${server.mode === "offline" ? "Offline-Daten" : "online"})`);
    client = await McpToolClient.connect(server.url);
    if (math.start) {
      const mathServer = await math.start;
      console.log(`Rechen-Server: ${mathServer.url}`);
      math.client = await McpToolClient.connect(mathServer.url);
    }
    const context = args.question ? await retrieveContext(args.question, args.ragK, args.ragMinScore) : undefined;

    console.log(`Datum: ${today}${fixed ? " (aus TRAVEL_TODAY)" : ""}`);

    console.log("");
    // A person at a terminal approves writes and answers ask_user; without one nothing may wait for input.
    const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
    terminal = interactive || args.chat ? openTerminal() : undefined;
    if (!interactive && !args.yes) {
      console.log(
        "Kein Terminal: Tools, die etwas verändern, werden abgelehnt (--yes gibt sie frei); Rückfragen sind nicht möglich.",
      );
    }
    const sessionOptions = {
      llm,
      // With --mathe: both servers as one tool client (names namespaced only on collision, see lib/mcp/composite.ts).
      tools: math.client ? { reise: client, mathe: math.client } : client,
      ...(math.client ? { role: TRAVEL_MATH_ROLE } : {}),
      today,
      maxIterations: args.maxIterations,
      mode: args.mode,
      answerWriter: args.answerWriter,
      // The travel heuristic (lib/agent/groundedness.ts): warnings under the answer.
      groundedness: true,
      signal: stopping.signal,
      approve: args.yes ? autoApprove() : interactive ? terminal?.approve : undefined,
      approval: { timeoutMs: args.approvalTimeoutMs },
      askUser: interactive ? terminal?.askUser : undefined,
      onEvent: (event: Parameters<typeof describeAgentEvent>[0]) => {
        const line = describeAgentEvent(event);
        if (line) console.log(line);
      },
    };
    const session =
      args.session && existsSync(args.session)
        ? await AgentSession.load(args.session, sessionOptions)
        : new AgentSession(sessionOptions);
    if (args.session && session.turns.length > 0)
      console.log(`Gespräch fortgesetzt: ${session.turns.length} frühere Frage(n) aus ${args.session}`);
    let question = args.question;
    let status = "answered";
    for (;;) {
      if (!question) {
        const line = terminal ? await terminal.readLine("\nFrage (leer = Ende) › ") : null;
        if (line === null || line.trim() === "" || /^(exit|quit|ende)$/i.test(line.trim())) break;
        question = line.trim();
      }
      if (args.votes > 1) {
        // Voting: k isolated runs, only the winner's staged changes are committed (after approval).
        const { onEvent: _, ...single } = sessionOptions;
        const startedAt = new Date();
        const runEvents = new Map<number, AgentEvent[]>();
        const vote = await runVote({
          ...single,
          question,
          context,
          k: args.votes,
          onEvent: (e) => console.log(describeVoteEvent(e)),
          onRunEvent: (run, e) => runEvents.set(run, [...(runEvents.get(run) ?? []), e]),
        });
        if (stopping.signal.aborted) return 130;
        showNewNotes(llm.info);
        console.log(`\nAntwort:\n${vote.final}`);
        if (args.trace) {
          await saveTrace(voteTrace(question, args.mode, startedAt, vote, runEvents), args.trace);
          console.log(`\nAblauf gespeichert: ${args.trace}`);
        }
        return vote.decision.winner ? 0 : 3;
      }
      const result = await session.ask(question, {
        context: question === args.question ? context : await retrieveContext(question, args.ragK, args.ragMinScore),
      });
      if (stopping.signal.aborted) return 130;
      showNewNotes(llm.info);
      status = result.status;
      console.log(`\nAntwort:\n${result.final}`);
      if (args.probe && result.final.includes(NOT_SCRIPTED)) console.log(PROBE_QUESTIONS);
      if (result.warnings.length > 0) console.log(`\nHinweise:\n${result.warnings.map((w) => `  ⚠ ${w}`).join("\n")}`);
      if (args.session) await session.save(args.session);
      if (args.trace) {
        await saveTrace(result.trace, args.trace);
        console.log(`\nAblauf gespeichert: ${args.trace}`);
      }
      if (!args.chat) break;
      question = "";
    }
    return status === "answered" ? 0 : 3;
  } finally {
    unwatchServer?.(); // we stop it ourselves now: its exit is no abort, however long the model takes to free
    terminal?.close();
    await client?.close().catch(ignore("closing a client that is already gone"));
    await math.client?.close().catch(ignore("closing a client that is already gone"));
    await server?.stop().catch(ignore("stopping a server that has already exited"));
    await math.start?.then((s) => s.stop()).catch(ignore("the math server failed to start or has already exited"));
    await llm?.dispose().catch(ignore("freeing a model on the way out"));
  }
}

async function run(argv: string[], signal: AbortSignal): Promise<number> {
  stopping = installStop(signal);
  try {
    return await main(argv);
  } catch (error) {
    if (stopping.signal.aborted) return 130; // stopped on request: the reason is printed already
    if (error instanceof UsageError) {
      console.error(`\n${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof KitError) {
      // Expected problems (missing model, bad option, server down): the message says what to do.
      console.error(`\n${errorText(error)}`);
      return 2;
    }
    console.error(error);
    return 1;
  }
}
