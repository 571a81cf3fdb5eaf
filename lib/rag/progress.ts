// A progress bar (cli-progress, on stderr) for long-running RAG steps: only in a terminal, unless asked.
import cliProgress from "cli-progress";

/** `true`: always show (also when stderr is not a terminal); `false`: never; `"auto"`: terminal only. */
export type ProgressMode = boolean | "auto";

export interface Progress {
  increment(n: number): void;
  stop(): void;
}

const SILENT: Progress = { increment: () => {}, stop: () => {} };

/** A bar over `total` steps, or a silent no-op when `mode` says no (or `total` is below `minTotal`). */
export function createProgress(label: string, total: number, mode: ProgressMode, minTotal = 1): Progress {
  const tty = Boolean(process.stderr.isTTY);
  const show = mode === true || (mode === "auto" && tty && total >= minTotal);
  if (!show || total <= 0) return SILENT;
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} | {duration_formatted}`,
      stream: process.stderr,
      noTTYOutput: !tty,
      notTTYSchedule: 1000,
      hideCursor: tty,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  let done = 0;
  return {
    increment(n: number) {
      done += n;
      bar.update(Math.min(done, total));
    },
    stop() {
      bar.stop();
    },
  };
}
