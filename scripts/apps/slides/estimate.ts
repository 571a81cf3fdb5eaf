// How long a deck takes to present, from the notebook's slide metadata. Pure: a notebook and a model
// speed come in, counts and seconds go out (test/slides/estimate.test.ts).
//
// The model (a planning aid, not a measurement in a room):
//   time = slides × 20 s (change, orient the room, say the point)
//        + words of Markdown × 0.4 s (spoken at ~150 words a minute: the presenter says about what the slide says)
//        + code lines × 3 s (read a line, say what it does)
//        + fragments × 5 s (a pause for the click)
//        + the live model waits of the shown cells that call the real model.
// Calibrated on the day plan's own reading that Teil 2 (40 slides) and Teil 3 (45) just fill their 40 and
// 45 minutes: a slide with ~30 words and ~7 code lines takes about a minute. Not measured in a room.
// Skipped cells (slide type "skip", the Vertiefung) and speaker notes cost nothing; the closing slide that
// lists the Vertiefung sections (reading-list.ts) costs a slide.
//
// Live model waits: each call costs new prompt tokens ÷ prompt rate + generated tokens ÷ generation rate.
// A call is counted where it is written in a shown cell whose code passes the real `llm` (a scripted model,
// `llm: new ScriptedLlm(…)` or `llmForRun: …`, costs nothing); a loop around a call counts once. The
// planner's prompt (travel catalog) is read once per deck; later agent rounds find it in the KV cache and
// read only what is new (the question, the tool results).
import { slideType, type NbCell, type Notebook, type Slide } from "./deck.js";
import { deckSlideCount } from "./reading-list.js";

export const PER_SLIDE_SECONDS = 20;
export const PER_WORD_SECONDS = 0.4;
export const PER_CODE_LINE_SECONDS = 3;
export const PER_FRAGMENT_SECONDS = 5;

/** Teil 4's planner prompt and first plan in Llama 3 tokens (`doctor --tempo`, scripts/dev/twins/first-answer.ts). */
export const PLANNER_PROMPT_TOKENS = 2564;
export const PLAN_TOKENS = 86;
/** A plain chat call: system prompt and question in, a short answer out. */
const CHAT = { promptTokens: 200, generatedTokens: 120 };
/** Teil 3's half-agent: its prompt with the tool list, a tool call as JSON. */
const HALF_AGENT_PLAN = { promptTokens: 900, generatedTokens: 40 };
/** An agent run's rounds after the first plan: tool results in, a final answer out. */
const AGENT_FOLLOW_UP = { promptTokens: 300, generatedTokens: 60 };
/** What a planner round reads when the planner prompt is already cached: the question and the date. */
const CACHED_PLANNER_PROMPT_TOKENS = 100;
/** Tasks of the Modell-Check (lib/eval/tasks.ts). */
const MODEL_CHECK_TASKS = 7;

/** A model's speed on a machine: what the waits are predicted from. */
export interface ModelSpeed {
  /** Short German label for the table's column. */
  label: string;
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
  /** Where the numbers come from. */
  source: string;
}

/** Default: Llama 3.1 8B on a class GPU server (the guide's server table, per slot). */
export const CLASS_SERVER_8B: ModelSpeed = {
  label: "8B Klassen-Server",
  promptTokensPerSecond: 3000,
  generationTokensPerSecond: 100,
  source: "Leitfaden, Klassen-Server mit GPU 24 GB: Einlesen ~3000, Erzeugen ~100 Tokens/s je Slot (Annahme)",
};
/** Second column: Llama 3.1 8B on the CPU of the kit's 2-core VM (the guide's measured twin table). */
export const CPU_8B: ModelSpeed = {
  label: "8B CPU",
  promptTokensPerSecond: 2525 / 98.6,
  generationTokensPerSecond: 2.8,
  source: "Leitfaden, 8B-Zwilling auf der 2-Kern-VM: Planer-Prompt 2.525 Tokens in 98,6 s, Erzeugen 2,8 Tokens/s",
};

