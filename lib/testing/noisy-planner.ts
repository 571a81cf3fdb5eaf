// A scripted planner that is right with probability p: for demos and the voting benchmark. Each run
// gets its own ScriptedLlm (no shared state); a seeded PRNG decides per run whether it answers
// correctly or with one of several plausible wrong answers (picked uniformly), so wrong runs can
// agree with each other or split — as a real model's mistakes do.
import { seededRandom } from "../util.js";
import { ScriptedLlm } from "./scripted-llm.js";

export { seededRandom };

export interface NoisyPlannerOptions {
  /** Probability of the correct answer per run. */
  p: number;
  /** The correct answer. Required. */
  correct: string;
  /** Plausible wrong answers (at least one). */
  wrong: readonly string[];
  /** When set, the run first saves its answer with this tool (staged write), then answers. Default: no write. */
  save?: { toolName: string; fileName: string; title: string };
  /** Mixed into every run's seed (one trial of a benchmark = one salt). Default 0. */
  salt?: number;
}

/** Which answer run `seed` gives (same seed, same answer). */
export function noisyAnswer(options: NoisyPlannerOptions, seed: number): { text: string; correct: boolean } {
  const random = seededRandom(Math.imul(seed + 1, 0x9e3779b1) ^ (options.salt ?? 0));
  if (random() < options.p) return { text: options.correct, correct: true };
  return { text: options.wrong[Math.floor(random() * options.wrong.length)] ?? options.wrong[0]!, correct: false };
}

/** `llmForRun` for runVote: a fresh scripted model per run that replies with a plan. */
export function noisyPlanner(options: NoisyPlannerOptions): (run: number, seed: number) => ScriptedLlm {
  if (options.wrong.length === 0) throw new RangeError("noisyPlanner: mindestens eine falsche Antwort angeben.");
  return (_run, seed) => {
    const { text } = noisyAnswer(options, seed);
    const answer = { steps: [], final: text };
    if (!options.save) return new ScriptedLlm([answer]);
    const { toolName, fileName, title } = options.save;
    const save = {
      steps: [
        {
          description: "Antwort speichern",
          tools: [{ id: "save", name: toolName, arguments: { file_name: fileName, title, content: text } }],
        },
      ],
      final: null,
    };
    return new ScriptedLlm([save, answer]);
  };
}
