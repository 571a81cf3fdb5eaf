// The CLI's conversation with the person at the terminal: approval of side-effecting tool calls
// (ja / nein / nein mit Begründung), answers to ask_user, and the --chat loop. Without a terminal
// (CI, pipes) nothing here is used: side-effecting calls are then rejected and ask_user reports that
// no one can answer, so a run never hangs.
import { createInterface, type Interface } from "node:readline/promises";
import type { ApprovalDecision, ApprovalRequest, ApproveFn, AskUserFn } from "../../../lib/index.js";

/** Text shown before a decision: tool, arguments or the file preview with its diff. */
export function describeApprovalRequest(request: ApprovalRequest): string {
  const lines = [
    `Freigabe nötig: ${request.toolName} (${request.toolId})${request.destructive ? " – kann Bestehendes überschreiben" : ""}`,
  ];
  const preview = request.preview;
  if (preview) {
    lines.push(
      `Datei im Arbeitsordner: ${preview.path} (${preview.isNew ? "neu" : "wird ersetzt"}, ${preview.bytes} Bytes)`,
    );
    lines.push(preview.diff || "(Inhalt unverändert)");
  } else {
    lines.push(`Argumente: ${JSON.stringify(request.arguments)}`);
  }
  return lines.join("\n");
}

/** „j", „ja" → approve; „n", „nein" → reject; „n: Grund" or „nein, weil …" → reject with the reason. */
export function parseDecision(answer: string): ApprovalDecision | undefined {
  const text = answer.trim();
  if (/^(j|ja|y|yes)$/i.test(text)) return { approved: true };
  const no = /^(n|nein|no)\b[\s:,.-]*(.*)$/is.exec(text);
  if (no) return { approved: false, ...(no[2]?.trim() ? { feedback: no[2].trim() } : {}) };
  return undefined;
}

export interface Terminal {
  approve: ApproveFn;
  askUser: AskUserFn;
  /** Reads one line after the prompt; null when input ended (Ctrl+D). */
  readLine(prompt: string): Promise<string | null>;
  close(): void;
}

export function openTerminal(print: (text: string) => void = console.log): Terminal {
  const rl: Interface = createInterface({ input: process.stdin, output: process.stdout });
  // Lines are queued: piped input arrives all at once, before anyone asks for it.
  const lines: string[] = [];
  let waiting: ((line: string | null) => void) | undefined;
  let ended = false;
  rl.on("line", (line) => (waiting ? (waiting(line), (waiting = undefined)) : lines.push(line)));
  rl.on("close", () => {
    ended = true;
    waiting?.(null);
    waiting = undefined;
  });
  const ask = (prompt: string, signal?: AbortSignal): Promise<string | null> => {
    process.stdout.write(prompt);
    if (lines.length > 0) return Promise.resolve(lines.shift() ?? null);
    if (ended || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onAbort = () => {
        waiting = undefined;
        process.stdout.write("\n");
        resolve(null);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting = (line) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(line);
      };
    });
  };
  return {
    async approve(request, signal) {
      print(`\n${describeApprovalRequest(request)}`);
      for (;;) {
        const answer = await ask("Freigeben? [j]a / [n]ein / n: <Begründung> › ", signal);
        if (answer === null) return { approved: false, feedback: signal?.aborted ? undefined : "Eingabe beendet" };
        const decision = parseDecision(answer);
        if (decision) return decision;
        print('Bitte „j", „n" oder „n: <Begründung>" eingeben.');
      }
    },
    async askUser(question, signal) {
      print(`\nRückfrage des Agenten: ${question}`);
      return (await ask("Antwort › ", signal)) ?? "";
    },
    readLine: (prompt) => ask(prompt),
    close: () => rl.close(),
  };
}

/** --yes: every side-effecting call approved, the preview still printed. */
export function autoApprove(print: (text: string) => void = console.log): ApproveFn {
  return (request) => {
    print(`\n${describeApprovalRequest(request)}\n→ automatisch freigegeben (--yes)`);
    return true;
  };
}
