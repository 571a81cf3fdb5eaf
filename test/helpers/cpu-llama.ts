// A CPU-only node-llama-cpp instance for the surrounding describe block (grammar tests need no model).
import { after, before } from "node:test";
import type { Llama } from "node-llama-cpp";

/** Registers before/after hooks; call the returned function inside a test to get the instance. */
export function useCpuLlama(): () => Llama {
  let llama: Llama | undefined;
  before(async () => {
    const { getLlama } = await import("node-llama-cpp");
    llama = await getLlama({ gpu: false, build: "never" });
  });
  after(async () => {
    await llama?.dispose();
  });
  return () => {
    if (!llama) throw new Error("useCpuLlama: the before hook has not run");
    return llama;
  };
}
