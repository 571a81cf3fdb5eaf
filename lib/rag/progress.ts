// A progress bar (cli-progress, on stderr) for long-running RAG steps: only in a terminal, unless asked.
import cliProgress from "cli-progress";
import { inNotebook } from "../notebook/output.js";
import { progressLine } from "../notebook/progress.js";

/** `true`: always show (also when stderr is not a terminal); `false`: never; `"auto"`: terminal only. */
export type ProgressMode = boolean | "auto";

export interface ProgressBar {
  increment(n: number): void;
  stop(): void;
}

const SILENT: ProgressBar = { increment: () => {}, stop: () => {} };

/**
 * A bar over `total` steps, or a silent no-op when `mode` says no (or `total` is below `minTotal`).
 * In a notebook (mode not false) the bar is a line in the cell that updates in place.
 */
export function createProgressBar(label: string, total: number, mode: ProgressMode, minTotal = 1): ProgressBar {
  if (mode !== false && inNotebook() && total >= minTotal && total > 0) {
    const line = progressLine(label);
    if (line) {
      let done = 0;
      return {
        increment(n: number) {
          done += n;
          line.update(Math.min(done, total) / total, `${Math.min(done, total)} / ${total}`);
        },
        stop() {
          line.done(`${Math.min(done, total)} / ${total}`);
        },
      };
    }
  }
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
