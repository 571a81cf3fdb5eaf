// Starts the class board (`npm run board`) as a real subprocess on a free loopback port and waits for
// the URL it prints for the projector.
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { findProjectRoot } from "../../lib/config.js";
import { startBoardServer } from "../../scripts/apps/board/server.js";
import type { BoardState } from "../../scripts/apps/board/state.js";
import { chromiumIfInstalled } from "./chromium.js";

export interface BoardProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Ends the board with `signal` (SIGKILL: a crash, nothing flushed) and waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** `env`: added to this process's environment (e.g. WORKSHOP_ROOT for a kit folder of the test's own). */
export function startBoardProcess(
  args: string[],
  timeoutMs = 30_000,
  env: NodeJS.ProcessEnv = {},
): Promise<BoardProcess> {
  const root = findProjectRoot();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(root, "scripts", "kit.ts"), "board", "--port", "0", ...args],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop("SIGKILL");
      reject(new Error(`board did not start: ${text}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      text += d.toString();
      const url = /Für den Beamer:\s+(http:\S+)/.exec(text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, output: () => text, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`board exited (${code}): ${text}`));
    });
  });
}

export interface BoardWithBrowser {
  board: BoardProcess;
  /** Chromium where it is installed (undefined: the page tests skip). */
  browser: Browser | undefined;
}

/** The board subprocess started with `args`, and a browser to look at its page. */
export async function startBoardWithBrowser(args: string[]): Promise<BoardWithBrowser> {
  const board = await startBoardProcess(args);
  return { board, browser: await chromiumIfInstalled() };
}

/**
 * The end of a board test file: closes the browser, kills the board (SIGKILL: nothing of a test's board is
 * kept) and removes the test's folder `dir`, unless KEEP_BOARD_TEST is set (then it says where it is).
 */
export async function stopBoardWithBrowser({ board, browser }: Partial<BoardWithBrowser>, dir: string): Promise<void> {
  await browser?.close();
  await board?.stop("SIGKILL");
  if (process.env.KEEP_BOARD_TEST) console.log(`screenshots: ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

/** The board's page in a new tab at `viewport`, once the rows of `participants` people are there. */
export async function openBoardPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
  participants: number,
): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto(url);
  const lastRow = page.locator("tr.person").nth(participants - 1);
  await lastRow.waitFor({ timeout: 10_000 });
  return page;
}

/** The board's server in this process on a free loopback port, quiet (no log, nothing saved), serving `state`. */
export function startBoardInProcess(state: BoardState) {
  return startBoardServer({ host: "127.0.0.1", port: 0, state, onChange: () => undefined, log: () => undefined });
}
