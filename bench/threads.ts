// Threads for the benches on real-sized models (speed twins, a real GGUF): BENCH_THREADS, else what the
// kit uses on a participant's machine (llama.cpp's math cores, lib/llm/threads.ts). Never LLM_THREADS:
// `npm run bench` sets it to 1 for the tiny test models (bench/run.ts), which would halve the figures.
const raw = process.env.BENCH_THREADS;
if (raw !== undefined && !/^[1-9]\d*$/.test(raw))
  throw new Error(`BENCH_THREADS must be a positive integer, not "${raw}"`);

/** undefined: the kit's default. */
export const BENCH_THREADS: number | undefined = raw === undefined ? undefined : Number(raw);

/** `env` for a child process that loads the model the kit's way, with BENCH_THREADS (or the default). */
export function withBenchThreads(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { LLM_THREADS: _tinyModelThreads, ...rest } = env;
  return BENCH_THREADS === undefined ? rest : { ...rest, LLM_THREADS: String(BENCH_THREADS) };
}
