// loadLlm as the notebooks call it: in rehearsal mode (WORKSHOP_PROBE=1, `npm run workshop -- --probe`)
// the scripted rehearsal model, else the configured backend (llm/load.ts). Nothing is loaded in rehearsal.
import { loadConfig } from "../config.js";
import { loadConfiguredLlm, type LoadLlmOptions } from "../llm/load.js";
import type { Llm } from "../llm/types.js";
import { announcePracticeMode } from "../notebook/notices.js";
import { createRehearsalLlm } from "./rehearsal-llm.js";

/**
 * The model of Teil 1–4: the local model or the class server (LLM_BACKEND=openai) — or, in rehearsal
 * mode (WORKSHOP_PROBE=1), a scripted model that answers the notebooks' own questions and says so.
 */
export async function loadLlm(options: LoadLlmOptions = {}): Promise<Llm> {
  if (!loadConfig().probeMode) return loadConfiguredLlm(options);
  announcePracticeMode();
  return createRehearsalLlm();
}
