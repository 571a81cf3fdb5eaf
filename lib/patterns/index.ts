// Patterns built on the agents: voting over k isolated runs, native function calling, and the comparison
// of the three tool-calling styles. Rendering lives in lib/display.
export {
  runVote,
  decideVote,
  voteDecided,
  outcomeKey,
  normalizeAnswer,
  type VoteOptions,
  type VoteResult,
  type VoteRule,
  type VoteEvent,
} from "./vote.js";
export {
  runNativeToolChat,
  type NativeCallRecord,
  type NativeToolChatOptions,
  type NativeToolChatResult,
} from "./native-tools.js";
export {
  runHalfAgentOnce,
  halfAgentRow,
  refPlanRow,
  nativeRow,
  styleTableMarkdown,
  type StyleRow,
  type ToolCallingStyle,
} from "./style-comparison.js";
// Types of the public signatures (options, results, event parts), for lib/index.ts and the API reference.
export type { NativeRunStatus } from "./native-tools.js";
export type { HalfAgentRun } from "./style-comparison.js";
export type { VoteDecision, VoteRun, VoteTally } from "./vote.js";
