// Self-checks for Aufgabe 1 (local LLM): chat history, trimming to a token budget, a refusal rule.
// Everything here is checked without a model; how a real model follows the prompt is shown by
// probeRefusals (setup.ts), which says plainly that it is no check.
import type { ChatMessage } from "../llm/types.js";
import { defineCheck } from "./check-runner.js";
import { showValue } from "./show.js";

/** One earlier exchange: the user's message and the assistant's answer. */
export interface Turn {
  user: string;
  assistant: string;
}

/** The participant's function: system prompt, earlier turns and the question as a message list. */
export type BuildMessagesFn = (
  systemPrompt: string,
  turns: Turn[],
  question: string,
) => ChatMessage[] | Promise<ChatMessage[]>;
/** The participant's function: drop the oldest turns until the messages fit `maxTokens`. */
export type TrimHistoryFn = (
  messages: ChatMessage[],
  maxTokens: number,
  countTokens: (text: string) => number,
) => ChatMessage[] | Promise<ChatMessage[]>;
/** The participant's function: a system prompt that limits the assistant to `topic` and answers everything else with `refusal`. */
export type RefusalPromptFn = (topic: string, refusal: string) => string | Promise<string>;
/** The participant's function: whether `answer` is the refusal sentence. */
export type IsRefusalFn = (answer: string, refusal: string) => boolean | Promise<boolean>;

const sys = (content: string): ChatMessage => ({ role: "system", content });
const user = (content: string): ChatMessage => ({ role: "user", content });
const bot = (content: string): ChatMessage => ({ role: "assistant", content });

// ---------------------------------------------------------------------------------------------
// Task 1: buildMessages

const SYSTEM = "Du bist ein Reiseplaner.";

