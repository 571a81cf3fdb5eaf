// Rehearsal mode (WORKSHOP_PROBE=1): the scripted model that answers the Teil notebooks' questions, and
// the loadLlm that hands it out. Only loadLlm is part of lib/index.ts.
export { loadLlm } from "./load.js";
export { createRehearsalLlm, marked, rehearsalReply } from "./rehearsal-llm.js";
export { evalOracleFor } from "./eval-tasks.js";
export { NOT_SCRIPTED, PROBE_EXAMPLES, SCRIPT, scriptFor, type ScriptEntry } from "./script.js";