/** The 8B's predicted speed from `npm run doctor -- --tempo --json` (the file or its `tempo` object). */
export function speedFromDoctorJson(json: unknown, label = "8B laut doctor --tempo"): ModelSpeed | string {
  const tempo = (json as { tempo?: unknown })?.tempo ?? json;
  const predictions = (tempo as { predictions?: unknown })?.predictions;
  const p = Array.isArray(predictions)
    ? (predictions as Record<string, unknown>[]).find((x) => x?.model === "llama-3.1-8b")
    : undefined;
  const prompt = Number(p?.promptTokensPerSecond);
  const generation = Number(p?.generationTokensPerSecond);
  if (!(prompt > 0 && generation > 0)) {
    return "Die Datei enthält keine Tempo-Vorhersage für Llama 3.1 8B – erzeugen mit: npm run doctor -- --tempo --json > tempo.json";
  }
  return {
    label,
    promptTokensPerSecond: prompt,
    generationTokensPerSecond: generation,
    source: "npm run doctor -- --tempo --json",
  };
}

/** One live model call: the prompt tokens it reads anew and the tokens it writes. */
export interface ModelCall {
  promptTokens: number;
  generatedTokens: number;
}

export interface DeckStats {
  /** Leaf slides (horizontal and vertical), as the browser counts them. */
  slides: number;
  /** Leaf slides that show code. */
  codeSlides: number;
  /** Words of the shown Markdown cells. */
  words: number;
  codeLines: number;
  fragments: number;
  /** Shown code cells that call the real model, and their calls. */
  modelCells: number;
  modelCalls: ModelCall[];
}

const sourceOf = (cell: NbCell) => (Array.isArray(cell.source) ? cell.source.join("") : cell.source);

