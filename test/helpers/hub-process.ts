// Starts the Klassenraum-Hub (`npm run hub`) as a real subprocess on a free port and drives participants
// through it with Chromium: the German login page, then a notebook whose kernel runs a cell.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequestContext, Page } from "playwright-core";
import { findProjectRoot } from "../../lib/config.js";
import { jupyterhubMissing } from "../../scripts/apps/hub/start.js";
import { CHROMIUM } from "./chromium.js";
import { runCommand } from "./run-script.js";

export interface HubProcess {
  /** The login page's URL. */
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Sends `signal` (default SIGINT, as Ctrl+C) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startHubProcess(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<HubProcess> {
  const root = findProjectRoot();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(root, "scripts", "kit.ts"), "hub", "--port", "0", ...args],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let text = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = async (signal: NodeJS.Signals = "SIGINT") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop("SIGINT");
      reject(new Error(`hub did not start: ${text}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      text += d.toString();
      const url = /Für den Raum:\s+(http:\S+)/.exec(text)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url, child, output: () => text, stop });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`hub exited (${code}): ${text}`));
    });
  });
}

export { CHROMIUM, launchChromium } from "./chromium.js";

export const isRoot = process.getuid?.() === 0;

/** Why a test with a real hub cannot run here (undefined: it can); `needs` adds root and Chromium. */
export function hubTestSkip(needs: { root?: boolean; chromium?: boolean } = {}): string | undefined {
  if (jupyterhubMissing()) return "JupyterHub is not installed (apt-get install jupyterhub)";
  if (needs.root && !isRoot) return "needs root (one system user per participant)";
  if (needs.chromium && !CHROMIUM) return "no Chromium";
  return undefined;
}

export interface HubTestFolder {
  /** The temporary folder (mode 755: the participants' system users pass through it to their folders). */
  dir: string;
  /** `dir`/hub: the hub's --root (participants' folders and its state). */
  root: string;
  /** As root, `npm run hub -- --aufraeumen` when the hub made anything (accounts, folders, state); then
   *  `beforeRemove`, and the folder is removed unless KEEP_HUB_TEST is set. */
  remove(beforeRemove?: () => void): Promise<void>;
}

/** A temporary folder for a test's hub. */
export function hubTestFolder(prefix: string): HubTestFolder {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  const root = join(dir, "hub");
  return {
    dir,
    root,
    async remove(beforeRemove) {
      if (isRoot && existsSync(join(root, ".hub"))) await runCommand("hub", ["--aufraeumen", "--root", root]);
      beforeRemove?.();
      if (process.env.KEEP_HUB_TEST) console.log(`kept: ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The PIN the tests' participants choose unless a test says otherwise. */
export const TEST_PIN = "Pin-1234";

/** Fills the hub's login form and submits it; returns the login error shown, or undefined when it went on. */
export async function logIn(
  page: Page,
  loginUrl: string,
  name: string,
  code: string,
  pin = TEST_PIN,
): Promise<string | undefined> {
  await page.goto(loginUrl);
  await page.fill("#username_input", name);
  await page.fill("#password_input", code);
  if (await page.locator("#pin_input").count()) await page.fill("#pin_input", pin);
  await Promise.all([page.waitForLoadState("load"), page.click("#login_submit")]);
  const error = await page
    .locator(".login_error")
    .textContent({ timeout: 500 })
    .catch(() => null);
  return error?.trim() || undefined;
}

// Code run inside the page, as strings (this project compiles without the DOM library); Notebook 6.4
// exposes window.Jupyter.notebook.
const KERNEL_READY = `Boolean(window.Jupyter?.notebook?.kernel?.is_connected()) &&
  document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null`;
const KERNEL_SEEN = `JSON.stringify({
  url: location.href,
  indicator: document.querySelector("#kernel_indicator_icon")?.className,
  notice: document.querySelector("#notification_kernel")?.textContent,
  dialog: document.querySelector(".modal.in .modal-title")?.textContent,
  connected: window.Jupyter?.notebook?.kernel?.is_connected?.(),
})`;
const run = (code: string, timeoutMs: number) => `(async () => {
  const cell = Jupyter.notebook.insert_cell_at_index("code", 0);
  cell.set_text(${JSON.stringify(code)});
  cell.execute();
  const until = Date.now() + ${timeoutMs};
  await new Promise((r) => setTimeout(r, 100));
  while (Date.now() < until && (cell.input_prompt_number === "*" || cell.input_prompt_number === null)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return cell.output_area.outputs
    .map((o) => [].concat(o.text ?? (o.ename ? o.ename + ": " + o.evalue : (o.data?.["text/plain"] ?? ""))).join(""))
    .join("");
})()`;

/** Opens a notebook of the participant's folder and waits for its kernel (autosave off: the file stays as it is). */
export async function openNotebook(page: Page, userUrl: string, notebook: string, timeoutMs = 120_000): Promise<void> {
  const url = `${userUrl}/notebooks/${notebook}`;
  // Right after a login the waiting page may still be moving on to the first notebook (00-start) by script; that
  // navigation can cut this one off or replace it (Chromium says "interrupted by another navigation" or, when its
  // own navigation was cancelled, net::ERR_ABORTED). Then go again, once it has arrived.
  for (let attempt = 1; ; attempt++) {
    const went = await page.goto(url, { timeout: timeoutMs }).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (
      went !== undefined &&
      (attempt >= 3 || !/interrupted by another navigation|net::ERR_ABORTED/.test(String(went)))
    )
      throw went;
    await page.waitForLoadState("load", { timeout: timeoutMs });
    if (page.url().includes(`/notebooks/${notebook}`)) break;
    // The hub's waiting page for this notebook moves on to it by itself once the server is up.
    if (page.url().includes("/hub/spawn-pending/") && decodeURIComponent(page.url()).includes(notebook)) {
      await page.waitForURL((at) => at.href.includes(`/notebooks/${notebook}`), { timeout: timeoutMs });
      break;
    }
    if (attempt >= 3) throw new Error(`${notebook} did not open: the browser is at ${page.url()}`);
  }
  await page.waitForFunction(KERNEL_READY, undefined, { timeout: timeoutMs, polling: 250 }).catch(async (error) => {
    // What the participant would see: the kernel indicator, Notebook's kernel notice and any dialog.
    const seen = await page.evaluate(KERNEL_SEEN).catch((e: unknown) => `(page not readable: ${String(e)})`);
    throw new Error(`${notebook}: no ready kernel after ${timeoutMs / 1000} s; the page shows ${seen}`, {
      cause: error,
    });
  });
  await page.evaluate("Jupyter.notebook.set_autosave_interval(0)");
}

/** Runs `code` in a new first cell of the open notebook and returns its output text (streams, results, errors). */
export async function runCell(page: Page, code: string, timeoutMs = 120_000): Promise<string> {
  return (await page.evaluate(run(code, timeoutMs))) as string;
}

/** The login page's XSRF token (hidden field `_xsrf`), which also sets its cookie in `context`; "" when the page has none. */
export async function xsrfToken(context: APIRequestContext, pageUrl: string): Promise<string> {
  const page = await (await context.get(pageUrl)).text();
  return /name="_xsrf" value="([^"]+)"/.exec(page)?.[1] ?? "";
}

/** Logs in through the login form without a browser (cookies stay in `context`); the response is not followed. */
export async function postLogIn(
  context: APIRequestContext,
  loginUrl: string,
  fields: { username: string; password: string; pin?: string },
): Promise<{ status: number; location: string; text: string }> {
  const _xsrf = await xsrfToken(context, loginUrl);
  const res = await context.post(loginUrl, { form: { pin: TEST_PIN, ...fields, _xsrf }, maxRedirects: 0 });
  return { status: res.status(), location: res.headers()["location"] ?? "", text: await res.text() };
}

/** The system user the hub gave participant `name` (teilnehmende.json): usually kurs-<name>, but another name
 *  when an account of that name exists that the hub did not make (e.g. left by another run on this machine). */
export function hubUser(root: string, name: string): string {
  const participants = JSON.parse(readFileSync(join(root, ".hub", "teilnehmende.json"), "utf8")) as Record<
    string,
    { name: string; user: string }
  >;
  const found = Object.values(participants).find((p) => p.name === name);
  if (!found) throw new Error(`${name} is not in ${root}/.hub/teilnehmende.json`);
  return found.user;
}
