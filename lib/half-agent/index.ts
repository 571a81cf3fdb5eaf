// Teil 3 — the half-agent: the model proposes one tool call per turn, the notebook (or a person) runs it.
export {
  parseToolCall,
  halfAgentReplyFromJson,
  executeToolCall,
  findInToolHistory,
  formatToolHistory,
  buildHalfAgentMessages,
  buildFinalAnswerMessages,
  buildHalfAgentJsonSchema,
  findUnsupportedArguments,
  reviewToolProposal,
  type HalfAgentReply,
  type HalfAgentToolCall,
  type ToolHistory,
  type ToolHistoryEntry,
  type UnsupportedArgument,
} from "./half-agent.js";
export {
  buildHalfAgentSystemPrompt,
  HALF_AGENT_FORMAT,
  HALF_AGENT_RULES,
  NO_TOOLS_INSTRUCTION,
  type HalfAgentPromptOptions,
} from "./prompts.js";
// Types of the public signatures (options, results, event parts), for lib/index.ts and the API reference.
export type { HalfAgentMessagesOptions } from "./half-agent.js";