/** The cell passes the real model (`llm`, `llm: llm`), not a scripted one (`llm: drehbuch`, `llmForRun`). */
const REAL_MODEL = /\bllm\b(?!\s*:)|\bllm\s*:\s*llm\b/;
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** The model calls written in one cell; the planner prompt is read in full only while `cached.planner` is false. */
export function modelCallsOf(code: string, cached: { planner: boolean }): ModelCall[] {
  const calls: ModelCall[] = [];
  // Teil 3's helper around the real model (its definition, `function planeMitGrammatik(`, is no call).
  for (let i = count(code, /(?<!function )\bplaneMitGrammatik\(/g); i > 0; i--) calls.push(HALF_AGENT_PLAN);
  if (!REAL_MODEL.test(code)) return calls;
  const plan = (): ModelCall => {
    const promptTokens = cached.planner ? CACHED_PLANNER_PROMPT_TOKENS : PLANNER_PROMPT_TOKENS;
    cached.planner = true;
    return { promptTokens, generatedTokens: PLAN_TOKENS };
  };
  const agentRun = () => calls.push(plan(), AGENT_FOLLOW_UP);
  for (let i = count(code, /\bllm\.chat\(/g); i > 0; i--) calls.push(CHAT);
  for (let i = count(code, /\brunHalfAgentOnce\(/g); i > 0; i--) calls.push(HALF_AGENT_PLAN, AGENT_FOLLOW_UP);
  // llm.generateJson with the planner's messages is Teil 4's first plan; elsewhere it sits inside a helper.
  if (/\bllm\.generateJson\(planSchema/.test(code)) calls.push(plan());
  for (let i = count(code, /\brunAgent\(|\.ask\(|\brunNativeToolChat\(/g); i > 0; i--) agentRun();
  for (const m of code.matchAll(/\brunVote\([\s\S]*?\bk:\s*(\d+)/g)) for (let i = Number(m[1]); i > 0; i--) agentRun();
  for (const m of code.matchAll(/\brunModelCheck\([\s\S]*?\bk:\s*(\d+)/g))
    for (let i = Number(m[1]) * MODEL_CHECK_TASKS; i > 0; i--) agentRun();
  return calls;
}

/** Counts what a deck shows (skipped cells and notes left out). */
export function deckStats(nb: Notebook): DeckStats {
  const stats: DeckStats = {
    slides: deckSlideCount(nb),
    codeSlides: 0,
    words: 0,
    codeLines: 0,
    fragments: 0,
    modelCells: 0,
    modelCalls: [],
  };
  const cached = { planner: false };
  let slideHasCode: boolean | undefined;
  for (const cell of nb.cells) {
    const type = slideType(cell);
    if (type === "skip" || type === "notes") continue;
    if (type === "slide" || type === "subslide" || slideHasCode === undefined) {
      if (slideHasCode) stats.codeSlides++;
      slideHasCode = false;
    }
    if (type === "fragment") stats.fragments++;
    const source = sourceOf(cell);
    if (cell.cell_type === "code") {
      slideHasCode = true;
      stats.codeLines += source.replace(/\n$/, "").split("\n").length;
      const calls = modelCallsOf(source, cached);
      if (calls.length > 0) stats.modelCells++;
      stats.modelCalls.push(...calls);
    } else {
      stats.words += source.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
    }
  }
  if (slideHasCode) stats.codeSlides++;
  return stats;
}

/** Seconds the live model calls keep the room waiting at `speed`. */
export function modelWaitSeconds(calls: readonly ModelCall[], speed: ModelSpeed): number {
  return calls.reduce(
    (s, c) => s + c.promptTokens / speed.promptTokensPerSecond + c.generatedTokens / speed.generationTokensPerSecond,
    0,
  );
}

/** Seconds of talking, without model waits. */
export function talkSeconds(s: DeckStats): number {
  return (
    s.slides * PER_SLIDE_SECONDS +
    s.words * PER_WORD_SECONDS +
    s.codeLines * PER_CODE_LINE_SECONDS +
    s.fragments * PER_FRAGMENT_SECONDS
  );
}

/** The whole estimate: talking plus the model waits at `speed`. */
export function presentationSeconds(s: DeckStats, speed: ModelSpeed): number {
  return talkSeconds(s) + modelWaitSeconds(s.modelCalls, speed);
}

/** Minutes, rounded up, German: "47 min". */
export const minutes = (seconds: number): string => `${Math.ceil(seconds / 60)} min`;

/** Seconds one shown cell adds to its slide (words, code lines, a click, its live model calls at `speed`). */
function cellSeconds(cell: NbCell, cached: { planner: boolean }, speed: ModelSpeed): number {
  const type = slideType(cell);
  const source = sourceOf(cell);
  const click = type === "fragment" ? PER_FRAGMENT_SECONDS : 0;
  if (cell.cell_type !== "code") return click + (source.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) * PER_WORD_SECONDS;
  const lines = source.replace(/\n$/, "").split("\n").length;
  return click + lines * PER_CODE_LINE_SECONDS + modelWaitSeconds(modelCallsOf(source, cached), speed);
}

/**
 * The deck's pacing: seconds per leaf slide (reveal.js's `data-timing`), by the same model as the whole
 * estimate — each slide its PER_SLIDE_SECONDS plus what its cells show; a page of outputs only its own
 * PER_SLIDE_SECONDS (its code was read on the slide before). Sets `timing` on each vertical slide.
 */
export function setSlideTimings(nb: Notebook, slides: Slide[], speed: ModelSpeed): number {
  const cached = { planner: false };
  let total = 0;
  for (const sub of slides.flat()) {
    const shown = sub.outputPage
      ? []
      : sub.cells.map((i) => nb.cells[i]!).filter((c) => slideType(c) !== "notes" && slideType(c) !== "skip");
    sub.timing = Math.round(PER_SLIDE_SECONDS + shown.reduce((t, c) => t + cellSeconds(c, cached, speed), 0));
    total += sub.timing;
  }
  return total;
}
