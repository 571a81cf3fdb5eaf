// What a report says about its run besides the figures: the machine, and the name a run goes by on the
// pages (the model file's name, or the oracle's self-test label).
import { cpus, platform, release, totalmem } from "node:os";
import { basename } from "node:path";
import type { MachineInfo, RunMeta } from "./report.js";

/** The oracle's run is no model: the checkers checked against each task's correct plan. */
export const SELF_TEST_LABEL = "Selbsttest des Prüfstands, kein Modell";

/** This machine: processor, cores, memory, operating system. */
export function machineInfo(accelerator?: string): MachineInfo {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() || "unbekannter Prozessor",
    cores: cores.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()}`,
    ...(accelerator ? { accelerator } : {}),
  };
}

/** Older reports wrote "node-llama-cpp /path/model.gguf" into `backend`: the model part of it. */
function legacyModel(backend: string | undefined): string | undefined {
  const match = /^(?:node-llama-cpp|openai-compatible) (.+)$/.exec(backend ?? "");
  return match?.[1];
}

export const isSelfTest = (meta: RunMeta): boolean => meta.selfTest === true || meta.backend === "oracle";

/** The name of a run on the pages: "Meta-Llama-3.1-8B-Instruct-Q4_K_M", or the self-test label. */
export function runLabel(meta: RunMeta): string {
  if (isSelfTest(meta)) return SELF_TEST_LABEL;
  const model = meta.model ?? legacyModel(meta.backend);
  if (model) return basename(model).replace(/\.gguf$/i, "");
  return meta.backend ?? "unbekanntes Modell";
}
