// Types for scripts/setup.mjs (plain JavaScript so it runs before node_modules exists).
export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Capture stdout/stderr instead of showing them. */
  capture?: boolean;
  timeoutMs?: number;
}
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}
export type Runner = (command: string, args: string[], options?: RunOptions) => Promise<RunResult>;
export interface StepResult {
  name: string;
  status: "ok" | "skipped" | "todo" | "failed";
  detail: string;
  todo?: string[];
}
export interface SetupOptions {
  root?: string;
  platform?: NodeJS.Platform;
  arch?: string;
  uid?: number;
  env?: NodeJS.ProcessEnv;
  nodeVersion?: string;
  node?: string;
  run?: Runner;
  log?: (line: string) => void;
}
export const APT_PACKAGES: string[];
export const HUB_APT_PACKAGE: string;
export const MIN_NODE: [number, number];
export const NPM_ALLOW_SCRIPTS_FROM: [number, number];
export const LOCK_STAMP: string;
export const PREBUILT: Record<"node-llama-cpp" | "onnxruntime-node" | "faiss-node", string>;
export function nodeIsSupported(version: string): boolean;
export function npmHonoursAllowScripts(version: string): boolean;
export function manualInstructions(platform: string, arch: string, missing: string[]): string[];
export function realRunner(platform?: NodeJS.Platform): Runner;
export function setup(options?: SetupOptions): Promise<{ code: number; results: StepResult[] }>;
export const APPLIED_PATCHES: string;
/** The patch step alone (tests): applies patches/, taking back an older applied version first. */
export function stepPatches(
  ctx: Required<Pick<SetupOptions, "root" | "node" | "run" | "log" | "env" | "nodeVersion">>,
): Promise<Omit<StepResult, "name">>;
