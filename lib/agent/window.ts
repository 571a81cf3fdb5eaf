// The sliding window: what part of a long conversation is sent to the model. Pure.
// The head (planner system prompt, context) and the current question always stay. When the whole
// conversation does not fit `budgetTokens`, in this order:
//   1. tool results of this run's older rounds are replaced by a one-line summary (ids + ok/failed;
//      the values stay reachable via `$ref`), the newest `keepRecentRounds` rounds stay complete;
//   2. earlier questions and answers (session history) are dropped, oldest first;
//   3. this run's oldest rounds are dropped (a note says how many);
//   4. the newest round's messages, then the context, are shortened to what is left.
import type { ChatMessage } from "../llm/types.js";

export interface PromptParts {
  /** System prompt and context message: always sent. */
  head: ChatMessage[];
  /** Earlier turns (user/assistant pairs), oldest first. */
  history: ChatMessage[];
  question: ChatMessage;
  /** This run so far: assistant plan, user feedback, assistant plan, … */
  rounds: ChatMessage[];
}

export interface WindowOptions {
  budgetTokens: number;
  count: (text: string) => number;
  /** Rounds (plan + feedback) of this run kept word for word (default 2). */
  keepRecentRounds?: number;
  /** Template tokens per message (role headers, end markers; default 8). */
  perMessageTokens?: number;
}

export interface WindowReport {
  tokens: number;
  /** Older rounds whose tool results were replaced by a summary. */
  summarisedRounds: number;
  droppedHistoryMessages: number;
  droppedRounds: number;
  /** Some message had to be cut. */
  shortened: boolean;
}

export interface WindowResult {
  messages: ChatMessage[];
  report: WindowReport;
}

const RESULT_LINE = /^\{"id":"([^"]+)","tool":"([^"]+)".*?"(result|error)":/u;

/** One line instead of a tool-results message: which calls ran and whether they worked. */
export function summariseFeedback(content: string): string {
  if (!content.startsWith("Tool-Ergebnisse:"))
    return content.length > 200 ? `${content.slice(0, 200)} … (gekürzt)` : content;
  const calls = content
    .split("\n")
    .map((line) => RESULT_LINE.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]} (${m[2]}): ${m[3] === "result" ? "ok" : "fehlgeschlagen"}`);
  return `Tool-Ergebnisse (gekürzt, Werte weiter über $ref erreichbar): ${calls.join("; ") || "keine"}`;
}

function roundsOf(messages: readonly ChatMessage[]): ChatMessage[][] {
  const rounds: ChatMessage[][] = [];
  for (const m of messages) {
    if (m.role === "assistant" || rounds.length === 0) rounds.push([m]);
    else rounds[rounds.length - 1]?.push(m);
  }
  return rounds;
}

function cut(message: ChatMessage, maxTokens: number, count: (text: string) => number): ChatMessage {
  if (count(message.content) <= maxTokens) return message;
  let lo = 0;
  let hi = message.content.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(message.content.slice(0, mid)) + 8 <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return { ...message, content: `${message.content.slice(0, lo)} … (gekürzt)` };
}

export function fitToWindow(parts: PromptParts, options: WindowOptions): WindowResult {
  const per = options.perMessageTokens ?? 8;
  const keep = Math.max(1, options.keepRecentRounds ?? 2);
  const cost = (m: ChatMessage) => options.count(m.content) + per;
  const total = (ms: readonly ChatMessage[]) => ms.reduce((sum, m) => sum + cost(m), 0);
  const report: WindowReport = {
    tokens: 0,
    summarisedRounds: 0,
    droppedHistoryMessages: 0,
    droppedRounds: 0,
    shortened: false,
  };
  const rounds = roundsOf(parts.rounds);
  let head = parts.head;
  let history = parts.history;
  const assemble = () => [...head, ...history, parts.question, ...rounds.flat()];
  const fits = () => total(assemble()) <= options.budgetTokens;

  // 1. Summarise older rounds' feedback, oldest first.
  for (let i = 0; i < rounds.length - keep && !fits(); i++) {
    const round = rounds[i] ?? [];
    rounds[i] = round.map((m) => (m.role === "user" ? { ...m, content: summariseFeedback(m.content) } : m));
    report.summarisedRounds++;
  }
  // 2. Earlier turns, oldest pair first.
  while (history.length > 0 && !fits()) {
    history = history.slice(history[0]?.role === "user" && history[1]?.role === "assistant" ? 2 : 1);
    report.droppedHistoryMessages = parts.history.length - history.length;
  }
  // 3. This run's oldest rounds (the newest one always stays).
  while (rounds.length > 1 && !fits()) {
    rounds.shift();
    report.droppedRounds++;
  }
  report.summarisedRounds = Math.max(0, report.summarisedRounds - report.droppedRounds);
  if (report.droppedRounds > 0) {
    const note: ChatMessage = {
      role: "user",
      content: `(${report.droppedRounds} ältere Planungsrunde(n) ausgelassen, weil der Kontext voll ist.)`,
    };
    const first = rounds[0];
    if (first) rounds[0] = [note, ...first];
  }
  // 4. Shorten the newest round, then the context (never the system prompt or the question).
  if (!fits()) {
    const last = rounds[rounds.length - 1] ?? [];
    for (let j = last.length - 1; j >= 0 && !fits(); j--) {
      const m = last[j];
      if (!m) continue;
      const room = options.budgetTokens - (total(assemble()) - cost(m)) - per;
      last[j] = cut(m, Math.max(16, room), options.count);
      report.shortened = true;
    }
  }
  if (!fits() && head.length > 1) {
    const [system, ...rest] = head;
    head = system
      ? [
          system,
          ...rest.map((m) =>
            cut(m, Math.max(16, options.budgetTokens - (total(assemble()) - cost(m)) - per), options.count),
          ),
        ]
      : head;
    report.shortened = true;
  }
  const messages = assemble();
  report.tokens = total(messages);
  return { messages, report };
}

/** True when the report says anything was left out or cut. */
export function wasTrimmed(report: WindowReport): boolean {
  return report.summarisedRounds + report.droppedHistoryMessages + report.droppedRounds > 0 || report.shortened;
}
