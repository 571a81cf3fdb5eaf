// A scripted stand-in for a native function-calling model (deterministic tests and demos without a
// model). Replays rounds of text/calls, records every request, and meters prompts like the
// ScriptedLlm: approximate tokens = characters / 4, the prefix shared with the previous request reused.
import { CHARS_PER_TOKEN_ESTIMATE } from "../llm/tokens.js";
import type { NativeFunction, ToolCallingLlm, ToolChatHistory, ToolChatRound } from "../llm/native-tools.js";
import type { GenerationMeter } from "../llm/types.js";

export interface ScriptedToolRound {
  text?: string;
  calls?: { name: string; params: unknown }[];
}

export interface ScriptedToolRequest {
  history: ToolChatHistory;
  functions: NativeFunction[];
}

/** What the scripted model "sees": functions as JSON, then the conversation (for metering only). */
function render(history: ToolChatHistory, functions: NativeFunction[]): string {
  return [JSON.stringify(functions), history.system ?? "", history.question, JSON.stringify(history.rounds)].join("\n");
}

export class ScriptedToolCaller implements ToolCallingLlm {
  readonly toolCallFormat = "vorgespielt";
  readonly requests: ScriptedToolRequest[] = [];
  private previous = "";

  /** When the script runs out, the last round repeats (a model that keeps calling). */
  constructor(private readonly script: ScriptedToolRound[]) {
    if (script.length === 0) throw new Error("ScriptedToolCaller: das Drehbuch braucht mindestens eine Runde.");
  }

  respondWithTools(history: ToolChatHistory, functions: NativeFunction[]): Promise<ToolChatRound> {
    const snapshot = structuredClone(history);
    const index = this.requests.length;
    this.requests.push({ history: snapshot, functions });
    const step = this.script[Math.min(index, this.script.length - 1)]!;
    const prompt = render(snapshot, functions);
    let shared = 0;
    while (shared < prompt.length && shared < this.previous.length && prompt[shared] === this.previous[shared])
      shared++;
    this.previous = prompt;
    const offset = history.rounds.reduce((n, r) => n + r.calls.length, 0);
    const calls = (step.calls ?? []).map((c, i) => ({
      id: `call_${offset + i + 1}`,
      name: c.name,
      params: structuredClone(c.params),
    }));
    const meter: GenerationMeter = {
      promptTokensEvaluated: Math.ceil((prompt.length - shared) / CHARS_PER_TOKEN_ESTIMATE),
      promptTokensReused: Math.floor(shared / CHARS_PER_TOKEN_ESTIMATE),
      generatedTokens: Math.ceil(((step.text ?? "").length + JSON.stringify(calls).length) / CHARS_PER_TOKEN_ESTIMATE),
      timeToFirstTokenMs: 0,
      totalMs: 0,
      tokensPerSecond: 0,
      scripted: true,
    };
    return Promise.resolve({ text: step.text ?? "", calls, meter });
  }
}