/** Self-test of the participant's `buildMessages` (Verlauf als Nachrichtenliste). */
export const checkBuildMessages = defineCheck<BuildMessagesFn>({
  functionName: "buildMessages",
  title: "Verlauf als Nachrichtenliste",
  cases: [
    {
      name: "Ohne Verlauf: System-Prompt, dann die Frage",
      args: [SYSTEM, [], "Was kann ich in Lyon unternehmen?"],
      expect: [sys(SYSTEM), user("Was kann ich in Lyon unternehmen?")],
    },
    {
      name: "Zwei Wortwechsel: abwechselnd user/assistant in zeitlicher Reihenfolge, neue Frage zuletzt",
      args: [
        SYSTEM,
        [
          { user: "Ich heiße Max.", assistant: "Hallo Max!" },
          { user: "Ich reise im Mai nach Porto.", assistant: "Porto ist im Mai schön." },
        ],
        "Wie heiße ich?",
      ],
      expect: [
        sys(SYSTEM),
        user("Ich heiße Max."),
        bot("Hallo Max!"),
        user("Ich reise im Mai nach Porto."),
        bot("Porto ist im Mai schön."),
        user("Wie heiße ich?"),
      ],
      unchangedInput: true,
    },
    {
      name: "Leerer System-Prompt → keine system-Nachricht",
      args: ["", [{ user: "Hallo", assistant: "Hallo!" }], "Und jetzt?"],
      expect: [user("Hallo"), bot("Hallo!"), user("Und jetzt?")],
    },
    {
      name: "Texte bleiben wörtlich erhalten (Zeilenumbrüche, Leerzeichen)",
      args: ["Regeln:\n1. Nur Reisen.", [{ user: "  Hallo  ", assistant: "Hi\n" }], "Frage\nmit zwei Zeilen"],
      expect: [sys("Regeln:\n1. Nur Reisen."), user("  Hallo  "), bot("Hi\n"), user("Frage\nmit zwei Zeilen")],
    },
    {
      name: "Jeder Aufruf liefert eine eigene, neue Liste (kein gemeinsamer Zustand)",
      input: 'buildMessages("S", [], "erste") und danach buildMessages("S", [], "zweite")',
      call: async (fn) => {
        const first = await fn("S", [], "erste");
        const second = await fn("S", [], "zweite");
        return { first, second };
      },
      expect: { first: [sys("S"), user("erste")], second: [sys("S"), user("zweite")] },
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Task 2: trimHistory

/** Token counter of the checks: one token per word (deterministic, easy to follow by hand). */
export function countWords(text: string): number {
  return text.split(/\s+/u).filter((w) => w !== "").length;
}

// 3 + 3 + 4 + 3 + 5 + 3 = 21 words
const LONG_HISTORY: ChatMessage[] = [
  sys("Du planst Reisen."),
  user("Ich heiße Max."),
  bot("Hallo Max, freut mich!"),
  user("Ich mag Museen."),
  bot("Dann passt Wien gut dazu."),
  user("Wie heiße ich?"),
];

/** Compact input line: each message with its word count, so budgets can be followed by hand. */
function trimInput(messages: ChatMessage[], maxTokens: number): string {
  const shown = messages.map((m) => `${m.role} „${m.content}“ (${countWords(m.content)})`).join(", ");
  return `trimHistory([${shown}], ${maxTokens}, countWords) – Zahl in Klammern: Tokens laut countWords`;
}

/** Self-test of the participant's `trimHistory` (Verlauf auf ein Token-Budget kürzen). */
export const checkTrimHistory = defineCheck<TrimHistoryFn>({
  functionName: "trimHistory",
  title: "Verlauf auf ein Token-Budget kürzen",
  cases: [
    {
      name: "Passt ins Budget → bleibt unverändert",
      args: [LONG_HISTORY, 50, countWords],
      input: trimInput(LONG_HISTORY, 50),
      expect: LONG_HISTORY,
      unchangedInput: true,
    },
    {
      name: "Genau auf dem Budget (21 von 21) → bleibt unverändert",
      args: [LONG_HISTORY, 21, countWords],
      input: trimInput(LONG_HISTORY, 21),
      expect: LONG_HISTORY,
    },
    {
      name: "Ein Token zu viel → der älteste Wortwechsel (Frage + Antwort) fliegt raus",
      args: [LONG_HISTORY, 20, countWords],
      input: trimInput(LONG_HISTORY, 20),
      expect: [LONG_HISTORY[0], LONG_HISTORY[3], LONG_HISTORY[4], LONG_HISTORY[5]],
      unchangedInput: true,
    },
    {
      name: "Immer ganze Wortwechsel entfernen, nie nur die Frage (sonst beginnt der Verlauf mit einer Antwort)",
      // Removing only "Ich heiße Max." (3) would reach 18, but the pair must go together → 14.
      args: [LONG_HISTORY, 18, countWords],
      input: trimInput(LONG_HISTORY, 18),
      expect: [LONG_HISTORY[0], LONG_HISTORY[3], LONG_HISTORY[4], LONG_HISTORY[5]],
    },
    {
      name: "Reicht ein Wortwechsel nicht, fliegen so viele wie nötig raus (älteste zuerst)",
      args: [LONG_HISTORY, 12, countWords],
      input: trimInput(LONG_HISTORY, 12),
      expect: [LONG_HISTORY[0], LONG_HISTORY[5]],
    },
    {
      name: "System-Prompt und aktuelle Frage bleiben immer, auch wenn selbst sie das Budget sprengen",
      args: [LONG_HISTORY, 2, countWords],
      input: trimInput(LONG_HISTORY, 2),
      expect: [LONG_HISTORY[0], LONG_HISTORY[5]],
    },
    {
      name: "Ohne System-Prompt funktioniert es genauso",
      args: [LONG_HISTORY.slice(1), 15, countWords],
      input: trimInput(LONG_HISTORY.slice(1), 15),
      expect: [LONG_HISTORY[3], LONG_HISTORY[4], LONG_HISTORY[5]],
    },
    {
      name: "Benutzt den übergebenen Token-Zähler (hier: jede Nachricht zählt 1)",
      args: [LONG_HISTORY, 4, () => 1],
      input: "trimHistory(<Verlauf mit 6 Nachrichten>, 4, () => 1)",
      expect: [LONG_HISTORY[0], LONG_HISTORY[3], LONG_HISTORY[4], LONG_HISTORY[5]],
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Task 3: refusalPrompt

/** The refusal sentence of Aufgabe 1.3 and 1.4 (exported as DEFAULT_REFUSAL). */
const REFUSAL_A = "Dazu kann ich nichts sagen – ich helfe dir gern bei deiner Reiseplanung.";
const REFUSAL_B = "Das gehört nicht zu meinem Fachgebiet.";
const QUOTES = /["„“”«»'‚‘’]/u;
export const MAX_REFUSAL_PROMPT_CHARS = 1200;

function quoted(prompt: string, text: string): boolean {
  const at = prompt.indexOf(text);
  if (at === -1) return false;
  const before = prompt.slice(Math.max(0, at - 3), at);
  const after = prompt.slice(at + text.length, at + text.length + 3);
  return QUOTES.test(before) && QUOTES.test(after);
}

function promptProblem(prompt: unknown, topic: string, refusal: string): string | undefined {
  if (typeof prompt !== "string") return `Erwartet wird ein Text (string), nicht ${showValue(prompt, 80)}.`;
  if (!prompt.includes(refusal))
    return `Der Ablehnungssatz „${refusal}“ muss wörtlich im Prompt stehen, damit das Modell ihn genau so wiederholen kann.`;
  if (!prompt.includes(topic))
    return `Das Thema „${topic}“ muss im Prompt stehen – woher soll das Modell sonst wissen, was erlaubt ist?`;
  return undefined;
}

/** Self-test of the participant's `refusalPrompt` (System-Prompt mit Ablehnungsregel). */
export const checkRefusalPrompt = defineCheck<RefusalPromptFn>({
  functionName: "refusalPrompt",
  title: "System-Prompt mit Ablehnungsregel",
  cases: [
    {
      name: "Enthält Thema und Ablehnungssatz wörtlich",
      args: ["Städtereisen in Europa", REFUSAL_A],
      expectation: "ein Prompt, der Thema und Ablehnungssatz wörtlich enthält",
      verify: (p) => promptProblem(p, "Städtereisen in Europa", REFUSAL_A),
    },
    {
      name: "Der Ablehnungssatz steht in Anführungszeichen (als wörtlich zu wiederholender Text erkennbar)",
      args: ["Städtereisen in Europa", REFUSAL_A],
      expectation: '„…Ablehnungssatz…“ oder "…Ablehnungssatz…"',
      verify: (p) =>
        typeof p === "string" && quoted(p, REFUSAL_A)
          ? undefined
          : 'Setze den Ablehnungssatz in Anführungszeichen, z. B. „…“ oder "…".',
    },
    {
      name: "Funktioniert auch für ein anderes Thema und einen anderen Satz (nichts fest eingebaut)",
      args: ["Wanderurlaub in den Alpen", REFUSAL_B],
      expectation: "ein Prompt mit „Wanderurlaub in den Alpen“ und dem neuen Satz, ohne den alten",
      verify: (p) => {
        const problem = promptProblem(p, "Wanderurlaub in den Alpen", REFUSAL_B);
        if (problem) return problem;
        const text = p as string;
        if (text.includes("Städtereisen in Europa") || text.includes(REFUSAL_A))
          return "Der Prompt enthält noch Thema oder Satz aus dem ersten Beispiel – baue ihn aus den Parametern.";
        return undefined;
      },
    },
    {
      name: `Kurz genug für kleine Modelle (höchstens ${MAX_REFUSAL_PROMPT_CHARS} Zeichen)`,
      args: ["Städtereisen in Europa", REFUSAL_A],
      expectation: `höchstens ${MAX_REFUSAL_PROMPT_CHARS} Zeichen`,
      verify: (p) =>
        typeof p === "string" && p.length <= MAX_REFUSAL_PROMPT_CHARS
          ? undefined
          : `Der Prompt hat ${typeof p === "string" ? p.length : "?"} Zeichen; jede Zeile kostet in jeder Anfrage Rechenzeit.`,
    },
  ],
});

// ---------------------------------------------------------------------------------------------
// Task 4: isRefusal

/** Self-test of the participant's `isRefusal` (Ablehnung in einer Modellantwort erkennen). */
export const checkIsRefusal = defineCheck<IsRefusalFn>({
  functionName: "isRefusal",
  title: "Ablehnung in einer Modellantwort erkennen",
  cases: [
    { name: "Genau der Satz", args: [REFUSAL_A, REFUSAL_A], expect: true },
    { name: "In typografischen Anführungszeichen", args: [`„${REFUSAL_A}“`, REFUSAL_A], expect: true },
    {
      name: "Andere Groß-/Kleinschreibung, Zeilenumbruch, doppelte Leerzeichen",
      args: ["dazu kann ich nichts sagen –\nich  helfe dir gern bei deiner REISEPLANUNG.", REFUSAL_A],
      expect: true,
    },
    {
      name: "Mit Text davor und danach",
      args: [`Tut mir leid! ${REFUSAL_A} Frag mich gern nach Zielen in Europa.`, REFUSAL_A],
      expect: true,
    },
    {
      name: "Bindestrich statt Gedankenstrich, Ausrufezeichen statt Punkt",
      args: ["Dazu kann ich nichts sagen - ich helfe dir gern bei deiner Reiseplanung!", REFUSAL_A],
      expect: true,
    },
    {
      name: "Eine normale Reiseantwort ist keine Ablehnung",
      args: ["In Wien lohnt sich an Regentagen das Kunsthistorische Museum.", REFUSAL_A],
      expect: false,
    },
    {
      name: "Nur die erste Hälfte des Satzes reicht nicht",
      args: ["Dazu kann ich nichts sagen.", REFUSAL_A],
      expect: false,
    },
    { name: "Leere Antwort → keine Ablehnung", args: ["", REFUSAL_A], expect: false },
    {
      name: "Arbeitet mit dem übergebenen Satz (nicht fest eingebaut)",
      args: [`Hm. ${REFUSAL_B}`, REFUSAL_B],
      expect: true,
    },
    { name: "… und erkennt den alten Satz nicht, wenn ein anderer gilt", args: [REFUSAL_A, REFUSAL_B], expect: false },
  ],
});

export { REFUSAL_A as DEFAULT_REFUSAL };
