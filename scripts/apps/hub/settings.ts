// What scripts/apps/hub/main.ts hands to the kit's JupyterHub configuration (jupyterhub_config.py reads it from
// the file named in KURS_HUB_SETTINGS): ports, the login check's address, the notebooks each participant gets, and
// the environment of every participant's kernel.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { KURS_HUB_ID_ENV } from "../../../lib/config.js";
import type { HubArgs } from "./args.js";
import type { SpawnLimits } from "./limits.js";

/** One file (or link) a participant's folder gets; `to` is relative to the folder. */
export interface HubFile {
  from: string;
  to: string;
  link?: boolean;
}

export interface HubSettings {
  host: string;
  port: number;
  hubPort: number;
  proxyApiPort: number;
  /** The proxy `npm run hub` runs (and keeps across restarts of JupyterHub), with its API token. */
  proxyToken: string;
  root: string;
  stateDir: string;
  templates: string;
  /** Root: one system user per participant (LocalProcessSpawner); else all share this one. */
  isolated: boolean;
  notebooks: HubFile[];
  solutions: HubFile[];
  kernelEnv: Record<string, string>;
  singleUserArgs: string[];
  /** Where a participant lands after login (Spawner.default_url), e.g. /notebooks/00-start.ipynb. */
  firstScreen: string;
  /** Where the authenticator asks whether a login may go ahead (login-check.ts, served by `npm run hub`). */
  loginCheck: { url: string; token: string };
  /** The disk guard's token for the hub's API (a JupyterHub service that may stop servers). */
  guardToken: string;
  /** The board's hub key: each kernel gets KURS_BOARD_TOKEN, its participant's token (board/hub-trust.ts); null without. */
  boardHubKey: string | null;
  limits: SpawnLimits;
}

/** The kernel's name as `npm run setup` registers it (.jupyter-prefix/share/jupyter/kernels/tslab). */
export const KIT_KERNEL = "tslab";
/** Set in the hub's and every participant's environment, so a stop can find all that the hub started. */
export const HUB_ID_ENV = KURS_HUB_ID_ENV;

/** Settings of the instructor's environment a participant's kernel inherits (models, data, modes; KIT_KERNEL_SNAPSHOT=0:
 * kernels start without the V8 snapshot, ~40 MB less each for ~0.8 CPU-s more per start; under sudo it must come
 * after `sudo`). */
const PASSED_ON = /^(LLM_|EMBEDDING_MODEL$|MODELS_|TRAVEL_|WORKSHOP_PRACTICE$|WORKSHOP_PROBE$|KIT_KERNEL_SNAPSHOT$)/;

export function hubStateDir(root: string): string {
  return join(root, ".hub");
}

/**
 * The notebooks (and solutions) of the kit with the built lib beside them, as a participant's folder holds
 * them; plus the RAG indexes the instructor's machine has already built (`rag`: the instructor's RAG_CACHE_DIR, default `<kit>/.cache/rag`), so Teil 2
 * loads them from the participant's own cache (RAG_CACHE_DIR) instead of embedding the corpus once per person.
 */
export function participantFiles(
  kitRoot: string,
  rag = join(kitRoot, ".cache", "rag"),
): { notebooks: HubFile[]; solutions: HubFile[] } {
  const dir = join(kitRoot, "notebooks");
  const lib = join(kitRoot, ".cache", "notebook-lib");
  const ipynb = (folder: string) =>
    readdirSync(folder)
      .filter((f) => f.endsWith(".ipynb") && !f.startsWith(".")) // not a test run's hidden working copy
      .sort();
  const indexes = existsSync(rag)
    ? readdirSync(rag)
        .filter((f) => !f.includes(".tmp-"))
        .map((f) => ({ from: join(rag, f), to: join(".cache", "rag", f) }))
    : [];
  return {
    notebooks: [
      ...ipynb(dir).map((f) => ({ from: join(dir, f), to: f })),
      { from: lib, to: "lib", link: true },
      ...indexes,
    ],
    solutions: [
      ...ipynb(join(dir, "loesungen")).map((f) => ({ from: join(dir, "loesungen", f), to: join("loesungen", f) })),
      { from: lib, to: join("loesungen", "lib"), link: true },
    ],
  };
}

export function kernelEnvironment(
  args: HubArgs,
  kitRoot: string,
  code: string,
  hubId: string,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const kernelEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (PASSED_ON.test(key) && value !== undefined) kernelEnv[key] = value;
  if (args.llmUrl) Object.assign(kernelEnv, { LLM_BACKEND: "openai", LLM_BASE_URL: args.llmUrl });
  Object.assign(kernelEnv, {
    WORKSHOP_ROOT: kitRoot,
    JUPYTER_PATH: join(kitRoot, ".jupyter-prefix", "share", "jupyter"),
    PYDEVD_DISABLE_FILE_VALIDATION: "1",
    KURS_BOARD: args.boardUrl ?? "",
    KURS_CODE: code,
    [HUB_ID_ENV]: hubId,
  });
  return kernelEnv;
}

/**
 * Options of each participant's Jupyter server: the kit's kernel, idle kernels stopped (also behind an open tab:
 * the patched tslab tells the tab, which shows the German "Kernel beendet" dialog), Host names checked
 * (kurs_host_check).
 */
export function singleUserArgs(args: HubArgs): string[] {
  return [
    `--MappingKernelManager.default_kernel_name=${KIT_KERNEL}`,
    ...cullingArgs(args.idleMinutes * 60, 60),
    ...KERNEL_RESTART_ARGS,
    "--NotebookApp.terminals_enabled=False",
    // JupyterHub 3.0's singleuser ignores --NotebookApp.allow_remote_access (a class attribute forces True):
    // singleuser/kurs_host_check.py checks the Host against local_hostnames instead.
    "--NotebookApp.nbserver_extensions=kurs_host_check=True",
    `--NotebookApp.local_hostnames=${JSON.stringify(args.bind.allowedHosts.map((h) => h.replace(/^\[|\]$/g, "")))}`,
  ];
}

/**
 * Jupyter chooses a kernel's ports, then starts it; in a busy room another kernel or server may take one of them
 * first. The kernel then ends at once (the kit's tslab patch) and Jupyter starts it again on new ports, but only
 * - with the kit's kernel manager (singleuser/kurs_kernel_manager.py: jupyter_client 7.4's port cache kept the
 *   taken port across restarts, whatever the restarter asked for);
 * - within the kernel's first `stable_start_time` seconds (default 10; after that it restarts on the same ports,
 *   which stay taken): 60 s covers a start on a machine busy with the whole room's logins.
 */
export const KERNEL_RESTART_ARGS = [
  "--MappingKernelManager.kernel_manager_class=kurs_kernel_manager.KursKernelManager",
  "--KernelRestarter.stable_start_time=60",
];

/** Idle kernels are ended after `idleSeconds`, checked every `intervalSeconds`, whether a tab is open or not. */
export function cullingArgs(idleSeconds: number, intervalSeconds: number): string[] {
  return [
    `--MappingKernelManager.cull_idle_timeout=${idleSeconds}`,
    `--MappingKernelManager.cull_interval=${intervalSeconds}`,
    // A forgotten tab's kernel otherwise holds 180–390 MB all day.
    "--MappingKernelManager.cull_connected=True",
  ];
}
